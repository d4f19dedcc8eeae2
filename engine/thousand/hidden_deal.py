"""What one peer knows of a deal's hidden cards, and drawing a whole deal that keeps it.

This module owns the facts a follower of the private deal
(:class:`.private_hand.SeatFollower`) holds about cards it cannot see, and
the hypothetical deals it draws from them (:class:`Facts`): the cards it
knows where they lie, the cards each seat showed in play and so held, the
places a seat's cards may have come from (its hand, the talon, the
declarer's hand for a card passed face down), the claims a seat made and
the marriages its bids and contract need, and what failed fits taught (a
seat that did not follow suit holds none of it). A draw places every card
where the cards after it can still go (a matching of cards to places), so
it never paints itself into a corner. It also says which deck position goes
to which hand (:func:`dealing_order`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from .private_hand import SeatFollower

HIDDEN = "??"
"""A card this peer may not see, in an action's text."""

Location = tuple[str, int]
"""``("hand", seat)`` or ``("talon", part)`` (two players have talons 0 and 1)."""


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


def _card(text: str) -> int | None:
    if text == HIDDEN:
        return None
    try:
        return parse_card(text)
    except ValueError as e:
        raise IllegalAction(str(e)) from None


def parse_known(text: str) -> tuple[str, int | None, list[str]]:
    """An action as known: its verb, its card (``None`` if hidden or none) and its words."""
    words = str(text).split()
    if len(words) >= 2 and words[0] in ("give", "discard", "play"):
        return words[0], _card(words[1]), words
    return (words[0] if words else ""), None, words


@dataclass
class Facts:
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
    def gather(cls, follower: SeatFollower, public: Sequence[str]) -> Facts:
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
            verb, card, words = parse_known(action)
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
            elif verb in ("give", "discard"):
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
        for c, place in self.fixed.items():
            _put(at, free, c, place)
        self.hinted = {}
        # A bid needs its marriages in the hand dealt; a contract, in the hand once the
        # talon is in and the cards are passed on.
        for s, need in sorted(self.marriages_needed.items()):
            if not self._place_marriages(s, need, [("hand", s)], (), rng, at, free):
                return None
        for s, need in sorted(self.contract_marriages.items()):
            if not self._place_marriages(s, need, self.origins[s], self.parted, rng, at, free):
                return None
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
        if rank is None:
            pool = [card_text(c) for c in range(DECK_SIZE) if card_text(c) not in at]
            rng.shuffle(pool)
            pool.sort(key=lambda c: CARD_POINTS[parse_card(c)])
            for c in pool[: free[place]]:
                _put(at, free, c, place)
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
            _put(at, free, c, place)
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
                _put(at, free, c, place)
                if self._placeable(at, free):
                    break
                del at[c]
                free[place] += 1
            else:
                return False
        return True

    def _place_marriages(
        self,
        seat: int,
        need: int,
        places: Sequence[Location],
        parted: Iterable[str],
        rng: random.Random,
        at: dict[str, Location],
        free: dict[Location, int],
    ) -> bool:
        """Place kings and queens worth ``need`` marriage points with ``seat``, in the first
        of ``places`` with room; False if there is none."""
        for c in self._marriage_cards(seat, need, rng, at, places, parted):
            if c not in at:
                room = [p for p in places if free.get(p, 0) > 0]
                if not room:
                    return False
                _put(at, free, c, room[0])
            self.hinted[c] = seat
        return True

    def _marriage_cards(
        self,
        seat: int,
        need: int,
        rng: random.Random,
        at: Mapping[str, Location],
        places: Sequence[Location],
        parted: Iterable[str],
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


def _put(at: dict[str, Location], free: dict[Location, int], c: str, place: Location) -> None:
    """Card ``c`` goes to ``place``, which has one card less room."""
    at[c] = place
    free[place] -= 1


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


__all__ = ["HIDDEN", "Facts", "Location", "deal_of", "dealing_order", "parse_known"]
