"""Hands whose cards nobody sees whole: following a deal from one seat, checking it at the end.

This module owns the engine's side of the private deal (mental poker, see
web/net/PRIVATE_DEAL.md), built on the public API of :class:`Game` only:

- :class:`SeatFollower` follows a match from what some seats know — their
  own cards, a talon they were shown, the public actions — while the other
  seats' cards stay unknown. It keeps a :class:`Game` on a *hypothetical*
  deal that agrees with everything known and in which every action so far
  is legal, so its views of the known seats and their legal actions are
  exact, and a move of another seat that no hand it may hold allows is
  refused (:class:`Unfollowable`). A hidden card in an action is written
  ``??`` (``give ?? 2``).
- :func:`check_deals` replays a match once every card is known and names
  the first illegal action and its seat: the audit every peer runs when
  the keys are revealed.
- :func:`dealing_order` says which deck position goes to which hand.

Scores shown before a deal's cards are revealed may rest on hidden cards
(four nines, a hidden talon's points); :meth:`SeatFollower.reveal` makes
them exact.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, Bid, Contract, Decline, IllegalAction, Play, Redeal, as_action
from .cards import (
    ACE,
    ACES_MASK,
    CARD_POINTS,
    DECK_SIZE,
    MARRIAGE_VALUES,
    card_text,
    iter_cards,
    marriage_mask,
    parse_card,
)
from .cards import rank_of as _rank
from .cards import suit_of as _suit
from .game import Game
from .rules import Rules

HIDDEN = "??"
"""A card this peer may not see, in an action's text."""
FIT_TRIES = 60
"""How many hypothetical deals a follower tries before it calls a move impossible."""

Location = tuple[str, int]
"""``("hand", seat)`` or ``("talon", part)`` (two players have talons 0 and 1)."""


@dataclass(frozen=True)
class IllegalStep:
    """The first illegal action of a replayed match: its index in the log, seat and reason."""

    step: int
    seat: int
    action: str
    reason: str
    code: str = "not_allowed"
    """The refusal's code (:data:`thousand.actions.REFUSAL_CODES`), for a front end to translate."""
    detail: Mapping[str, Any] = field(default_factory=dict)
    """The refusal's facts (:attr:`IllegalAction.detail`)."""

    def __str__(self) -> str:
        return f"action {self.step + 1} ({self.action}) by seat {self.seat}: {self.reason}"


class Unfollowable(IllegalAction):
    """A move of ``seat`` that no hand consistent with what is known allows."""

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(message)
        self.seat = seat


def dealing_order(players: int, dealer: int) -> list[Location]:
    """Where each of the 24 deck positions goes, in the engine's dealing order.

    First hand (left of the dealer) takes the first 7 positions (10 with two
    players), then clockwise; the dealer of four sits out; the rest is the
    talon (two players: talon 0, then talon 1).
    """
    per = 10 if players == 2 else 7
    active: list[int] = []
    seat = (dealer + 1) % players
    while len(active) < min(players, 3):
        if not (players == 4 and seat == dealer):
            active.append(seat)
        seat = (seat + 1) % players
    out: list[Location] = [("hand", s) for s in active for _ in range(per)]
    rest = DECK_SIZE - len(out)
    out += [("talon", 0 if players != 2 or k < 2 else 1) for k in range(rest)]
    return out


def deal_of(players: int, dealer: int, cards: Sequence[str]) -> dict[str, Any]:
    """The explicit deal (``Game.new(deal=…)``) of 24 cards in dealing order."""
    hands: list[list[str]] = [[] for _ in range(players)]
    talon: list[str] = []
    for (kind, where), c in zip(dealing_order(players, dealer), cards, strict=True):
        (hands[where] if kind == "hand" else talon).append(c)
    return {"hands": hands, "talon": talon}


def check_deals(
    rules: Rules,
    deals: Sequence[Mapping[str, Any]],
    log: Sequence[str],
    scores: Sequence[int] | None = None,
) -> IllegalStep | None:
    """Replay a match whose every deal is known; the first illegal action, or ``None``.

    ``deals`` are explicit deals as :meth:`Game.new` takes them (the first
    names its dealer); ``log`` may not go on past the last of them.
    """
    game = Game.new(rules=rules, deal=[dict(d) for d in deals], scores=scores)
    for k, action in enumerate(log):
        if game.next_deal_number > len(deals):
            raise ValueError(f"action {k + 1} comes after the {len(deals)} deals given")
        seat = game.current_player
        try:
            game.apply(action)
        except IllegalAction as e:
            who = -1 if seat is None else seat
            return IllegalStep(k, who, str(action), str(e), e.code, dict(e.detail))
    return None


def _card(text: str) -> int | None:
    if text == HIDDEN:
        return None
    try:
        return parse_card(text)
    except ValueError as e:
        raise IllegalAction(str(e)) from None


def _parse(text: str) -> tuple[str, int | None, list[str]]:
    """An action as known: its verb, its card (``None`` if hidden or none) and its words."""
    words = str(text).split()
    if len(words) >= 2 and words[0] in ("give", "discard", "play"):
        return words[0], _card(words[1]), words
    return (words[0] if words else ""), None, words


class SeatFollower:
    """A match followed from the seats ``seats`` know (the host: its own and the computer seats).

    ``dealer`` is the first deal's dealer. For every deal: :meth:`deal`
    with the known seats' cards, :meth:`see_talon` when the talon is shown
    to them, :meth:`apply` for every action as this peer knows it, and
    :meth:`reveal` with the whole deal once it is over.
    """

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        seats: Iterable[int],
        scores: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules
        self.dealer = dealer
        self.seats = sorted(set(seats))
        self.scores = list(scores) if scores is not None else None
        self.deals: list[dict[str, Any]] = []
        self.log: list[str] = []
        """The true actions of every revealed deal."""
        self.public: list[str] = []
        """This deal's actions as this peer knows them."""
        self.actors: list[int] = []
        """The seat of each of them."""
        self.hands: dict[int, list[str]] | None = None
        self.talon_seen: dict[int, list[str]] = {}
        self._hypothesis: dict[str, Any] = {}
        self._concrete: list[str] = []
        self.disputed: str | None = None
        self.face_up = False
        """Whether this deal's cards were all revealed before its end."""
        """A move refused as :class:`Unfollowable`: the deal's reveal decides it."""
        self.game = self._rebuild_waiting()

    # --- what this peer learns ------------------------------------------------------

    @property
    def waiting(self) -> str | None:
        """``"deal"`` until this deal's cards are known, ``"reveal"`` once it is over."""
        if self.hands is None:
            return "deal"
        if self.game.next_deal_number > len(self.deals) + 1:
            return "reveal"
        return None

    def deal(self, hands: Mapping[int, Sequence[str]]) -> None:
        """The known seats' cards of the deal now on the table."""
        if self.hands is not None:
            raise ValueError("this deal's cards are known already")
        if sorted(hands) != self.seats:
            raise ValueError(f"give the cards of seats {self.seats}")
        self.hands = {s: [card_text(parse_card(c)) for c in cards] for s, cards in hands.items()}
        self._refit()

    def see_talon(self, cards: Sequence[str], part: int | None = None) -> None:
        """The talon as shown to the known seats (with two players, talon ``part``:
        by default the one taken)."""
        if part is None:
            taken = [a.split()[1] for a in self.public if a.startswith("take ")]
            part = int(taken[-1]) if taken else 0
        self.talon_seen[part] = [card_text(parse_card(c)) for c in cards]
        if self.waiting is None and not self.face_up:
            self._refit()

    def apply(self, seat: int, action: str) -> None:
        """``seat``'s action as this peer knows it; ``Unfollowable`` changes nothing.

        The seat is the sender's: where hidden cards decide who moves (a
        redeal claim for four nines), the follower finds a deal that agrees.
        """
        if self.waiting is not None:
            raise IllegalAction(f"no action now: waiting for the {self.waiting}")
        if self.game.current_player is None:
            raise IllegalAction("the match is over")
        if not isinstance(action, str):
            raise IllegalAction("an action is a text such as 'bid 110'")
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 0 <= seat < self.rules.players
        ):
            raise IllegalAction(f"no seat {seat!r} at this table")
        verb, card, _ = _parse(action)
        if HIDDEN not in action:
            as_action(action)
        if seat in self.seats and card is None and verb in ("give", "discard", "play"):
            raise IllegalAction("a known seat's action names its card")
        if card is None and verb == "play":
            raise IllegalAction("a played card is shown to all")
        if seat in self.seats and self.game.current_player != seat:
            raise IllegalAction(f"it is not seat {seat}'s turn")
        trial = self.game.copy()
        text = action
        if card is None and verb in ("give", "discard"):
            text = self._choose_hidden(trial, action, _Facts.gather(self, [*self.public, action]))
        try:
            if trial.current_player != seat:
                raise IllegalAction(f"seat {seat} is not to move in this deal")
            trial.apply(text)
        except IllegalAction:
            if seat in self.seats:
                raise
            self.public.append(action)
            self.actors.append(seat)
            try:
                self._refit()
            except Unfollowable:
                self.public.pop()
                self.actors.pop()
                self.disputed = action
                raise
            return
        self.public.append(action)
        self.actors.append(seat)
        if self._offers_unseen_claim(trial):
            # The guessed cards, not the real ones, may have made that claim possible.
            try:
                self._refit()
                return
            except Unfollowable:
                pass
        self._concrete.append(text)
        self.game = trial

    def reveal(self, deal: Mapping[str, Any], actions: Sequence[str]) -> IllegalStep | None:
        """This deal with every card, and its actions with every card; the first illegal one.

        ``actions`` are the deal's actions so far (with a disputed one last,
        if a move was refused). When the deal is over the follower goes on
        from the true deal, with exact scores, and waits for the next deal's
        cards; revealed mid-deal, the rest of the deal is played face up.
        """
        if self.hands is None:
            raise ValueError("no deal to reveal yet")
        known = [*self.public, *([self.disputed] if self.disputed else [])]
        if len(actions) != len(known):
            raise ValueError("the revealed actions are not the ones played")
        for k, (mine, true) in enumerate(zip(known, actions, strict=True)):
            if HIDDEN not in mine and as_action(mine) != as_action(true):
                return IllegalStep(
                    len(self.log) + k, -1, str(true), f"the revealed action differs from {mine}"
                )
        deals = self._with_dealer([*self.deals, dict(deal)])
        problem = check_deals(self.rules, deals, [*self.log, *actions], self.scores)
        if problem is not None:
            return problem
        game = self._build(dict(deal))
        game.replay(actions)
        self.disputed = None
        if game.next_deal_number > len(self.deals) + 1:
            self.deals.append(dict(deal))
            self.log.extend(actions)
            self.public, self.actors, self.hands, self.talon_seen = [], [], None, {}
            self.face_up = False
            self.game = self._rebuild_waiting()
        else:
            self._hypothesis, self._concrete = dict(deal), list(actions)
            self.public, self.game = list(actions), game
            self.actors = _actors(self._build(dict(deal)), actions)
            self.hands = {s: list(h) for s, h in enumerate(deal["hands"]) if s in self.seats}
            self.face_up = True
        return None

    def void_deal(self, seats: Iterable[int]) -> None:
        """The deal on the table is void and dealt again from its start, known to ``seats``.

        Its actions are forgotten and it scores nothing (a seat whose keys are
        lost cannot be checked); the deals revealed before it stand, so the
        same dealer deals again.
        """
        self.seats = sorted(set(seats))
        self.public, self.actors, self.hands, self.talon_seen = [], [], None, {}
        self.disputed, self.face_up = None, False
        self.game = self._rebuild_waiting()

    # --- what it shows --------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` (a known one) may know now; no cards while the deal is pending."""
        if seat not in self.seats:
            raise ValueError(f"seat {seat} is not followed here")
        view = self.game.view(seat)
        if self.waiting == "deal":
            view["hand"], view["legal"], view["talon"] = [], [], None
        return view

    @property
    def current_player(self) -> int | None:
        return self.game.current_player

    # --- the hypothetical deal ------------------------------------------------------

    def _with_dealer(self, deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
        deals = [dict(d) for d in deals]
        deals[0]["dealer"] = self.dealer
        return deals

    def _build(self, hypothesis: dict[str, Any]) -> Game:
        game = Game.new(
            rules=self.rules, deal=self._with_dealer([*self.deals, hypothesis]), scores=self.scores
        )
        game.replay(self.log)
        return game

    def _dealer_now(self) -> int:
        if not self.deals:
            return self.dealer
        probe = Game.new(rules=self.rules, deal=self._with_dealer(self.deals), scores=self.scores)
        probe.replay(self.log)
        return int(probe.dealer)

    def _rebuild_waiting(self) -> Game:
        dealer = self._dealer_now()
        cards = [card_text(c) for c in range(DECK_SIZE)]
        self._hypothesis = deal_of(self.rules.players, dealer, cards)
        self._concrete = []
        return self._build(self._hypothesis)

    def _refit(self) -> None:
        """Find a hypothetical deal where every action of this deal is legal."""
        facts = _Facts.gather(self, self.public)
        rng = random.Random("|".join([*self.log, *self.public, str(self.hands)]))
        last: tuple[int, str] = (-1, "no deal fits")
        # A deal that fits but offers an unknown seat a claim it has not made is kept
        # only if no other fits: until that seat claims, nobody may is the likelier.
        fallback: tuple[dict[str, Any], list[str], Game] | None = None
        for _ in range(FIT_TRIES):
            hypothesis = facts.sample(rng)
            if hypothesis is None:
                continue
            game = self._build(hypothesis)
            concrete: list[str] = []
            for seat, action in zip(self.actors, self.public, strict=True):
                text = action
                try:
                    if game.current_player != seat:
                        raise IllegalAction(f"seat {seat} would not be the one to move")
                    if HIDDEN in action:
                        text = self._choose_hidden(game, action, facts)
                    game.apply(text)
                except IllegalAction as e:
                    last = (seat, f"{action}: {e}")
                    facts.learn(game, seat, text)
                    break
                concrete.append(text)
            else:
                if not self._offers_unseen_claim(game):
                    self._hypothesis, self._concrete, self.game = hypothesis, concrete, game
                    return
                fallback = fallback or (hypothesis, concrete, game)
            if facts.contradiction:
                break
        if fallback is not None:
            self._hypothesis, self._concrete, self.game = fallback
            return
        # Before the last action a deal fitted: it is the one no hand allows.
        seat, action = self.actors[-1], self.public[-1]
        why = facts.contradiction[1] if facts.contradiction else f"at {last[1]}"
        raise Unfollowable(seat, f"no cards seat {seat} may hold allow {action} ({why})")

    def _offers_unseen_claim(self, game: Game) -> bool:
        """Whether ``game`` waits on a redeal claim (four nines after the pass) from a seat
        whose cards are unknown here and which has not claimed or declined yet."""
        seat = game.current_player
        if game.phase != "claim" or seat is None or seat in self.seats:
            return False
        return not any(
            actor == seat and _parse(action)[0] in ("redeal", "decline")
            for actor, action in zip(self.actors, self.public, strict=True)
        )

    def _choose_hidden(self, game: Game, action: str, facts: _Facts) -> str:
        """A card for a face-down give or discard, from the declarer's hypothetical hand."""
        verb, _, words = _parse(action)
        seat = game.current_player
        assert seat is not None
        holding = game.view(seat)["hand"]
        to = int(words[2]) if verb == "give" and len(words) > 2 else None
        keep = {c for c, s in [*facts.required.items(), *facts.hinted.items()] if s == seat}
        wanted = [c for c in holding if to is not None and facts.required.get(c) == to]
        free = [
            c
            for c in holding
            if c not in keep
            and (c, to) not in facts.forbidden
            and c not in wanted
            and not (to is not None and to not in facts.claims and c[0] == "9")
        ]
        # A card the giver was seen not to hold later on goes first.
        free.sort(key=lambda c: (c, seat) not in facts.forbidden)
        spare = [c for c in holding if c not in keep]
        pick = (wanted or free or spare or holding)[0]
        return " ".join([verb, pick, *words[2:]])


def _actors(game: Game, actions: Sequence[str]) -> list[int]:
    out = []
    for action in actions:
        seat = game.current_player
        assert seat is not None
        out.append(seat)
        game.apply(action)
    return out


@dataclass
class _Facts:
    """What is certain about this deal's hidden cards, and what the fitting has learned."""

    players: int
    places: list[Location]
    fixed: dict[str, Location]
    required: dict[str, int]
    """Card → the seat whose hand it was in once the talon was taken."""
    origins: dict[int, list[Location]]
    """Seat → where the cards it holds in play may have been dealt."""
    forbidden: set[tuple[str, int | None]]
    declarer: int | None
    contradiction: tuple[int, str] | None = None
    marriages_needed: dict[int, int] = field(default_factory=dict)
    """Seat → the marriage points a bid of it needs in the hand it was dealt."""
    contract_marriages: dict[int, int] = field(default_factory=dict)
    """Seat → the marriage points its contract needs in its hand once the talon is in and
    the cards are passed on: a marriage may be completed from the talon, or broken by a card
    given away."""
    parted: set[str] = field(default_factory=set)
    """Cards the declarer was seen to pass on or lay away."""
    claims: set[int] = field(default_factory=set)
    """Seats that claimed a redeal (or were asked to) for what their cards show."""
    hidden_out: int = 0
    """How many cards the declarer passed on or discarded face down."""
    known: set[int] = field(default_factory=set)
    """The seats whose cards the follower knows."""
    hinted: dict[str, int] = field(default_factory=dict)
    """Card → seat, placed there by the last draw to meet a marriage need."""

    @classmethod
    def gather(cls, follower: SeatFollower, public: Sequence[str]) -> _Facts:
        """The facts of the deal on ``follower``'s table, after its actions ``public``."""
        players = follower.rules.players
        now = follower.game.view(None)
        places = dealing_order(players, int(now["dealer"]))
        fixed: dict[str, Location] = {}
        for s, cards in (follower.hands or {}).items():
            fixed.update({c: ("hand", s) for c in cards})
        for part, cards in follower.talon_seen.items():
            fixed.update({c: ("talon", part) for c in cards})
        facts = cls(players, places, fixed, {}, {}, set(), now["declarer"])
        facts.known = set(follower.seats)
        facts._read(follower, public)
        return facts

    def _read(self, follower: SeatFollower, public: Sequence[str]) -> None:
        """The cards the public actions show, and who must have held them."""
        receivers: set[int] = set()
        talon_part = [0, 1] if self.players == 2 else [0]
        seats = list(follower.actors)
        for k, action in enumerate(public):
            verb, card, words = _parse(action)
            seat = seats[k] if k < len(seats) else None
            if verb in ("redeal", "decline") and seat is not None:
                self.claims.add(seat)  # a claim was made or offered: its cards allow one
            if words[:1] == ["take"] and len(words) > 1:
                talon_part = [int(words[1])]
            if card is not None and seat is not None:
                self.required.setdefault(card_text(card), seat)
                if verb == "play" and words[-1] == "declare":
                    partners = ACES_MASK if _rank(card) == ACE else marriage_mask(_suit(card))
                    for partner in iter_cards(partners):
                        self.required.setdefault(card_text(partner), seat)
            if card is not None and verb in ("give", "discard"):
                self.parted.add(card_text(card))
            if card is None and verb in ("give", "discard"):
                self.hidden_out += 1
                if verb == "give" and len(words) > 2:
                    # Only a card passed face down may be any of the declarer's.
                    receivers.add(int(words[2]))
        self.origins = {s: [("hand", s)] for s in range(self.players)}
        if self.declarer is not None:
            talon: list[Location] = [("talon", p) for p in talon_part]
            self.origins[self.declarer] += talon
            for r in receivers:
                self.origins[r] += [("hand", self.declarer), *talon]
        for c, holder in self.required.items():
            if c in self.fixed and self.fixed[c] not in self.origins[holder]:
                self.contradiction = (
                    holder,
                    f"seat {holder} showed {c}, which it cannot have held",
                )

    def capacity(self) -> dict[Location, int]:
        out: dict[Location, int] = {}
        for place in self.places:
            out[place] = out.get(place, 0) + 1
        return out

    def sample(self, rng: random.Random) -> dict[str, Any] | None:
        """A random deal that keeps every fact, or ``None`` if this draw got stuck."""
        free = self.capacity()
        at: dict[str, Location] = {}

        def put(c: str, place: Location) -> None:
            at[c] = place
            free[place] -= 1

        for c, place in self.fixed.items():
            put(c, place)
        self.hinted = {}
        for s, need in sorted(self.marriages_needed.items()):
            for c in self._marriage_cards(s, need, rng, at, [("hand", s)]):
                if c not in at:
                    if free[("hand", s)] <= 0:
                        return None
                    put(c, ("hand", s))
                self.hinted[c] = s
        for s, need in sorted(self.contract_marriages.items()):
            places = self.origins[s]
            for c in self._marriage_cards(s, need, rng, at, places, self.parted):
                if c not in at:
                    room = [p for p in places if free.get(p, 0) > 0]
                    if not room:
                        return None
                    put(c, room[0])
                self.hinted[c] = s
        if not self._place_claims(sorted(self.claims), rng, at, free):
            return None
        if not self._place_rest(rng, at, free):
            return None
        nines = {card_text(c) for c in range(DECK_SIZE) if c % 6 == 0}
        for s in range(self.players):
            # Four nines after the pass would let a seat claim a redeal: a deal
            # where nobody may is the likelier one until somebody claims.
            if (
                s not in self.claims
                and s not in self.known
                and all(at[c] == ("hand", s) for c in nines)
            ):
                return None
        hands: list[list[str]] = [[] for _ in range(self.players)]
        talon: list[list[str]] = [[], []]
        for c, (kind, where) in sorted(at.items()):
            (hands[where] if kind == "hand" else talon[where]).append(c)
        return {"hands": hands, "talon": talon[0] + talon[1]}

    def _place_claims(
        self,
        seats: list[int],
        rng: random.Random,
        at: dict[str, Location],
        free: dict[Location, int],
    ) -> bool:
        """Place cards that justify each seat's redeal claim, trying every reason in a random
        order until the cards left can still be placed."""
        if not seats:
            return self._placeable(at, free)
        seat, others = seats[0], seats[1:]
        reasons = self._claim_reasons(seat)
        rng.shuffle(reasons)
        for place, rank in reasons:
            tried_at, tried_free = dict(at), dict(free)
            if self._claim_cards(seat, place, rank, rng, tried_at, tried_free) and (
                self._place_claims(others, rng, tried_at, tried_free)
            ):
                at.update(tried_at)
                free.update(tried_free)
                return True
        return False

    def _claim_reasons(self, seat: int) -> list[tuple[Location, int | None]]:
        """Where a claim's cards may lie and which reason it gives: four nines (rank 0), four
        jacks (rank 1) or a poor hand (``None``)."""
        places: list[Location] = [("hand", seat)]
        if seat == self.declarer:
            places += [p for p in self.origins[seat] if p[0] == "talon"]
        return [(place, rank) for place in places for rank in (0, 1, None)]

    def _claim_cards(
        self,
        seat: int,
        place: Location,
        rank: int | None,
        rng: random.Random,
        at: dict[str, Location],
        free: dict[Location, int],
    ) -> bool:
        """Place cards that may justify ``seat``'s redeal claim for one reason, at ``place``."""

        def put(c: str) -> None:
            at[c] = place
            free[place] -= 1

        if rank is None:
            pool = [card_text(c) for c in range(DECK_SIZE) if card_text(c) not in at]
            rng.shuffle(pool)
            pool.sort(key=lambda c: CARD_POINTS[parse_card(c)])
            for c in pool[: free[place]]:
                put(c)
            return True
        wanted = [card_text(c) for c in range(DECK_SIZE) if c % 6 == rank]
        rng.shuffle(wanted)
        room = free[place] if place[0] == "talon" else len(wanted)
        for c in wanted[:room]:
            if self.required.get(c, seat) != seat:
                continue  # another seat held it: it may have come in the pass
            if c in at:
                if at[c] != place:
                    return place[0] == "talon"
                continue
            if free[place] <= 0:
                return False
            put(c)
        return True

    def _options(self, c: str, free: Mapping[Location, int]) -> list[Location]:
        """The places card ``c`` may still go to: its holder's origins for a card a seat
        showed, any place otherwise, less those a learned fact bars."""
        holder = self.required.get(c)
        places = self.origins[holder] if holder is not None else list(free)
        return [p for p in places if free.get(p, 0) > 0 and not self._bars(c, p, holder)]

    def _placeable(self, at: Mapping[str, Location], free: Mapping[Location, int]) -> bool:
        """Whether every card not yet placed can go somewhere (a matching of the cards left
        to the room left), so a draw never paints itself into a corner."""
        left = [card_text(c) for c in range(DECK_SIZE) if card_text(c) not in at]
        return _fits({c: self._options(c, free) for c in left}, free)

    def _place_rest(
        self, rng: random.Random, at: dict[str, Location], free: dict[Location, int]
    ) -> bool:
        """Place every card left at random, each where the cards after it still fit: a card
        a seat showed goes to its own hand most of the time, as it mostly was."""
        left = [card_text(c) for c in range(DECK_SIZE) if card_text(c) not in at]
        rng.shuffle(left)
        left.sort(key=lambda c: c not in self.required)
        for c in left:
            options = self._options(c, free)
            rng.shuffle(options)
            holder = self.required.get(c)
            if holder is not None and ("hand", holder) in options and rng.random() < 0.8:
                options.remove(("hand", holder))
                options.insert(0, ("hand", holder))
            for place in options:
                at[c] = place
                free[place] -= 1
                if self._placeable(at, free):
                    break
                del at[c]
                free[place] += 1
            else:
                return False
        return True

    def _marriage_cards(
        self,
        seat: int,
        need: int,
        rng: random.Random,
        at: Mapping[str, Location],
        places: Sequence[Location],
        parted: Iterable[str] = (),
    ) -> list[str]:
        """Kings and queens worth ``need`` marriage points that ``seat`` may hold, each in one
        of ``places`` (or not placed yet) and none of them ``parted`` with."""
        gone = set(parted)
        suits = [0, 1, 2, 3]
        rng.shuffle(suits)
        out: list[str] = []
        total = 0
        for suit in suits:
            if total >= need:
                break
            pair = [card_text(c) for c in iter_cards(marriage_mask(suit))]
            if all(
                at.get(c, places[0]) in places
                and c not in gone
                and (c, seat) not in self.forbidden
                and self.required.get(c, seat) == seat
                for c in pair
            ):
                out += pair
                total += MARRIAGE_VALUES[suit]
        return out

    def _bars(self, c: str, place: Location, seat: int | None) -> bool:
        """Whether a learned fact keeps card ``c`` from ``place`` (``seat``: who needs it there)."""
        holder = place[1] if place[0] == "hand" else self.declarer
        if holder is not None and holder == self.declarer and self.hidden_out:
            return False  # the declarer may have passed it on face down
        return holder is not None and holder != seat and (c, holder) in self.forbidden

    def learn(self, game: Game, seat: int, text: str) -> None:
        """An action failed on a hypothetical deal: learn which cards the seat cannot have held."""
        act: Action = as_action(text)
        card = getattr(act, "card", None)
        holding = set(game.view(seat)["hand"])
        if card is not None and card_text(card) not in holding:
            return  # a draw that put the card elsewhere; the next draw may not
        if game.current_player != seat and not isinstance(act, Redeal | Decline):
            return
        if isinstance(act, Play) and not act.declare:
            legal = [a for a in game.legal_actions() if isinstance(a, Play)]
            for a in legal:
                c = card_text(a.card)
                if c == card_text(act.card):
                    continue
                if self.required.get(c) == seat or self.fixed.get(c) == ("hand", seat):
                    self.contradiction = (
                        seat,
                        f"seat {seat} played {card_text(act.card)} although it held {c}",
                    )
                    return
                self.forbidden.add((c, seat))
        elif isinstance(act, Redeal | Decline):
            self.claims.add(seat)
        elif isinstance(act, Bid | Contract):
            view = game.view(None)
            if act.value > 120 or view["dark"]:
                need = max(act.value - 120, 40)
                needs = self.marriages_needed if isinstance(act, Bid) else self.contract_marriages
                needs[seat] = max(needs.get(seat, 0), need)


def _fits(options: Mapping[str, list[Location]], room: Mapping[Location, int]) -> bool:
    """Whether each card can go to one of its places with no place over its room: a
    bipartite matching by augmenting paths (24 cards and a handful of places)."""
    holders: dict[Location, list[str]] = {p: [] for p in room}

    def seat(c: str, seen: set[Location]) -> bool:
        for p in options[c]:
            if p in seen:
                continue
            seen.add(p)
            if len(holders[p]) < room[p]:
                holders[p].append(c)
                return True
            for other in holders[p]:
                if seat(other, seen):
                    holders[p].remove(other)
                    holders[p].append(c)
                    return True
        return False

    return all(seat(c, set()) for c in sorted(options, key=lambda c: len(options[c])))


__all__ = [
    "HIDDEN",
    "IllegalStep",
    "SeatFollower",
    "Unfollowable",
    "check_deals",
    "deal_of",
    "dealing_order",
]
