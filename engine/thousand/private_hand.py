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
What the follower knows of the hidden cards, how it draws a deal that keeps
it, and which deck position goes to which hand (:func:`dealing_order`) are
:mod:`.hidden_deal`'s.

Scores shown before a deal's cards are revealed may rest on hidden cards
(four nines, a hidden talon's points); :meth:`SeatFollower.reveal` makes
them exact.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import IllegalAction, as_action
from .cards import DECK_SIZE, card_text, parse_card
from .game import Game
from .hidden_deal import HIDDEN, Facts, deal_of, dealing_order, parse_known
from .rules import Rules

FIT_TRIES = 60
"""How many hypothetical deals a follower tries before it calls a move impossible."""


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
        verb, card, _ = parse_known(action)
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
            text = self._choose_hidden(trial, action, Facts.gather(self, [*self.public, action]))
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
        facts = Facts.gather(self, self.public)
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
            actor == seat and parse_known(action)[0] in ("redeal", "decline")
            for actor, action in zip(self.actors, self.public, strict=True)
        )

    def _choose_hidden(self, game: Game, action: str, facts: Facts) -> str:
        """A card for a face-down give or discard, from the declarer's hypothetical hand."""
        verb, _, words = parse_known(action)
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


__all__ = [
    "HIDDEN",
    "IllegalStep",
    "SeatFollower",
    "Unfollowable",
    "check_deals",
    "deal_of",
    "dealing_order",
]
