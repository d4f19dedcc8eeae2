"""The match of Thousand as a state machine: deal, bidding, talon, play, scoring.

This module owns the state of one match and every rule that moves it
forward. A :class:`Game` is driven by actions (:mod:`thousand.actions`):
``legal_actions()`` lists what the current player may do, ``apply()``
validates and applies one (an illegal one raises :class:`IllegalAction`
and changes nothing), and ``view(seat)`` builds what one seat may know.
Everything random flows from the seed, so the seed, the rules and the
action log rebuild a match exactly; that is also how a game is saved.

Phases of a hand: ``dark`` (only when dark play is allowed: first hand
chooses ``dark`` or ``look`` before seeing the cards) → ``bidding``
(торговля) → ``choose`` (two players: take one of two talons) → ``talon``
(the declarer holds the talon, прикуп, and gives one card to each opponent,
снос, or with two players discards two) → ``claim`` (only when an opponent
may claim a redeal for four nines received) → ``contract`` (заказ) →
``play`` → scored, and the next hand is dealt at once. ``over`` when
somebody has won the match. The golden round (золотой кон) skips bidding.
"""

from __future__ import annotations

import copy as _copy
import json
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from .actions import (
    Action,
    Bid,
    Bomb,
    Contract,
    Cross,
    Dark,
    Decline,
    Discard,
    Give,
    IllegalAction,
    Look,
    Pass,
    Play,
    Redeal,
    Take,
    WriteOff,
    as_action,
)
from .cards import (
    ACE,
    ACE_MARRIAGE_VALUE,
    ACES_MASK,
    FULL_DECK,
    JACKS_MASK,
    KING,
    MARRIAGE_VALUES,
    NINES_MASK,
    QUEEN,
    SUIT_CHARS,
    SUIT_MASKS,
    SUITS,
    Card,
    CardSet,
    bit,
    card_text,
    count,
    iter_cards,
    marriage_mask,
    marriages_in,
    mask_of,
    parse_card,
    points,
    rank_of,
    suit_of,
    texts_of,
)
from .rules import Rules
from .scoring import round_points, shuffled_deck, write_off_share

SAVE_FORMAT = "thousand-game/1"
OBLIGATORY_BID = 100
"""First hand sits on the hundred (обязательная сотня)."""
COMPULSORY_BID = 120
"""The bid of dark play and of the golden round."""
WIN_SCORE = 1000
FOUR_NINES_BONUS = 120
INTERMEDIATE_BARREL = 380
"""The intermediate barrel (промежуточная бочка), where the rules have one."""

DARK, BIDDING, CHOOSE, TALON, CLAIM, CONTRACT, PLAY, OVER = (
    "dark", "bidding", "choose", "talon", "claim", "contract", "play", "over",
)  # fmt: skip
_AFTER_BIDDING = (CHOOSE, TALON, CLAIM, CONTRACT, PLAY)


class Game:
    """One match of Thousand. Build it with :meth:`Game.new` or :meth:`Game.from_json`."""

    # --- construction ---------------------------------------------------------------------

    def __init__(self) -> None:
        # Filled in by new(); a bare Game is not playable.
        self.rules = Rules()
        self.seed: int | str = 0
        self.deals: list[dict[str, Any]] = []
        self.deal_seeds: dict[int, str] = {}
        self.explicit_dealt = 0
        """How many of ``deals`` have been dealt."""
        self.start_scores: list[int] | None = None
        self.players = 3
        self.log: list[str] = []
        # Match state, one entry per seat.
        self.scores: list[int] = []
        self.bolts: list[int] = []
        self.on_barrel: list[bool] = []
        self.barrel_hands: list[int] = []
        self.falls: list[int] = []
        self.write_offs: list[int] = []
        self.bombs: list[int] = []
        self.reverse_hands: list[int | None] = []
        self.at_380: list[int | None] = []
        self.last_bids: list[int | None] = []
        self.sheet: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.hand_no = 0
        self.deal_no = 0
        self.dealer = 0
        self.golden_left = 0
        self.golden_made = False
        # Hand state.
        self.phase = BIDDING
        self.turn = 0
        self.active: list[int] = []
        self.hands: list[CardSet] = []
        self.dealt: list[CardSet] = []
        self.talons: list[CardSet] = []
        self.talon: CardSet = 0
        self.talon_shown = False
        self.dark = False
        self.golden = False
        self.bids: list[tuple[int, int | None]] = []
        self.high_bid = OBLIGATORY_BID
        self.high_bidder = 0
        self.passed: list[bool] = []
        self.raised = False
        self.declarer: int | None = None
        self.bid: int | None = None
        self.contract: int | None = None
        self.given: list[tuple[Card, int]] = []
        self.discarded: CardSet = 0
        self.claimants: list[int] = []
        self.nines_bonus: list[int] = []
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[tuple[int, tuple[tuple[int, Card], ...], int]] = []
        self.won: list[CardSet] = []
        self.trick_counts: list[int] = []
        self.marriages: list[tuple[int, int]] = []
        self.ace_marriage_by: int | None = None
        self.trump: int | None = None
        self.trump_by: int | None = None
        self.last_action: dict[str, Any] | None = None
        self._last_trick_winner: int | None = None
        """The latest action with the trick it completed; the hand may already be over."""

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        seed: int | str = 0,
        deal: dict[str, Any] | Sequence[dict[str, Any]] | None = None,
        scores: Sequence[int] | None = None,
    ) -> Game:
        """A new match.

        ``seed`` deals every hand reproducibly; ``deal`` (one deal or a list)
        fixes the first deals explicitly, as ``{"dealer": 0, "hands": [[…7
        cards], …], "talon": [3 cards]}``; ``scores`` starts from given scores.
        With two players each hand has 10 cards and ``talon`` lists 4 cards:
        the first two are talon 0, the last two talon 1. With four players
        ``hands`` lists four hands and the dealer's is empty.

        Explicit deals are dealt in their order, each by the dealer it is
        written for: the seat its ``dealer`` names, or with four players the
        seat whose hand is empty (without ``dealer``, deal ``k`` is written for
        the ``k``-th dealer from the first one). A redeal is dealt again by the
        same dealer, so when the next explicit deal is written for another
        dealer, the redeal is shuffled from the seed and that explicit deal
        waits for its dealer. With two or three players a deal that names no
        dealer fits any dealer and is simply the next deal, redeals counting.
        So the cards always match who plays.
        """
        rules = rules if rules is not None else Rules.preset("classic")
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules value, not {type(rules).__name__}")
        unsupported = rules.unsupported()
        if unsupported:
            raise NotImplementedError(
                "these rule options are not implemented yet: " + ", ".join(unsupported)
            )
        if not isinstance(seed, int | str) or isinstance(seed, bool):
            raise ValueError(f"seed must be a whole number or a text, not {seed!r}")
        g = cls()
        g.rules = rules
        g.seed = seed
        g.players = n = rules.players
        if deal is None:
            deals: list[Any] = []
        elif isinstance(deal, dict):
            deals = [deal]
        elif isinstance(deal, list | tuple):
            deals = list(deal)
        else:
            raise ValueError("deal must be a dict or a list of dicts")
        g.scores = [0] * n
        g.bolts = [0] * n
        g.on_barrel = [False] * n
        g.barrel_hands = [0] * n
        g.falls = [0] * n
        g.write_offs = [0] * n
        g.bombs = [0] * n
        g.reverse_hands = [None] * n
        g.at_380 = [None] * n
        g.last_bids = [None] * n
        if scores is not None:
            g.start_scores = g._check_scores(scores)
            barrel = rules.barrel_at
            for s, value in enumerate(g.start_scores):
                if barrel is not None and value >= barrel:
                    g.scores[s], g.on_barrel[s] = barrel, True
                else:
                    g.scores[s] = value
        if deals and isinstance(deals[0], dict) and "dealer" in deals[0]:
            g.dealer = _check_seat(deals[0]["dealer"], n, "deal 1: dealer")
        else:
            g.dealer = shuffled_deck(seed, -1)[0] % n
        g.deals = [_check_deal(d, n, k, (g.dealer + k) % n) for k, d in enumerate(deals)]
        if rules.golden:
            g.golden_left = min(n, 3)
        g._deal()
        return g

    def _check_scores(self, scores: Sequence[int]) -> list[int]:
        if not isinstance(scores, list | tuple) or len(scores) != self.players:
            raise ValueError(f"scores must list {self.players} whole numbers")
        for value in scores:
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"scores must be whole numbers, not {value!r}")
            if value >= self._target:
                raise ValueError(f"a starting score must be below {self._target}, not {value}")
        return list(scores)

    @property
    def _target(self) -> int:
        return WIN_SCORE + 1 if self.rules.target_1001 else WIN_SCORE

    # --- seats ----------------------------------------------------------------------------

    @property
    def first_hand(self) -> int:
        """The seat left of the dealer (первая рука)."""
        return (self.dealer + 1) % self.players

    @property
    def sitting_out(self) -> int | None:
        """With four players the dealer sits out the hand ("on the talon")."""
        return self.dealer if self.players == 4 else None

    def _next(self, seat: int) -> int:
        s = (seat + 1) % self.players
        return (s + 1) % self.players if s == self.sitting_out else s

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        return None if self.phase == OVER else self.turn

    @property
    def opponents(self) -> list[int]:
        """The declarer's opponents (вистующие), clockwise from the declarer."""
        assert self.declarer is not None
        out, s = [], self._next(self.declarer)
        while s != self.declarer:
            out.append(s)
            s = self._next(s)
        return out

    # --- dealing --------------------------------------------------------------------------

    def _deal(self) -> None:
        n = self.players
        first = self.first_hand
        self.active = [first]
        while len(self.active) < min(n, 3):
            self.active.append(self._next(self.active[-1]))
        per = 10 if n == 2 else 7
        hands = [0] * n
        explicit = self._next_explicit_deal()
        if explicit is not None:
            d = explicit
            self.explicit_dealt += 1
            hands = [mask_of(h) for h in d["hands"]]
            talon_cards = [parse_card(c) for c in d["talon"]]
        else:
            seed = self.deal_seeds.get(self.deal_no, self.seed)
            deck = shuffled_deck(seed, self.deal_no)
            for k, seat in enumerate(self.active):
                for c in deck[k * per : (k + 1) * per]:
                    hands[seat] |= bit(c)
            talon_cards = deck[len(self.active) * per :]
        if n == 2:
            self.talons = [
                bit(talon_cards[0]) | bit(talon_cards[1]),
                bit(talon_cards[2]) | bit(talon_cards[3]),
            ]
            self.talon = 0
        else:
            self.talons = []
            self.talon = sum(bit(c) for c in talon_cards)
        self.deal_no += 1
        self.hands = hands
        self.dealt = list(hands)
        self.talon_shown = False
        self.dark = False
        self.golden = self.golden_left > 0
        self.bids = [(first, OBLIGATORY_BID)]
        self.high_bid = OBLIGATORY_BID
        self.high_bidder = first
        self.passed = [s not in self.active for s in range(n)]
        self.raised = False
        self.declarer = None
        self.bid = None
        self.contract = None
        self.given = []
        self.discarded = 0
        self.claimants = []
        self.nines_bonus = []
        self.trick = []
        self.tricks = []
        self.won = [0] * n
        self.trick_counts = [0] * n
        self.marriages = []
        self.ace_marriage_by = None
        self.trump = None
        self.trump_by = None
        if self.golden:
            # Golden round: first hand is declarer at a compulsory 120, talon unseen.
            self.bids = [(first, COMPULSORY_BID)]
            self.high_bid = COMPULSORY_BID
            self._take_talon(first)
        elif self._may_play_dark():
            self.phase = DARK
            self.turn = first
        else:
            self.phase = BIDDING
            self.turn = self._next(first)

    def _next_explicit_deal(self) -> dict[str, Any] | None:
        """The next explicit deal if it is written for the dealer dealing now."""
        if self.explicit_dealt >= len(self.deals):
            return None
        d = self.deals[self.explicit_dealt]
        if "dealer" in d:
            return d if d["dealer"] == self.dealer else None
        if self.players == 4:
            return None if d["hands"][self.dealer] else d
        return d

    def _may_play_dark(self) -> bool:
        r = self.rules
        first = self.first_hand
        if not r.dark or self.players == 2 or self.on_barrel[first]:
            return False
        return r.dark_min_score is None or self.scores[first] >= r.dark_min_score

    # --- legal actions --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Everything the current player may do now."""
        if self.phase == OVER:
            return []
        s = self.turn
        out: list[Action] = []
        if self.phase == DARK:
            out.extend((Dark(), Look()))
        elif self.phase == BIDDING:
            out.extend(Bid(v) for v in self._bid_values(s))
            out.append(Pass())
            if self._redeal_reasons(s):
                out.append(Redeal())
        elif self.phase == CHOOSE:
            out.extend((Take(0), Take(1)))
        elif self.phase == TALON:
            if self.players == 2:
                out.extend(Discard(c) for c in iter_cards(self.hands[s]))
            else:
                given_to = {seat for _, seat in self.given}
                opponents = self.opponents
                for c in iter_cards(self.hands[s]):
                    for opp in opponents:
                        if opp not in given_to:
                            out.append(Give(c, opp))
            self._append_declarer_options(out)
        elif self.phase == CLAIM:
            out.extend((Redeal(), Decline()))
        elif self.phase == CONTRACT:
            out.extend(Contract(v) for v in self._contract_values())
            self._append_declarer_options(out)
        elif self.phase == PLAY:
            out.extend(self._plays(s))
            if self._before_first_lead():
                self._append_abandon_options(out)
        return out

    def _append_declarer_options(self, out: list[Action]) -> None:
        self._append_abandon_options(out)
        if self._redeal_reasons(self.turn):
            out.append(Redeal())

    def _append_abandon_options(self, out: list[Action]) -> None:
        if self._may_write_off():
            out.append(WriteOff())
        r = self.rules
        anyone_on_barrel = any(self.on_barrel)
        if r.cross and not self.dark and not self.golden and not anyone_on_barrel:
            out.append(Cross())
        if r.bomb and self.declarer is not None and self.bombs[self.declarer] < r.bomb:
            out.append(Bomb())

    def is_legal(self, action: Action | str) -> bool:
        try:
            act = as_action(action)
        except IllegalAction:
            return False
        return self._allows(act)

    def _allows(self, act: Action) -> bool:
        if isinstance(act, Play) and self.phase == PLAY:
            # The hot path of every hand, checked without listing all actions.
            s = self.turn
            if self.trick:
                return not act.declare and bool(self._followable(self.hands[s]) & bit(act.card))
            if act.declare:
                return bool(self.hands[s] & bit(act.card)) and self._may_declare(s, act.card)
            return bool(self._leadable(s) & bit(act.card))
        return act in self.legal_actions()

    def _marriage_value(self, cards: CardSet) -> int:
        value = sum(MARRIAGE_VALUES[s] for s in marriages_in(cards))
        if self.rules.ace_marriage and cards & ACES_MASK == ACES_MASK:
            value += ACE_MARRIAGE_VALUE
        return value

    def _cap(self, cards: CardSet) -> int:
        """The highest bid or contract these cards allow (120 + their marriages)."""
        if self.rules.bid_cap == "none":
            return int(self.rules.max_bid)
        return min(int(self.rules.max_bid), 120 + self._marriage_value(cards))

    def _least_for(self, seat: int, value: int) -> int:
        """``value`` raised to what a player on the barrel must at least play: the
        barrel's least bid, and never less than what reaches the target."""
        if self.on_barrel[seat]:
            needed = self._target - self.scores[seat]
            return max(value, int(self.rules.barrel_min_bid), needed)
        return value

    def _values(self, low: int, high: int) -> list[int]:
        """Bid or contract values from ``low`` to ``high``: multiples of the step,
        plus ``low`` itself when a barrel minimum like 121 is not one."""
        step = int(self.rules.bid_step)
        start = -(-low // step) * step
        values = [low] if low % step and low <= high else []
        return values + list(range(start, high + 1, step))

    def _bid_values(self, seat: int) -> list[int]:
        r = self.rules
        if r.silence_below is not None and self.scores[seat] < r.silence_below:
            return []
        hand = self.hands[seat]
        # Against dark play only an opponent with a marriage may bid, and 125 at once.
        if self.dark and not (r.dark_undarken and marriages_in(hand)):
            return []
        step = int(r.bid_step)
        low = self._least_for(seat, (self.high_bid // step + 1) * step)
        high = self._cap(hand)
        values = self._values(low, high)
        if r.no_jump_bids:
            values = values[:1]
        return values

    def _contract_values(self) -> list[int]:
        assert self.declarer is not None and self.bid is not None
        low = self._least_for(self.declarer, self.bid)
        if self.dark or (self.golden and not self.rules.golden_raise):
            return [low]
        # A declarer who gave away a marriage card may not be able to reach
        # the bid any more; the bid itself always remains a contract.
        high = max(self._cap(self.hands[self.declarer]), low)
        return self._values(low, high)

    def _before_first_lead(self) -> bool:
        return not self.tricks and not self.trick

    def _may_write_off(self) -> bool:
        r = self.rules
        s = self.declarer
        if s is None or not r.write_off:
            return False
        if self.dark and not r.dark_write_off:
            return False
        if self.on_barrel[s] and not r.write_off_on_barrel:
            return False
        limit = r.write_off_limit
        return not (limit is not None and self.write_offs[s] >= limit)

    def _redeal_reasons(self, seat: int) -> list[RedealReason]:
        """The redeal claims (пересдача) this seat may make now."""
        r = self.rules
        if self.phase == CLAIM:
            return [_reason("four_nines_after_pass")] if seat == self.turn else []
        is_declarer = seat == self.declarer and self.phase in (TALON, CONTRACT)
        # A hand-based claim is made before one has bid; the declarer may still make
        # it when they never spoke (first hand winning the obligatory 100).
        has_bid = any(s == seat for s, _ in self.bids[1:])
        may_claim_hand = not has_bid and (
            (
                self.phase == BIDDING
                and seat == self.turn
                and not (self.dark and seat == self.first_hand)
            )
            or is_declarer
        )
        if is_declarer and r.redeal_only_at_100 and (self.raised or self.bid != OBLIGATORY_BID):
            return []
        reasons: list[RedealReason] = []
        dealt = self.dealt[seat]
        if may_claim_hand:
            if r.redeal_hand_below is not None and points(dealt) < r.redeal_hand_below:
                reasons.append(_reason("hand_below", r.redeal_hand_below))
            if r.redeal_four_nines and dealt & NINES_MASK == NINES_MASK:
                reasons.append(_reason("four_nines"))
            if r.redeal_four_jacks and dealt & JACKS_MASK == JACKS_MASK:
                reasons.append(_reason("four_jacks"))
        if is_declarer:
            talon = self.talon
            if r.redeal_talon_below is not None and points(talon) < r.redeal_talon_below:
                reasons.append(_reason("talon_below", r.redeal_talon_below))
            nines = count(talon & NINES_MASK)
            if r.redeal_two_nines_talon and nines == 2:
                reasons.append(_reason("talon_two_nines"))
            if r.redeal_three_nines_talon and nines == 3:
                reasons.append(_reason("talon_three_nines"))
            if r.redeal_three_jacks_talon and count(talon & JACKS_MASK) == 3:
                reasons.append(_reason("talon_three_jacks"))
            if r.redeal_four_nines_after_pass and (dealt | talon) & NINES_MASK == NINES_MASK:
                reasons.append(_reason("four_nines_with_talon"))
        return reasons

    def _plays(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        out: list[Action] = []
        if not self.trick:
            for c in iter_cards(self._leadable(seat)):
                out.append(Play(c))
            for c in iter_cards(hand):
                if self._may_declare(seat, c):
                    out.append(Play(c, declare=True))
            return out
        for c in iter_cards(self._followable(hand)):
            out.append(Play(c))
        return out

    def _leadable(self, seat: int) -> CardSet:
        """The cards ``seat`` may lead (without declaring)."""
        hand = self.hands[seat]
        if self.trump is None:
            return hand
        trumps = hand & SUIT_MASKS[self.trump]
        if not trumps:
            return hand
        if self.rules.must_lead_trump:
            return trumps
        if self.rules.no_lead_foreign_trump and self.trump_by != seat and hand != trumps:
            return hand & ~trumps
        return hand

    def _followable(self, hand: CardSet) -> CardSet:
        """The cards of ``hand`` that may follow the trick on the table."""
        led = suit_of(self.trick[0][1])
        same = hand & SUIT_MASKS[led]
        trump = self.trump
        if same:
            if self.rules.must_beat:
                trumped = (
                    trump is not None
                    and trump != led
                    and any(suit_of(c) == trump for _, c in self.trick)
                )
                if not trumped:
                    top = max(c for _, c in self.trick if suit_of(c) == led)
                    higher = same & ~((1 << (top + 1)) - 1)
                    return higher or same
            return same
        if trump is not None:
            trumps = hand & SUIT_MASKS[trump]
            if trumps:
                if self.rules.must_beat:
                    played = [c for _, c in self.trick if suit_of(c) == trump]
                    if played:
                        higher = trumps & ~((1 << (max(played) + 1)) - 1)
                        return higher or trumps
                return trumps
        return hand

    def _may_declare(self, seat: int, c: Card) -> bool:
        """Whether leading ``c`` may declare a marriage (or the ace marriage)."""
        hand = self.hands[seat]
        if not (self.trick_counts[seat] > 0 or self.rules.marriage_first_lead):
            return False
        if rank_of(c) == ACE:
            return bool(self.rules.ace_marriage) and hand & ACES_MASK == ACES_MASK
        if rank_of(c) not in (KING, QUEEN):
            return False
        suit = suit_of(c)
        return hand & marriage_mask(suit) == marriage_mask(suit)

    # --- validation -----------------------------------------------------------------------

    def why_illegal(self, action: Action | str, seat: int | None = None) -> IllegalAction | None:
        """Why ``action`` would be refused, or ``None`` if it is legal; nothing changes.

        ``seat`` is who asks (default: the seat to move). A seat that is not
        the one to move gets ``not_your_turn`` whatever the action, so a front
        end can explain any card a player clicks; once the match is over
        every action gets ``game_over``. The answer is the very exception
        :meth:`apply` would raise (for the seat to move), with its
        :attr:`~thousand.actions.IllegalAction.code`.
        """
        if self.phase == OVER:
            return IllegalAction("the match is over", "game_over")
        if seat is not None and seat != self.turn:
            if not isinstance(seat, int) or isinstance(seat, bool):
                return IllegalAction(f"no seat {seat!r}", "malformed")
            return IllegalAction(
                f"it is not seat {seat}'s turn: seat {self.turn} is to move", "not_your_turn"
            )
        try:
            act = as_action(action)
        except IllegalAction as e:
            return e
        if self._allows(act):
            return None
        return self._refusal(act)

    def _refusal(self, action: Action) -> IllegalAction:
        """Why ``action``, which is not among the legal actions, is refused."""
        if self.phase == OVER:
            return IllegalAction("the match is over", "game_over")
        s, phase = self.turn, self.phase
        if isinstance(action, Give) and not 0 <= action.seat < self.players:
            return IllegalAction(f"no seat {action.seat} at a table of {self.players}", "malformed")
        if isinstance(action, Take) and action.index not in (0, 1):
            return IllegalAction(f"there is no talon {action.index}: take 0 or 1", "malformed")
        if isinstance(action, Bid) and phase == BIDDING:
            values = self._bid_values(s)
            if not values:
                return IllegalAction(
                    f"seat {s} cannot raise the bid now and may only pass", "cannot_raise"
                )
            return _value_refusal(
                f"bid {action.value} is not allowed: bids now run from {values[0]} to {values[-1]}",
                action.value,
                values,
            )
        if isinstance(action, Contract) and phase == CONTRACT:
            values = self._contract_values()
            return _value_refusal(
                f"contract {action.value} is not allowed: contracts run from {values[0]} "
                f"to {values[-1]}",
                action.value,
                values,
            )
        if isinstance(action, Give) and phase == TALON and self.players > 2:
            if not self.hands[s] & bit(action.card):
                return IllegalAction(
                    f"seat {s} does not hold {card_text(action.card)}", "not_in_hand"
                )
            if action.seat not in self.opponents:
                return IllegalAction(
                    f"seat {action.seat} is not an opponent of the declarer", "not_opponent"
                )
            return IllegalAction(f"seat {action.seat} already received a card", "already_given")
        if isinstance(action, Discard) and phase == TALON:
            return IllegalAction(f"seat {s} does not hold {card_text(action.card)}", "not_in_hand")
        if isinstance(action, Play) and phase == PLAY:
            return self._play_refusal(s, action)
        if isinstance(action, Redeal):
            return IllegalAction(f"seat {s} has no redeal claim now", "no_redeal")
        if isinstance(action, WriteOff | Cross | Bomb) and phase in _AFTER_BIDDING:
            if phase == PLAY and not self._before_first_lead():
                return IllegalAction(f"{action} is only possible before the first lead", "too_late")
            return IllegalAction(f"seat {s} may not {action} this hand")
        if _PHASE_OF.get(type(action)) != phase:
            return IllegalAction(f"{action} is not possible in the {phase} phase", "wrong_phase")
        return IllegalAction(f"{action} is not possible in the {phase} phase")

    def _play_refusal(self, s: int, action: Play) -> IllegalAction:
        c = action.card
        hand = self.hands[s]
        if not hand & bit(c):
            return IllegalAction(f"seat {s} does not hold {card_text(c)}", "not_in_hand")
        if action.declare:
            if self.trick:
                message = "a marriage is declared only by leading its king or queen"
            elif not self.trick_counts[s] and not self.rules.marriage_first_lead:
                message = "a marriage may be declared only after taking a trick"
            else:
                message = f"{card_text(c)} is not part of a marriage in hand"
            return IllegalAction(message, "cannot_declare")
        if not self.trick:
            assert self.trump is not None
            trump = SUIT_CHARS[self.trump]
            if self.rules.must_lead_trump:
                return IllegalAction(
                    f"you must lead a trump ({trump})", "must_lead_trump", suit=trump
                )
            return IllegalAction(
                f"you may not lead the trump ({trump}) that another player declared",
                "no_foreign_trump",
                suit=trump,
            )
        led_suit = suit_of(self.trick[0][1])
        led = SUIT_CHARS[led_suit]
        if hand & SUIT_MASKS[led_suit]:
            if self.rules.must_beat and suit_of(c) == led_suit:
                return IllegalAction(
                    f"{card_text(c)} is too low: you must beat the trick when you can",
                    "must_beat",
                    suit=led,
                )
            return IllegalAction(
                f"{card_text(c)} does not follow suit: play a card of {led}",
                "must_follow",
                suit=led,
            )
        assert self.trump is not None
        trump = SUIT_CHARS[self.trump]
        if self.rules.must_beat and suit_of(c) == self.trump:
            return IllegalAction(
                f"{card_text(c)} is too low: you must over-trump when you can",
                "must_beat",
                suit=trump,
            )
        return IllegalAction(
            f"{card_text(c)}: with no {led} you must play a trump ({trump})",
            "must_trump",
            suit=trump,
        )

    # --- applying -------------------------------------------------------------------------

    def apply(self, action: Action | str) -> Action:
        """Apply one action of the current player; an illegal one raises and changes nothing."""
        act = as_action(action)
        if not self._allows(act):
            raise self._refusal(act)
        self.log.append(str(act))
        s = self.turn
        hand_before = self.hand_no
        completed = len(self.tricks)
        trick_before = list(self.trick)
        hidden_from_others = (isinstance(act, Give) and self._give_face_down()) or isinstance(
            act, Discard
        )
        if isinstance(act, Dark):
            self.dark = True
            self.bids = [(s, COMPULSORY_BID)]
            self.high_bid = COMPULSORY_BID
            self.phase = BIDDING
            self.turn = self._next(s)
        elif isinstance(act, Look):
            self.phase = BIDDING
            self.turn = self._next(s)
        elif isinstance(act, Bid):
            self.bids.append((s, act.value))
            self.last_bids[s] = act.value
            self.high_bid, self.high_bidder, self.raised = act.value, s, True
            self.dark = False  # an opponent's bid over dark play undarkens it
            self._advance_bidding()
        elif isinstance(act, Pass):
            self.bids.append((s, None))
            self.passed[s] = True
            self._advance_bidding()
        elif isinstance(act, Redeal):
            self._redeal(s)
        elif isinstance(act, Decline):
            self._next_claim()
        elif isinstance(act, Take):
            self._take_talon_of_two(act.index)
        elif isinstance(act, Discard):
            self.hands[s] &= ~bit(act.card)
            self.discarded |= bit(act.card)
            if count(self.discarded) == 2:
                self._after_passing()
        elif isinstance(act, Give):
            self.hands[s] &= ~bit(act.card)
            self.hands[act.seat] |= bit(act.card)
            self.given.append((act.card, act.seat))
            if len(self.given) == len(self.opponents):
                self._after_passing()
        elif isinstance(act, Contract):
            self.contract = act.value
            self.last_bids[s] = act.value
            self.phase = PLAY
        elif isinstance(act, WriteOff):
            self._write_off()
        elif isinstance(act, Cross | Bomb):
            self._abandon(act)
        elif isinstance(act, Play):
            self._play(s, act)
        trick = None
        if isinstance(act, Play) and (len(self.tricks) > completed or self.hand_no > hand_before):
            # The trick this card completed, even when the hand was scored at once.
            cards = [*trick_before, (s, act.card)]
            winner = self._last_trick_winner
            trick = {"cards": [[seat, card_text(c)] for seat, c in cards], "winner": winner}
        self.last_action = {
            "seat": s,
            "action": str(act),
            "trick": trick,
            "hand_over": self.hand_no > hand_before or self.phase == OVER,
            "to": act.seat if isinstance(act, Give) else None,
            "hidden": hidden_from_others,
        }
        return act

    def _advance_bidding(self) -> None:
        in_auction = [s for s in self.active if not self.passed[s]]
        if len(in_auction) == 1:
            self._take_talon(in_auction[0])
            return
        s = self._next(self.turn)
        while self.passed[s]:
            s = self._next(s)
        self.turn = s

    def _take_talon(self, declarer: int) -> None:
        self.declarer = declarer
        self.bid = self.high_bid
        self.turn = declarer
        at_100 = not self.raised and self.high_bid == OBLIGATORY_BID
        hidden = self.dark or self.golden or (self.rules.hidden_talon_at_100 and at_100)
        self.talon_shown = not hidden
        if self.players == 2:
            self.phase = CHOOSE
            return
        self.hands[declarer] |= self.talon
        self.phase = TALON

    def _take_talon_of_two(self, index: int) -> None:
        assert self.declarer is not None
        self.talon = self.talons[index]
        self.hands[self.declarer] |= self.talon
        self.phase = TALON

    def _after_passing(self) -> None:
        r = self.rules
        if r.four_nines_bonus:
            self.nines_bonus = [s for s in self.active if self.hands[s] & NINES_MASK == NINES_MASK]
        if r.redeal_four_nines_after_pass and self.players > 2:
            self.claimants = [o for o in self.opponents if self.hands[o] & NINES_MASK == NINES_MASK]
        self._next_claim()

    def _next_claim(self) -> None:
        assert self.declarer is not None
        if self.claimants:
            self.phase = CLAIM
            self.turn = self.claimants.pop(0)
        else:
            self.phase = CONTRACT
            self.turn = self.declarer

    def _redeal(self, seat: int) -> None:
        reason = self._redeal_reasons(seat)[0]
        deltas = [0] * self.players
        marks: list[list[str]] = [[] for _ in range(self.players)]
        if self.rules.redeal_penalty_dealer and reason.code in _DEALER_PENALTY_REASONS:
            deltas[self.dealer] = -self.rules.penalty
            marks[self.dealer].append("penalty")
            self.scores[self.dealer] -= self.rules.penalty
        self.sheet.append(
            {
                "hand": self.hand_no + 1,
                "dealer": self.dealer,
                "result": "redeal",
                "claimant": seat,
                "reason": reason.text,
                "reason_code": reason.code,
                "reason_value": reason.value,
                "declarer": self.declarer,
                "bid": self.bid,
                "contract": None,
                "deltas": deltas,
                "scores": list(self.scores),
                "marks": marks,
            }
        )
        self._deal()

    def _play(self, s: int, act: Play) -> None:
        c = act.card
        hand_before = self.hands[s]
        if act.declare:
            if rank_of(c) == ACE:
                self.ace_marriage_by = s
                self.marriages.append((s, -1))
                mode = self.rules.ace_marriage_trump
                if mode != "none":
                    self.trump, self.trump_by = None, None
            else:
                self.marriages.append((s, suit_of(c)))
                self.trump, self.trump_by = suit_of(c), s
        self.hands[s] &= ~bit(c)
        if (
            rank_of(c) == ACE
            and self.ace_marriage_by == s
            and self.rules.ace_marriage_trump == "last_ace"
            and hand_before & ACES_MASK == bit(c)
        ):
            # The last of the four aces shows the trump suit.
            self.trump, self.trump_by = suit_of(c), s
        self.trick.append((s, c))
        if len(self.trick) < len(self.active):
            self.turn = self._next(s)
            return
        winner = self._trick_winner()
        self._last_trick_winner = winner
        for _, played in self.trick:
            self.won[winner] |= bit(played)
        self.trick_counts[winner] += 1
        self.tricks.append((self.trick[0][0], tuple(self.trick), winner))
        self.trick = []
        self.turn = winner
        if not any(self.hands):
            self._score_hand()

    def _trick_winner(self) -> int:
        best_seat, best = self.trick[0]
        for seat, c in self.trick[1:]:
            if suit_of(c) == suit_of(best):
                if c > best:
                    best_seat, best = seat, c
            elif suit_of(c) == self.trump:
                best_seat, best = seat, c
        return best_seat

    # --- scoring --------------------------------------------------------------------------

    def _marriage_points(self) -> list[int]:
        """Declared marriages per seat; with ``marriage_needs_capture`` only those whose
        declaring player took their king or queen in a trick."""
        out = [0] * self.players
        for s, suit in self.marriages:
            if suit < 0:
                out[s] += ACE_MARRIAGE_VALUE
            elif not self.rules.marriage_needs_capture or self.won[s] & marriage_mask(suit):
                out[s] += MARRIAGE_VALUES[suit]
        return out

    def _score_hand(self) -> None:
        assert self.declarer is not None and self.contract is not None
        r = self.rules
        n = self.players
        d = self.declarer
        if self.players == 2:
            # Discards count for the declarer; the other talon is dead or
            # goes to whoever took the last trick.
            self.won[d] |= self.discarded
            dead = self.talons[0] if self.talon == self.talons[1] else self.talons[1]
            if r.two_player_second_talon == "last_trick":
                self.won[self.tricks[-1][2]] |= dead
        card_points = [points(w) for w in self.won]
        marriage_points = self._marriage_points()
        totals = [card_points[s] + marriage_points[s] for s in range(n)]
        rounded = [round_points(t, r.rounding) for t in totals]
        compared = rounded[d] if r.declarer_rounding else totals[d]
        made = compared >= self.contract
        golden = 2 if self.golden else 1
        deltas = [0] * n
        marks: list[list[str]] = [[] for _ in range(n)]
        for s in self.active:
            if s == d:
                result = self.contract if made else -self.contract
                if self.dark:
                    result = 2 * totals[d] if made and not r.dark_cap_240 else 2 * result
                    marks[d].append("dark")
                deltas[s] = result * golden
            elif not self._scores_nothing(s):
                if self.golden and r.golden_marriage_not_doubled:
                    doubled = round_points(2 * card_points[s] + marriage_points[s], r.rounding)
                    deltas[s] = doubled
                else:
                    deltas[s] = rounded[s] * golden
        if self.golden:
            for row in marks:
                row.append("golden")
            self.golden_made = self.golden_made or made
        self._dealer_talon_score(deltas, marks)
        self._bolts(deltas, marks, totals)
        self._finish_hand(
            "made" if made else "failed",
            deltas,
            marks,
            {
                "card_points": card_points,
                "marriage_points": marriage_points,
                "totals": totals,
                "rounded": rounded,
                "tricks": list(self.trick_counts),
            },
        )

    def _scores_nothing(self, s: int) -> bool:
        """A defender on the barrel (or past the Polish lock) scores nothing."""
        lock = self.rules.lock_at
        return (
            self.on_barrel[s]
            or self.at_380[s] is not None
            or (lock is not None and self.scores[s] >= lock)
        )

    def _dealer_talon_score(self, deltas: list[int], marks: list[list[str]]) -> None:
        """Four players: the dealer, sitting out, scores the talon (RULES.md §11)."""
        dealer = self.sitting_out
        if dealer is None or self._scores_nothing(dealer):
            return
        r = self.rules
        talon = self.talon
        marriage = sum(MARRIAGE_VALUES[s] for s in marriages_in(talon))
        if r.dealer_score == "flat_30":
            value = 30
        elif r.dealer_score == "aces_50":
            value = 50 * count(talon & ACES_MASK) + marriage
        else:
            value = points(talon) + marriage
            if r.talon_half_marriage:
                for suit in SUITS:
                    half = talon & marriage_mask(suit)
                    if half and half != marriage_mask(suit):
                        value += MARRIAGE_VALUES[suit] // 2
        deltas[dealer] = value * (2 if self.golden else 1)
        marks[dealer].append("talon")

    def _bolts(self, deltas: list[int], marks: list[list[str]], totals: list[int]) -> None:
        r = self.rules
        if r.bolt_mode == "off":
            return
        for s in self.active:
            if self.on_barrel[s] or (r.no_bolt_on_own_game and s == self.declarer):
                continue
            bolted = self.trick_counts[s] == 0 if r.bolt_rule == "no_tricks" else totals[s] == 0
            if not bolted:
                if r.bolt_mode == "consecutive":
                    self.bolts[s] = 0
                continue
            double = (self.dark and s == self.declarer and r.dark_double_bolt) or (
                self.golden and r.golden_double_bolt
            )
            self._add_bolts(s, 2 if double else 1, deltas, marks)

    def _add_bolts(self, s: int, k: int, deltas: list[int], marks: list[list[str]]) -> None:
        r = self.rules
        for _ in range(k):
            self.bolts[s] += 1
            marks[s].append("bolt")
            if self.bolts[s] >= 3:
                self.bolts[s] = 0
                deltas[s] -= r.penalty * (2 if self.golden else 1)
                marks[s].append("bolt_penalty")

    def _write_off(self) -> None:
        assert self.declarer is not None and self.bid is not None
        r = self.rules
        d = self.declarer
        value = self.contract if self.contract is not None else self.bid
        self.contract = value
        deltas = [0] * self.players
        marks: list[list[str]] = [[] for _ in range(self.players)]
        golden = 2 if self.golden else 1
        if not r.write_off_keeps_score:
            deltas[d] = -value * (2 if self.dark else 1) * golden
        self.write_offs[d] += 1
        if r.write_off_third_penalty and self.write_offs[d] == 3:
            deltas[d] -= r.penalty
            marks[d].append("penalty")
        share = 60 if self.players == 2 or r.write_off_flat_60 else write_off_share(value)
        for o in self.opponents:
            if not self._scores_nothing(o):
                deltas[o] = share * golden
        marks[d].append("writeoff")
        if self.golden:
            for row in marks:
                row.append("golden")
        self._dealer_talon_score(deltas, marks)
        self._finish_hand("writeoff", deltas, marks, {})

    def _abandon(self, act: Cross | Bomb) -> None:
        """Cross (крещусь) or bomb: the declarer gives the hand up without loss."""
        assert self.declarer is not None and self.bid is not None
        d = self.declarer
        self.contract = self.contract if self.contract is not None else self.bid
        deltas = [0] * self.players
        marks: list[list[str]] = [[] for _ in range(self.players)]
        if isinstance(act, Cross):
            marks[d].append("cross")
            for o in self.opponents:
                if not self.on_barrel[o]:
                    self._add_bolts(o, 1, deltas, marks)
            self._finish_hand("cross", deltas, marks, {})
            return
        self.bombs[d] += 1
        marks[d].append("bomb")
        for o in self.opponents:
            if not self._scores_nothing(o):
                deltas[o] = 60
        self._finish_hand("bomb", deltas, marks, {})

    def _finish_hand(
        self, result: str, deltas: list[int], marks: list[list[str]], details: dict[str, Any]
    ) -> None:
        """Apply a hand's score changes with the barrel rules and write the sheet row."""
        r = self.rules
        n = self.players
        d = self.declarer
        assert d is not None and self.contract is not None
        for s in self.nines_bonus:
            # "Whatever the result of the hand" (seed 004), so a write-off too.
            deltas[s] += FOUR_NINES_BONUS
            marks[s].append("four_nines")
        before = list(self.scores)
        new = [before[s] + deltas[s] for s in range(n)]
        barrel_at = r.barrel_at
        winner: int | None = None

        def fall(s: int, base: int) -> None:
            if r.barrel_fall_to == "minus_penalty":
                new[s] = base - r.penalty
            elif r.barrel_fall_to == "500":
                new[s] = 500
            else:
                new[s] = base - (self.last_bids[s] or r.penalty)
            self.falls[s] += 1
            self.on_barrel[s] = False
            self.barrel_hands[s] = 0
            marks[s].append("fall")
            if r.barrel_three_falls_zero and self.falls[s] >= 3:
                new[s] = 0
                self.falls[s] = 0
                marks[s].append("zero")

        if r.intermediate_barrel_380:
            self._intermediate_barrel(before, new, marks, result)
        for s in range(n):
            if not self.on_barrel[s]:
                continue
            if s == d and result == "made":
                new[s] = before[s] + deltas[s]
                if new[s] >= self._target:
                    winner = s
                    marks[s].append("win")
                continue
            if s == d and result in ("failed", "writeoff"):
                fall(s, before[s])
                continue
            new[s] = before[s]
            if s == self.sitting_out or (s == d and result in ("cross", "bomb")):
                continue  # a dealer sitting out does not use up an attempt
            self.barrel_hands[s] += 1
            marks[s].append(f"barrel_hand_{self.barrel_hands[s]}")
            if self.barrel_hands[s] >= r.barrel_attempts:
                fall(s, before[s])

        if barrel_at is not None:
            # Even in the hand somebody wins, a score past the barrel stops at it.
            arriving = [s for s in range(n) if not self.on_barrel[s] and new[s] >= barrel_at]
            for s in arriving:
                new[s] = barrel_at
                self.on_barrel[s] = True
                self.barrel_hands[s] = 0
                marks[s].append("barrel")
            if r.one_on_barrel and arriving:
                if len(arriving) > 1:
                    for s in arriving:
                        fall(s, barrel_at)
                else:
                    for s in range(n):
                        if self.on_barrel[s] and s not in (arriving[0], winner):
                            marks[s].append("knocked_off")
                            fall(s, barrel_at)
        elif winner is None:
            reached = [s for s in range(n) if new[s] >= self._target]
            if reached:
                winner = max(reached, key=lambda s: (new[s], s == d))
                marks[winner].append("win")

        if r.samosval:
            for s in range(n):
                if new[s] == 555 or (r.samosval_negative and new[s] == -555):
                    new[s] = 0
                    marks[s].append("samosval")
        if r.reverse_barrel and winner is None:
            winner = self._reverse_barrel(new, marks)

        self.scores = new
        self.hand_no += 1
        row: dict[str, Any] = {
            "hand": self.hand_no,
            "dealer": self.dealer,
            "result": result,
            "declarer": d,
            "bid": self.bid,
            "contract": self.contract,
            "dark": self.dark,
            "golden": self.golden,
            "talon": texts_of(self.talon) if self.talon_shown else None,
            "deltas": [new[s] - before[s] for s in range(n)],
            "scores": list(new),
            "marks": marks,
        }
        row.update(details)
        self.sheet.append(row)
        if winner is not None:
            self.winner = winner
            self.phase = OVER
            return
        self._end_golden_hand()
        self.dealer = (self.dealer + 1) % n
        self._deal()

    def _intermediate_barrel(
        self, before: list[int], new: list[int], marks: list[list[str]], result: str
    ) -> None:
        """The intermediate barrel at 380: a player who reaches it stops there, scores
        nothing as a defender, and moves on only by making a contract of their own
        within ``barrel_attempts`` hands; otherwise they fall by the penalty."""
        r = self.rules
        d = self.declarer
        fallen = INTERMEDIATE_BARREL - r.penalty
        for s in range(self.players):
            hands = self.at_380[s]
            if hands is None:
                crossed = before[s] < INTERMEDIATE_BARREL <= new[s]
                if crossed and not (s == d and result == "made"):
                    new[s] = INTERMEDIATE_BARREL
                    self.at_380[s] = 0
                    marks[s].append("barrel_380")
                continue
            if s == d and result == "made":
                self.at_380[s] = None
                continue
            if s == d and result in ("failed", "writeoff"):
                new[s], self.at_380[s] = fallen, None
                marks[s].append("fall_380")
                continue
            new[s] = before[s]
            if s == self.sitting_out:
                continue
            if hands + 1 >= r.barrel_attempts:
                new[s], self.at_380[s] = fallen, None
                marks[s].append("fall_380")
            else:
                self.at_380[s] = hands + 1
                marks[s].append(f"barrel_380_hand_{hands + 1}")

    def _reverse_barrel(self, new: list[int], marks: list[list[str]]) -> int | None:
        """Reverse barrel (обратная бочка): −880 must reach −1000 within three hands.

        Reaching it ends the match (that player has lost; the best score wins);
        failing in time puts the player back to −760.
        """
        r = self.rules
        for s in range(self.players):
            if new[s] <= -self._target:
                marks[s].append("reverse_barrel_out")
                return max(range(self.players), key=lambda k: new[k])
            entry = self.reverse_hands[s]
            if entry is None:
                if new[s] <= -880:
                    new[s] = -880
                    self.reverse_hands[s] = 0
                    marks[s].append("reverse_barrel")
                continue
            if new[s] > -880:
                self.reverse_hands[s] = None
                continue
            new[s] = -880
            self.reverse_hands[s] = entry + 1
            if entry + 1 >= r.barrel_attempts:
                new[s] = -880 + r.penalty
                self.reverse_hands[s] = None
                marks[s].append("fall")
        return None

    def _end_golden_hand(self) -> None:
        if not self.golden:
            return
        self.golden_left -= 1
        if self.golden_left or self.golden_made:
            return
        r = self.rules
        if r.golden_reset:
            self.scores = [0] * self.players
            row = dict(self.sheet[-1])
            row["scores"] = list(self.scores)
            row["marks"] = [[*m, "golden_reset"] for m in row["marks"]]
            self.sheet[-1] = row
        if r.golden_repeat:
            self.golden_left = min(self.players, 3)

    # --- views ----------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON-ready data; ``None`` is a spectator."""
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players
        ):
            raise ValueError(f"no seat {seat!r} at a table of {self.players}")
        after_bidding = self.phase in _AFTER_BIDDING
        taken = self.phase != CHOOSE
        sees_talon = after_bidding and taken and (self.talon_shown or seat == self.declarer)
        blindfolded = self.phase == DARK and seat == self.first_hand
        last = self.tricks[-1] if self.tricks else None
        sees_discards = seat is not None and seat == self.declarer
        return {
            "seat": seat,
            "players": self.players,
            "phase": self.phase,
            "turn": self.current_player,
            "dealer": self.dealer,
            "first_hand": self.first_hand,
            "active": list(self.active),
            "sitting_out": self.sitting_out,
            "hand_no": self.hand_no + 1,
            "hand": texts_of(self.hands[seat]) if seat is not None and not blindfolded else [],
            "hand_sizes": [count(h) for h in self.hands],
            "talon": texts_of(self.talon) if sees_talon else None,
            "talon_size": 2 if self.players == 2 else 3,
            "talon_shown": self.talon_shown,
            "talons": (
                [texts_of(t) for t in self.talons]
                if self.phase == CHOOSE
                and seat == self.declarer
                and self.rules.two_player_talon_choice == "seen"
                else None
            ),
            "discarded": texts_of(self.discarded) if sees_discards else None,
            "dark": self.dark,
            "golden": self.golden,
            "bids": [[s, "pass" if v is None else v] for s, v in self.bids],
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "passed": [s for s in self.active if self.passed[s]],
            "declarer": self.declarer,
            "bid": self.bid,
            "contract": self.contract,
            "given": [
                [card_text(c) if self._sees_given(seat, to) else None, to] for c, to in self.given
            ],
            "trick": [[s, card_text(c)] for s, c in self.trick],
            "leader": self.trick[0][0] if self.trick else self.turn,
            "tricks": [
                {"leader": lead, "cards": [[s, card_text(c)] for s, c in cards], "winner": w}
                for lead, cards, w in self.tricks
            ],
            "last_trick": (
                {"cards": [[s, card_text(c)] for s, c in last[1]], "winner": last[2]}
                if last
                else None
            ),
            "trump": SUIT_CHARS[self.trump] if self.trump is not None else None,
            "marriages": [[s, "A" if suit < 0 else SUIT_CHARS[suit]] for s, suit in self.marriages],
            "trick_counts": list(self.trick_counts),
            "card_points": [points(w) for w in self.won],
            "marriage_points": self._marriage_points(),
            "scores": list(self.scores),
            "barrel": [
                {
                    "on": self.on_barrel[s],
                    "hands": self.barrel_hands[s],
                    "falls": self.falls[s],
                    "at_380": self.at_380[s] is not None,
                }
                for s in range(self.players)
            ],
            "bolts": list(self.bolts),
            "write_offs": list(self.write_offs),
            "sheet": [_copy_row(row) for row in self.sheet],
            "last_hand": _copy_row(self.sheet[-1]) if self.sheet else None,
            "winner": self.winner,
            "last_action": self._last_action_for(seat),
            "rules": self.rules.to_dict(),
            "legal": (
                [str(a) for a in self.legal_actions()]
                if seat is not None and seat == self.current_player
                else []
            ),
        }

    def _give_face_down(self) -> bool:
        # A hidden talon (at 100, dark, golden) is passed face down too, or the
        # passed cards would show the other opponent part of it.
        return bool(self.rules.pass_face_down) or not self.talon_shown

    def _sees_given(self, seat: int | None, to: int) -> bool:
        return not self._give_face_down() or seat in (to, self.declarer)

    def _last_action_for(self, seat: int | None) -> dict[str, Any] | None:
        """The last action as ``seat`` may know it: a card given face down or
        discarded shows as ``??`` to everybody but its giver and receiver."""
        last = self.last_action
        if last is None:
            return None
        out = {k: v for k, v in last.items() if k not in ("to", "hidden")}
        if last["hidden"] and (seat is None or seat not in (last["seat"], last["to"])):
            verb, *rest = str(last["action"]).split()
            out["action"] = " ".join([verb, "??", *rest[1:]])
        if out["trick"] is not None:
            out["trick"] = {
                "cards": [list(x) for x in out["trick"]["cards"]],
                "winner": out["trick"]["winner"],
            }
        return out

    # --- saving and copying ---------------------------------------------------------------

    def to_json(self) -> str:
        """The match as JSON: rules, seed, explicit deals, starting scores and the action log."""
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "deals": self.deals,
                "deal_seeds": {str(k): v for k, v in sorted(self.deal_seeds.items())},
                "scores": self.start_scores,
                "log": self.log,
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Game:
        """A match saved by :meth:`to_json`; a corrupt save raises ``ValueError`` saying why."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as e:
            raise ValueError(f"not a saved game: {e}") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ValueError(f"not a saved game: expected format {SAVE_FORMAT!r}")
        log = data.get("log")
        if not isinstance(log, list) or not all(isinstance(a, str) for a in log):
            raise ValueError("corrupt save: the action log must be a list of texts")
        try:
            game = cls.new(
                rules=Rules.from_dict(data.get("rules") or {}),
                seed=data.get("seed", 0),
                deal=data.get("deals") or None,
                scores=data.get("scores"),
            )
        except (TypeError, KeyError, NotImplementedError) as e:
            raise ValueError(f"corrupt save: {e}") from None
        seeds = data.get("deal_seeds") or {}
        if not isinstance(seeds, dict):
            raise ValueError("corrupt save: deal_seeds must map deal numbers to seeds")
        for key, value in seeds.items():
            if not isinstance(key, str) or not key.isdigit() or not isinstance(value, str):
                raise ValueError(f"corrupt save: bad deal seed {key!r}: {value!r}")
            game.deal_seeds[int(key)] = value
        game.replay(log)
        return game

    @property
    def next_deal_number(self) -> int:
        """The number of the next deal (redeals count): what :meth:`set_deal_seed` names."""
        return self.deal_no

    def set_deal_seed(self, deal_number: int, seed: str) -> None:
        """Shuffle a future deal from ``seed`` instead of the match seed.

        A network game uses this for its fair deal: each hand's seed comes
        from every seat (commit–reveal), and is set before that hand is dealt.
        """
        if not isinstance(seed, str) or not seed:
            raise ValueError("a deal seed is a non-empty text")
        if not isinstance(deal_number, int) or deal_number < self.deal_no:
            raise ValueError(f"deal {deal_number} has already been dealt")
        self.deal_seeds[deal_number] = seed

    def replay(self, actions: Iterable[str | Action]) -> None:
        """Apply actions in order; the first illegal one raises ValueError naming its place."""
        for k, action in enumerate(actions):
            try:
                self.apply(action)
            except IllegalAction as e:
                raise ValueError(f"action {k + 1} ({action}) cannot be replayed: {e}") from None

    def copy(self) -> Game:
        """An independent copy, cheap enough for search."""
        g = _copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, list | dict):
                setattr(g, name, value.copy())
        return g

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game hand {self.hand_no + 1} {self.phase} turn={self.current_player} "
            f"scores={self.scores}>"
        )


class RedealReason(NamedTuple):
    """Why a redeal may be claimed: a stable ``code`` (one of :data:`REDEAL_REASONS`),
    the threshold ``value`` where the rule has one (points), and the English ``text``."""

    code: str
    value: int | None
    text: str


REDEAL_REASONS: dict[str, str] = {
    "hand_below": "hand worth less than {value}",
    "four_nines": "four nines in hand",
    "four_jacks": "four jacks in hand",
    "talon_below": "talon worth less than {value}",
    "talon_two_nines": "two nines in the talon",
    "talon_three_nines": "three nines in the talon",
    "talon_three_jacks": "three jacks in the talon",
    "four_nines_with_talon": "four nines with the talon",
    "four_nines_after_pass": "four nines after the pass",
}
"""The codes of redeal claims, as a sheet row's ``reason_code``, with the English
text of its ``reason`` (``{value}`` is the row's ``reason_value``, a threshold)."""


def _reason(code: str, value: int | None = None) -> RedealReason:
    return RedealReason(code, value, REDEAL_REASONS[code].format(value=value))


_DEALER_PENALTY_REASONS = (
    "talon_three_nines",
    "four_nines",
    "four_nines_with_talon",
    "four_nines_after_pass",
)


_PHASE_OF: dict[type, str] = {
    Dark: DARK,
    Look: DARK,
    Bid: BIDDING,
    Pass: BIDDING,
    Take: CHOOSE,
    Give: TALON,
    Discard: TALON,
    Decline: CLAIM,
    Contract: CONTRACT,
    Play: PLAY,
}
"""The phase an action belongs to, where it belongs to one (``redeal`` and the
ways to abandon a hand belong to several)."""


def _value_refusal(message: str, value: int, values: list[int]) -> IllegalAction:
    """A bid or contract outside ``values``: too low, too high, or off the step."""
    low, high = values[0], values[-1]
    if value < low:
        code = "bid_too_low"
    elif value > high:
        code = "bid_too_high"
    else:
        code = "bid_step"
    return IllegalAction(message, code, low=low, high=high)


def _copy_row(row: dict[str, Any]) -> dict[str, Any]:
    """A copy of a sheet row (values are numbers, texts, and lists of them or of lists)."""
    return {
        k: [list(x) if isinstance(x, list) else x for x in v] if isinstance(v, list) else v
        for k, v in row.items()
    }


def _check_seat(value: Any, players: int, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise ValueError(f"{what} must be a seat 0..{players - 1}, not {value!r}")
    return value


def _check_deal(d: Any, players: int, k: int, dealer: int) -> dict[str, Any]:
    """A validated explicit deal; ``ValueError`` says what is wrong with it."""
    where = f"deal {k + 1}"
    if not isinstance(d, dict):
        raise ValueError(f"{where} must be a dict with 'hands' and 'talon'")
    unknown = set(d) - {"dealer", "hands", "talon"}
    if unknown:
        raise ValueError(f"{where} has unknown keys: {', '.join(sorted(unknown))}")
    hands, talon = d.get("hands"), d.get("talon")
    if "dealer" in d:
        dealer = _check_seat(d["dealer"], players, f"{where}: dealer")
    per = 10 if players == 2 else 7
    talon_size = 4 if players == 2 else 3
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError(f"{where} must give {players} hands")
    for seat, h in enumerate(hands):
        size = 0 if players == 4 and seat == dealer else per
        if not isinstance(h, list) or len(h) != size:
            if size == 0:
                raise ValueError(f"{where}: the dealer (seat {dealer}) sits out with no cards")
            raise ValueError(f"{where}: every hand has {per} cards")
        if not all(isinstance(c, str) for c in h):
            raise ValueError(f"{where}: cards are texts like 'TH'")
    if not isinstance(talon, list) or len(talon) != talon_size:
        raise ValueError(f"{where}: the talon has {talon_size} cards")
    if not all(isinstance(c, str) for c in talon):
        raise ValueError(f"{where}: cards are texts like 'TH'")
    all_cards = mask_of([c for h in hands for c in h] + list(talon))
    if all_cards != FULL_DECK:
        raise ValueError(f"{where} must use every card of the deck once")
    out: dict[str, Any] = {
        "hands": [texts_of(mask_of(h)) for h in hands],
        # Keep the talon's order: with two players it splits into two talons.
        "talon": [card_text(parse_card(c)) for c in talon],
    }
    if "dealer" in d:
        out["dealer"] = _check_seat(d["dealer"], players, f"{where}: dealer")
    return out
