"""The match of Thousand as a state machine: deal, bidding, talon, play, scoring.

This module owns the state of one match and every rule that moves it
forward. A :class:`Game` is driven by actions (:mod:`thousand.actions`):
``legal_actions()`` lists what the current player may do, ``apply()``
validates and applies one (an illegal one raises :class:`IllegalAction`
and changes nothing), and ``view(seat)`` builds what one seat may know.
Everything random flows from the seed, so the seed, the rules and the
action log rebuild a match exactly; that is also how a game is saved.

Phases of a hand: ``bidding`` (торговля) → ``talon`` (the declarer holds the
talon, прикуп, and gives one card to each opponent, снос) → ``claim`` (only
when an opponent may claim a redeal for four nines received) → ``contract``
(заказ) → ``play`` (eight tricks) → scored, and the next hand is dealt at
once. ``over`` when somebody has won the match.
"""

from __future__ import annotations

import copy as _copy
import json
from collections.abc import Iterable, Sequence
from typing import Any

from .actions import (
    Action,
    Bid,
    Contract,
    Decline,
    Give,
    IllegalAction,
    Pass,
    Play,
    Redeal,
    WriteOff,
    as_action,
)
from .cards import (
    FULL_DECK,
    JACKS_MASK,
    KING,
    MARRIAGE_VALUES,
    NINES_MASK,
    QUEEN,
    SUIT_CHARS,
    SUIT_MASKS,
    Card,
    CardSet,
    bit,
    card_text,
    count,
    iter_cards,
    marriage_mask,
    marriage_points_in,
    mask_of,
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
WIN_SCORE = 1000

BIDDING, TALON, CLAIM, CONTRACT, PLAY, OVER = (
    "bidding",
    "talon",
    "claim",
    "contract",
    "play",
    "over",
)


class Game:
    """One match of Thousand. Build it with :meth:`Game.new` or :meth:`Game.from_json`."""

    # --- construction ---------------------------------------------------------------------

    def __init__(self) -> None:
        # Filled in by new(); a bare Game is not playable.
        self.rules = Rules()
        self.seed: int | str = 0
        self.deals: list[dict[str, Any]] = []
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
        self.sheet: list[dict[str, Any]] = []
        self.winner: int | None = None
        self.hand_no = 0
        self.deal_no = 0
        self.dealer = 0
        # Hand state.
        self.phase = BIDDING
        self.turn = 0
        self.hands: list[CardSet] = []
        self.dealt: list[CardSet] = []
        self.talon: CardSet = 0
        self.talon_shown = False
        self.bids: list[tuple[int, int | None]] = []
        self.high_bid = OBLIGATORY_BID
        self.high_bidder = 0
        self.passed: list[bool] = []
        self.raised = False
        self.declarer: int | None = None
        self.bid: int | None = None
        self.contract: int | None = None
        self.given: list[tuple[Card, int]] = []
        self.claimants: list[int] = []
        self.trick: list[tuple[int, Card]] = []
        self.tricks: list[tuple[int, tuple[tuple[int, Card], ...], int]] = []
        self.won: list[CardSet] = []
        self.trick_counts: list[int] = []
        self.marriage_points: list[int] = []
        self.marriages: list[tuple[int, int]] = []
        self.trump: int | None = None

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
            deals: list[dict[str, Any]] = []
        elif isinstance(deal, dict):
            deals = [deal]
        else:
            deals = list(deal)
        g.deals = [_check_deal(d, n, k) for k, d in enumerate(deals)]
        g.scores = [0] * n
        g.bolts = [0] * n
        g.on_barrel = [False] * n
        g.barrel_hands = [0] * n
        g.falls = [0] * n
        g.write_offs = [0] * n
        if scores is not None:
            g.start_scores = g._check_scores(scores)
            for s, value in enumerate(g.start_scores):
                barrel = rules.barrel_at
                if barrel is not None and value >= barrel:
                    g.scores[s], g.on_barrel[s] = barrel, True
                else:
                    g.scores[s] = value
        if g.deals and "dealer" in g.deals[0]:
            g.dealer = g.deals[0]["dealer"]
        else:
            g.dealer = shuffled_deck(seed, -1)[0] % n
        g._deal()
        return g

    def _check_scores(self, scores: Sequence[int]) -> list[int]:
        if isinstance(scores, str | bytes) or len(scores) != self.players:
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

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.players

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        return None if self.phase == OVER else self.turn

    @property
    def opponents(self) -> list[int]:
        """The declarer's opponents (вистующие), clockwise from the declarer."""
        assert self.declarer is not None
        return [(self.declarer + k) % self.players for k in range(1, self.players)]

    # --- dealing --------------------------------------------------------------------------

    def _deal(self) -> None:
        n = self.players
        first = self.first_hand
        if self.deal_no < len(self.deals):
            d = self.deals[self.deal_no]
            hands = [mask_of(h) for h in d["hands"]]
            talon = mask_of(d["talon"])
        else:
            deck = shuffled_deck(self.seed, self.deal_no)
            per = (len(deck) - 3) // n
            hands = [0] * n
            for k in range(n):
                seat = (first + k) % n
                for c in deck[k * per : (k + 1) * per]:
                    hands[seat] |= bit(c)
            talon = 0
            for c in deck[n * per :]:
                talon |= bit(c)
        self.deal_no += 1
        self.hands = hands
        self.dealt = list(hands)
        self.talon = talon
        self.talon_shown = False
        self.phase = BIDDING
        self.bids = [(first, OBLIGATORY_BID)]
        self.high_bid = OBLIGATORY_BID
        self.high_bidder = first
        self.passed = [False] * n
        self.raised = False
        self.declarer = None
        self.bid = None
        self.contract = None
        self.given = []
        self.claimants = []
        self.trick = []
        self.tricks = []
        self.won = [0] * n
        self.trick_counts = [0] * n
        self.marriage_points = [0] * n
        self.marriages = []
        self.trump = None
        self.turn = self._next(first)

    # --- legal actions --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Everything the current player may do now."""
        if self.phase == OVER:
            return []
        s = self.turn
        out: list[Action] = []
        if self.phase == BIDDING:
            out.extend(Bid(v) for v in self._bid_values(s))
            out.append(Pass())
            if self._redeal_reasons(s):
                out.append(Redeal())
        elif self.phase == TALON:
            given_to = {seat for _, seat in self.given}
            for c in iter_cards(self.hands[s]):
                for opp in self.opponents:
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
            if self._before_first_lead() and self._may_write_off():
                out.append(WriteOff())
        return out

    def _append_declarer_options(self, out: list[Action]) -> None:
        if self._may_write_off():
            out.append(WriteOff())
        if self._redeal_reasons(self.turn):
            out.append(Redeal())

    def is_legal(self, action: Action | str) -> bool:
        try:
            self._check(as_action(action))
        except IllegalAction:
            return False
        return True

    def _cap(self, cards: CardSet) -> int:
        """The highest bid or contract these cards allow (120 + their marriages)."""
        if self.rules.bid_cap == "none":
            return int(self.rules.max_bid)
        return min(int(self.rules.max_bid), 120 + marriage_points_in(cards))

    def _least_for(self, seat: int, value: int) -> int:
        """``value`` raised to what a player on the barrel must at least play."""
        if self.on_barrel[seat]:
            return max(value, int(self.rules.barrel_min_bid))
        return value

    def _bid_values(self, seat: int) -> list[int]:
        silence = self.rules.silence_below
        if silence is not None and self.scores[seat] < silence:
            return []
        step = int(self.rules.bid_step)
        low = self._least_for(seat, self.high_bid + step)
        high = self._cap(self.hands[seat])
        if self.rules.no_jump_bids:
            high = min(high, low)
        return list(range(low, high + 1, step))

    def _contract_values(self) -> list[int]:
        assert self.declarer is not None and self.bid is not None
        step = int(self.rules.bid_step)
        low = self._least_for(self.declarer, self.bid)
        # A declarer who gave away a marriage card may not be able to reach
        # the bid any more; the bid itself always remains a contract.
        high = max(self._cap(self.hands[self.declarer]), low)
        return list(range(low, high + 1, step))

    def _before_first_lead(self) -> bool:
        return not self.tricks and not self.trick

    def _may_write_off(self) -> bool:
        r = self.rules
        s = self.declarer
        if s is None or not r.write_off:
            return False
        if self.on_barrel[s] and not r.write_off_on_barrel:
            return False
        limit = r.write_off_limit
        return not (limit is not None and self.write_offs[s] >= limit)

    def _redeal_reasons(self, seat: int) -> list[str]:
        """The redeal claims (пересдача) this seat may make now, as short reasons."""
        r = self.rules
        reasons = []
        dealt = self.dealt[seat]
        is_declarer = seat == self.declarer and self.phase in (TALON, CONTRACT)
        may_claim_hand = (
            self.phase == BIDDING
            and seat == self.turn
            and not any(s == seat for s, _ in self.bids[1:])
            and not self.passed[seat]
        ) or is_declarer
        if is_declarer and r.redeal_only_at_100 and (self.raised or self.bid != OBLIGATORY_BID):
            return []
        if may_claim_hand:
            if r.redeal_hand_below is not None and points(dealt) < r.redeal_hand_below:
                reasons.append(f"hand worth less than {r.redeal_hand_below}")
            if r.redeal_four_nines and dealt & NINES_MASK == NINES_MASK:
                reasons.append("four nines in hand")
            if r.redeal_four_jacks and dealt & JACKS_MASK == JACKS_MASK:
                reasons.append("four jacks in hand")
        if is_declarer:
            talon = self.talon
            if r.redeal_talon_below is not None and points(talon) < r.redeal_talon_below:
                reasons.append(f"talon worth less than {r.redeal_talon_below}")
            nines = count(talon & NINES_MASK)
            if r.redeal_two_nines_talon and nines == 2:
                reasons.append("two nines in the talon")
            if r.redeal_three_nines_talon and nines == 3:
                reasons.append("three nines in the talon")
            if r.redeal_three_jacks_talon and count(talon & JACKS_MASK) == 3:
                reasons.append("three jacks in the talon")
            with_talon = dealt | talon
            if r.redeal_four_nines_after_pass and with_talon & NINES_MASK == NINES_MASK:
                reasons.append("four nines with the talon")
        if self.phase == CLAIM and seat == self.turn:
            reasons.append("four nines after the pass")
        return reasons

    def _plays(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        out: list[Action] = []
        if not self.trick:
            for c in iter_cards(hand):
                out.append(Play(c))
                if self._may_declare(seat, c):
                    out.append(Play(c, declare=True))
            return out
        for c in iter_cards(self._followable(hand)):
            out.append(Play(c))
        return out

    def _followable(self, hand: CardSet) -> CardSet:
        """The cards of ``hand`` that may follow the trick on the table."""
        led = suit_of(self.trick[0][1])
        same = hand & SUIT_MASKS[led]
        if same:
            return same
        if self.trump is not None:
            trumps = hand & SUIT_MASKS[self.trump]
            if trumps:
                return trumps
        return hand

    def _may_declare(self, seat: int, c: Card) -> bool:
        if rank_of(c) not in (KING, QUEEN):
            return False
        suit = suit_of(c)
        if self.hands[seat] & marriage_mask(suit) != marriage_mask(suit):
            return False
        return self.trick_counts[seat] > 0 or bool(self.rules.marriage_first_lead)

    # --- validation -----------------------------------------------------------------------

    def _check(self, action: Action) -> None:
        """Raise IllegalAction saying why ``action`` is not allowed now."""
        if self.phase == OVER:
            raise IllegalAction("the match is over")
        s = self.turn
        phase = self.phase
        if isinstance(action, Bid):
            if phase != BIDDING:
                raise IllegalAction(f"no bidding now: the hand is in the {phase} phase")
            values = self._bid_values(s)
            if action.value in values:
                return
            if not values:
                raise IllegalAction(f"seat {s} cannot raise the bid now and may only pass")
            raise IllegalAction(
                f"bid {action.value} is not allowed: bids now run from {values[0]} "
                f"to {values[-1]} in steps of {self.rules.bid_step}"
            )
        if isinstance(action, Pass):
            if phase != BIDDING:
                raise IllegalAction(f"nothing to pass: the hand is in the {phase} phase")
            return
        if isinstance(action, Redeal):
            if not self._redeal_reasons(s):
                raise IllegalAction(f"seat {s} has no redeal claim now")
            return
        if isinstance(action, Decline):
            if phase != CLAIM:
                raise IllegalAction("there is no redeal claim to decline")
            return
        if isinstance(action, Give):
            if phase != TALON:
                raise IllegalAction(f"no cards to give now: the hand is in the {phase} phase")
            if not self.hands[s] & bit(action.card):
                raise IllegalAction(f"seat {s} does not hold {card_text(action.card)}")
            if action.seat not in self.opponents:
                raise IllegalAction(f"seat {action.seat} is not an opponent of the declarer")
            if any(seat == action.seat for _, seat in self.given):
                raise IllegalAction(f"seat {action.seat} already received a card")
            return
        if isinstance(action, Contract):
            if phase != CONTRACT:
                raise IllegalAction(f"no contract now: the hand is in the {phase} phase")
            values = self._contract_values()
            if action.value not in values:
                raise IllegalAction(
                    f"contract {action.value} is not allowed: contracts run from {values[0]} "
                    f"to {values[-1]} in steps of {self.rules.bid_step}"
                )
            return
        if isinstance(action, WriteOff):
            if phase not in (TALON, CONTRACT, PLAY) or (
                phase == PLAY and not self._before_first_lead()
            ):
                raise IllegalAction("a write-off is only possible before the first lead")
            if not self._may_write_off():
                raise IllegalAction(f"seat {s} may not write off this hand")
            return
        if isinstance(action, Play):
            self._check_play(s, action)
            return
        raise IllegalAction(f"not an action: {action!r}")

    def _check_play(self, s: int, action: Play) -> None:
        if self.phase != PLAY:
            raise IllegalAction(f"no card play now: the hand is in the {self.phase} phase")
        c = action.card
        hand = self.hands[s]
        if not hand & bit(c):
            raise IllegalAction(f"seat {s} does not hold {card_text(c)}")
        if action.declare:
            if self.trick:
                raise IllegalAction("a marriage is declared only by leading its king or queen")
            if not self._may_declare(s, c):
                if rank_of(c) not in (KING, QUEEN) or not (
                    hand & marriage_mask(suit_of(c)) == marriage_mask(suit_of(c))
                ):
                    raise IllegalAction(f"{card_text(c)} is not part of a marriage in hand")
                raise IllegalAction("a marriage may be declared only after taking a trick")
            return
        if self.trick and not self._followable(hand) & bit(c):
            led = SUIT_CHARS[suit_of(self.trick[0][1])]
            if hand & SUIT_MASKS[suit_of(self.trick[0][1])]:
                raise IllegalAction(f"{card_text(c)} does not follow suit: play a card of {led}")
            assert self.trump is not None
            raise IllegalAction(
                f"{card_text(c)}: with no {led} you must play a trump ({SUIT_CHARS[self.trump]})"
            )

    # --- applying -------------------------------------------------------------------------

    def apply(self, action: Action | str) -> Action:
        """Apply one action of the current player; an illegal one raises and changes nothing."""
        act = as_action(action)
        self._check(act)
        self.log.append(str(act))
        s = self.turn
        if isinstance(act, Bid):
            self.bids.append((s, act.value))
            self.high_bid, self.high_bidder, self.raised = act.value, s, True
            self._advance_bidding()
        elif isinstance(act, Pass):
            self.bids.append((s, None))
            self.passed[s] = True
            self._advance_bidding()
        elif isinstance(act, Redeal):
            self._redeal(s)
        elif isinstance(act, Decline):
            self._next_claim()
        elif isinstance(act, Give):
            self.hands[s] &= ~bit(act.card)
            self.hands[act.seat] |= bit(act.card)
            self.given.append((act.card, act.seat))
            if len(self.given) == len(self.opponents):
                self.claimants = [
                    o
                    for o in self.opponents
                    if self.rules.redeal_four_nines_after_pass
                    and self.hands[o] & NINES_MASK == NINES_MASK
                ]
                self._next_claim()
        elif isinstance(act, Contract):
            self.contract = act.value
            self.phase = PLAY
        elif isinstance(act, WriteOff):
            self._write_off()
        elif isinstance(act, Play):
            self._play(s, act)
        return act

    def _advance_bidding(self) -> None:
        active = [s for s in range(self.players) if not self.passed[s]]
        if len(active) == 1:
            self._take_talon(active[0])
            return
        s = self._next(self.turn)
        while self.passed[s]:
            s = self._next(s)
        self.turn = s

    def _take_talon(self, declarer: int) -> None:
        self.declarer = declarer
        self.bid = self.high_bid
        self.hands[declarer] |= self.talon
        self.talon_shown = not (self.rules.hidden_talon_at_100 and not self.raised)
        self.phase = TALON
        self.turn = declarer

    def _next_claim(self) -> None:
        assert self.declarer is not None
        if self.claimants:
            self.phase = CLAIM
            self.turn = self.claimants.pop(0)
        else:
            self.phase = CONTRACT
            self.turn = self.declarer

    def _redeal(self, seat: int) -> None:
        reasons = self._redeal_reasons(seat)
        self.sheet.append(
            {
                "hand": self.hand_no + 1,
                "dealer": self.dealer,
                "result": "redeal",
                "claimant": seat,
                "reason": reasons[0],
                "declarer": self.declarer,
                "bid": self.bid,
                "contract": None,
                "deltas": [0] * self.players,
                "scores": list(self.scores),
                "marks": [[] for _ in range(self.players)],
            }
        )
        self._deal()

    def _play(self, s: int, act: Play) -> None:
        c = act.card
        if act.declare:
            suit = suit_of(c)
            self.marriage_points[s] += MARRIAGE_VALUES[suit]
            self.marriages.append((s, suit))
            self.trump = suit
        self.hands[s] &= ~bit(c)
        self.trick.append((s, c))
        if len(self.trick) < self.players:
            self.turn = self._next(s)
            return
        winner = self._trick_winner()
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

    def _score_hand(self) -> None:
        assert self.declarer is not None and self.contract is not None
        r = self.rules
        n = self.players
        d = self.declarer
        card_points = [points(w) for w in self.won]
        totals = [card_points[s] + self.marriage_points[s] for s in range(n)]
        made = totals[d] >= self.contract
        deltas = [0] * n
        marks: list[list[str]] = [[] for _ in range(n)]
        rounded = [round_points(t, r.rounding) for t in totals]
        for s in range(n):
            if s == d:
                deltas[s] = self.contract if made else -self.contract
            elif not self.on_barrel[s]:
                deltas[s] = rounded[s]
        self._bolts(deltas, marks, card_points)
        self._finish_hand(
            "made" if made else "failed",
            deltas,
            marks,
            {
                "card_points": card_points,
                "marriage_points": list(self.marriage_points),
                "totals": totals,
                "rounded": rounded,
                "tricks": list(self.trick_counts),
            },
        )

    def _bolts(self, deltas: list[int], marks: list[list[str]], card_points: list[int]) -> None:
        r = self.rules
        if r.bolt_mode == "off":
            return
        for s in range(self.players):
            if self.on_barrel[s] or (r.no_bolt_on_own_game and s == self.declarer):
                continue
            bolted = (
                self.trick_counts[s] == 0
                if r.bolt_rule == "no_tricks"
                else card_points[s] + self.marriage_points[s] == 0
            )
            if not bolted:
                if r.bolt_mode == "consecutive":
                    self.bolts[s] = 0
                continue
            self.bolts[s] += 1
            marks[s].append("bolt")
            if self.bolts[s] >= 3:
                self.bolts[s] = 0
                deltas[s] -= r.penalty
                marks[s].append("bolt_penalty")

    def _write_off(self) -> None:
        assert self.declarer is not None and self.bid is not None
        r = self.rules
        d = self.declarer
        value = self.contract if self.contract is not None else self.bid
        self.contract = value
        deltas = [0] * self.players
        marks: list[list[str]] = [[] for _ in range(self.players)]
        if not r.write_off_keeps_score:
            deltas[d] = -value
        self.write_offs[d] += 1
        if r.write_off_third_penalty and self.write_offs[d] == 3:
            deltas[d] -= r.penalty
            marks[d].append("penalty")
        share = 60 if r.write_off_flat_60 else write_off_share(value)
        for o in self.opponents:
            if not self.on_barrel[o]:
                deltas[o] = share
        marks[d].append("writeoff")
        self._finish_hand("writeoff", deltas, marks, {})

    def _finish_hand(
        self, result: str, deltas: list[int], marks: list[list[str]], details: dict[str, Any]
    ) -> None:
        """Apply a hand's score changes with the barrel rules and write the sheet row."""
        r = self.rules
        n = self.players
        d = self.declarer
        assert d is not None and self.contract is not None
        before = list(self.scores)
        new = [before[s] + deltas[s] for s in range(n)]
        barrel_at = r.barrel_at
        winner: int | None = None

        def fall(s: int) -> None:
            if r.barrel_fall_to == "minus_penalty":
                new[s] = barrel_at - r.penalty
            elif r.barrel_fall_to == "500":
                new[s] = 500
            else:
                new[s] = barrel_at - (self.contract or 0)
            self.falls[s] += 1
            self.on_barrel[s] = False
            self.barrel_hands[s] = 0
            marks[s].append("fall")
            if r.barrel_three_falls_zero and self.falls[s] >= 3:
                new[s] = 0
                self.falls[s] = 0
                marks[s].append("zero")

        for s in range(n):
            if not self.on_barrel[s]:
                continue
            if s == d and result == "made":
                new[s] = before[s] + self.contract
                if new[s] >= self._target:
                    winner = s
                    marks[s].append("win")
                continue
            if s == d and result in ("failed", "writeoff"):
                fall(s)
                continue
            new[s] = before[s]
            self.barrel_hands[s] += 1
            marks[s].append(f"barrel_hand_{self.barrel_hands[s]}")
            if self.barrel_hands[s] >= r.barrel_attempts:
                fall(s)

        if winner is None and barrel_at is not None:
            arriving = [s for s in range(n) if not self.on_barrel[s] and new[s] >= barrel_at]
            for s in arriving:
                new[s] = barrel_at
                self.on_barrel[s] = True
                self.barrel_hands[s] = 0
                marks[s].append("barrel")
            if r.one_on_barrel and arriving:
                if len(arriving) > 1:
                    for s in arriving:
                        fall(s)
                else:
                    for s in range(n):
                        if self.on_barrel[s] and s != arriving[0]:
                            marks[s].append("knocked_off")
                            fall(s)
        elif winner is None:
            for s in range(n):
                if new[s] >= self._target:
                    winner = s

        if r.samosval:
            for s in range(n):
                if new[s] == 555 or (r.samosval_negative and new[s] == -555):
                    new[s] = 0
                    marks[s].append("samosval")

        self.scores = new
        self.hand_no += 1
        row: dict[str, Any] = {
            "hand": self.hand_no,
            "dealer": self.dealer,
            "result": result,
            "declarer": d,
            "bid": self.bid,
            "contract": self.contract,
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
        self.dealer = self._next(self.dealer)
        self._deal()

    # --- views ----------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know, as JSON-ready data; ``None`` is a spectator."""
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players
        ):
            raise ValueError(f"no seat {seat!r} at a table of {self.players}")
        after_bidding = self.phase in (TALON, CLAIM, CONTRACT, PLAY)
        sees_talon = after_bidding and (self.talon_shown or seat == self.declarer)
        last = self.tricks[-1] if self.tricks else None
        return {
            "seat": seat,
            "players": self.players,
            "phase": self.phase,
            "turn": self.current_player,
            "dealer": self.dealer,
            "first_hand": self.first_hand,
            "hand_no": self.hand_no + 1,
            "hand": texts_of(self.hands[seat]) if seat is not None else [],
            "hand_sizes": [count(h) for h in self.hands],
            "talon": texts_of(self.talon) if sees_talon else None,
            "talon_shown": self.talon_shown,
            "bids": [[s, "pass" if v is None else v] for s, v in self.bids],
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder,
            "passed": [s for s in range(self.players) if self.passed[s]],
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
            "marriages": [[s, SUIT_CHARS[suit]] for s, suit in self.marriages],
            "trick_counts": list(self.trick_counts),
            "card_points": [points(w) for w in self.won],
            "marriage_points": list(self.marriage_points),
            "scores": list(self.scores),
            "barrel": [
                {"on": self.on_barrel[s], "hands": self.barrel_hands[s], "falls": self.falls[s]}
                for s in range(self.players)
            ],
            "bolts": list(self.bolts),
            "write_offs": list(self.write_offs),
            "sheet": _copy.deepcopy(self.sheet),
            "last_hand": _copy.deepcopy(self.sheet[-1]) if self.sheet else None,
            "winner": self.winner,
            "rules": self.rules.to_dict(),
            "legal": (
                [str(a) for a in self.legal_actions()]
                if seat is not None and seat == self.current_player
                else []
            ),
        }

    def _sees_given(self, seat: int | None, to: int) -> bool:
        return not self.rules.pass_face_down or seat in (to, self.declarer)

    # --- saving and copying ---------------------------------------------------------------

    def to_json(self) -> str:
        """The match as JSON: rules, seed, explicit deals, starting scores and the action log."""
        return json.dumps(
            {
                "format": SAVE_FORMAT,
                "rules": self.rules.to_dict(),
                "seed": self.seed,
                "deals": self.deals,
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
        deals = data.get("deals") or None
        try:
            game = cls.new(
                rules=Rules.from_dict(data.get("rules") or {}),
                seed=data.get("seed", 0),
                deal=deals,
                scores=data.get("scores"),
            )
        except (TypeError, KeyError) as e:
            raise ValueError(f"corrupt save: {e}") from None
        game.replay(log)
        return game

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
        for name in (
            "log",
            "scores",
            "bolts",
            "on_barrel",
            "barrel_hands",
            "falls",
            "write_offs",
            "hands",
            "dealt",
            "bids",
            "passed",
            "given",
            "claimants",
            "trick",
            "tricks",
            "won",
            "trick_counts",
            "marriage_points",
            "marriages",
        ):
            setattr(g, name, list(getattr(self, name)))
        g.sheet = list(self.sheet)
        return g

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game hand {self.hand_no + 1} {self.phase} turn={self.current_player} "
            f"scores={self.scores}>"
        )


def _check_deal(d: Any, players: int, k: int) -> dict[str, Any]:
    """A validated explicit deal; ``ValueError`` says what is wrong with it."""
    where = f"deal {k + 1}"
    if not isinstance(d, dict):
        raise ValueError(f"{where} must be a dict with 'hands' and 'talon'")
    unknown = set(d) - {"dealer", "hands", "talon"}
    if unknown:
        raise ValueError(f"{where} has unknown keys: {', '.join(sorted(unknown))}")
    hands, talon = d.get("hands"), d.get("talon")
    per = (24 - 3) // players
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError(f"{where} must give {players} hands")
    for h in hands:
        if not isinstance(h, list) or len(h) != per:
            raise ValueError(f"{where}: every hand has {per} cards")
    if not isinstance(talon, list) or len(talon) != 3:
        raise ValueError(f"{where}: the talon has 3 cards")
    all_cards = mask_of([c for h in hands for c in h] + list(talon))
    if all_cards != FULL_DECK:
        raise ValueError(f"{where} must use every card of the deck once")
    out: dict[str, Any] = {
        "hands": [texts_of(mask_of(h)) for h in hands],
        "talon": texts_of(mask_of(talon)),
    }
    if "dealer" in d:
        dealer = d["dealer"]
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
            raise ValueError(f"{where}: dealer must be a seat 0..{players - 1}")
        out["dealer"] = dealer
    return out
