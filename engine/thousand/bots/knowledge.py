"""What one seat knows, read from its view: cards seen, voids, holdings, the table.

This module owns the translation of a per-seat view (``Game.view(seat)``)
into bitmasks a bot can reason with: the seat's own hand, every card already
played, the cards other seats are known to hold (given cards, the rest of a
shown talon (прикуп) in the declarer's hand, the partner card of a declared
marriage), the suits each seat has shown it lacks (a void, shown by not
following suit or not trumping), the other half of a marriage whose king or
queen a seat led without declaring, the pool of unseen cards and how many of
them each seat holds. It reads nothing but the view, so a bot built on it
cannot see hidden state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..cards import (
    FULL_DECK,
    KING,
    QUEEN,
    SUIT_CHARS,
    SUIT_MASKS,
    bit,
    card,
    card_text,
    mask_of,
    parse_card,
    rank_of,
    suit_of,
)


class PlayedTrick(NamedTuple):
    """A trick as this seat saw it played: its cards in order and the trump they fell under."""

    cards: list[tuple[int, int]]
    trump: int | None
    """The trump in force once the lead was made (a marriage led sets it)."""
    declared: bool
    """The lead declared a marriage."""


@dataclass
class Knowledge:
    """One seat's knowledge of a hand in progress, as bitmasks."""

    seat: int
    players: int
    phase: str
    turn: int | None
    hand: int
    sizes: list[int]
    declarer: int | None
    bid: int | None
    contract: int | None
    trump: int | None
    trick: list[tuple[int, int]]
    leader: int
    played: int = 0
    played_by: list[int] = field(default_factory=list)
    known: list[int] = field(default_factory=list)
    """Cards each seat is known to hold now (empty for this seat: see ``hand``)."""
    void: list[int] = field(default_factory=list)
    """Cards each seat cannot hold: whole suits it has shown it lacks."""
    unheld: list[int] = field(default_factory=list)
    """Single cards each seat has shown it does not hold: the other half of a marriage
    (марьяж) whose king or queen it led without declaring when it could have. The
    marriage is worth more than any trick a seat could save by not declaring it, and
    no level of bot leads half of a marriage it holds undeclared (none of 80 such leads
    in 60 hands). The search's samples keep the card out of that hand; it changed 1 of
    1,200 paired deals against the normal level, as the card seldom decides a trick."""
    talon: int = 0
    talon_seen: bool = False
    given_to: list[int] = field(default_factory=list)
    """Cards seen given to each seat (снос)."""
    given_hidden: int = 0
    """How many cards were given face down (unseen by this seat)."""
    laid_away: int = 0
    """Cards this seat laid away face down (two players); they count for it at the end."""
    pool: int = 0
    """Cards whose place this seat does not know."""
    dead: int = 0
    """How many pool cards are in no hand (the undealt talon during bidding)."""
    eligible: int = 0
    """Bit ``seat`` for every seat that has taken a trick (may declare a marriage)."""
    marriages: list[tuple[int, int]] = field(default_factory=list)
    bids: list[tuple[int, int | None]] = field(default_factory=list)
    card_points: list[int] = field(default_factory=list)
    marriage_points: list[int] = field(default_factory=list)
    trick_counts: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    """Seats that take part in the hand, clockwise from seat 0."""
    trump_by: int | None = None
    """Who declared the trump in force (``None``: nobody)."""
    ace_by: int | None = None
    """Who declared the ace marriage (``None``: nobody)."""
    history: list[PlayedTrick] = field(default_factory=list)
    """Every trick of the hand so far, the one on the table last."""

    @property
    def others(self) -> list[int]:
        return [s for s in self.order if s != self.seat]

    def trick_next(self) -> int | None:
        """The seat that plays after the one to move, in the trick on the table."""
        if not self.trick or len(self.trick) + 1 >= len(self.order):
            return None
        i = self.order.index(self.trick[-1][0])
        return self.order[(i + 2) % len(self.order)]

    def need(self, s: int) -> int:
        """How many unknown cards seat ``s`` still holds."""
        return self.sizes[s] - self.known[s].bit_count()


def _cards(texts: Any) -> int:
    return mask_of([t for t in texts if t is not None]) if texts else 0


def read_view(view: dict[str, Any]) -> Knowledge:
    """The knowledge of ``view["seat"]`` in the view's hand."""
    seat = int(view["seat"])
    n = int(view.get("players", 3))
    sizes = [int(x) for x in view.get("hand_sizes", [0] * n)]
    order = [s for s in range(n) if sizes[s] > 0 or s == seat]
    if len(order) < 2:
        order = list(range(n))
    trump_text = view.get("trump")
    trick = [(int(s), parse_card(c)) for s, c in view.get("trick") or []]
    k = Knowledge(
        seat=seat,
        players=n,
        phase=str(view.get("phase")),
        turn=view.get("turn"),
        hand=_cards(view.get("hand") or []),
        sizes=sizes,
        declarer=view.get("declarer"),
        bid=view.get("bid"),
        contract=view.get("contract"),
        trump=SUIT_CHARS.index(trump_text) if trump_text else None,
        trick=trick,
        leader=int(view.get("leader", view.get("turn") or 0) or 0),
        played_by=[0] * n,
        known=[0] * n,
        void=[0] * n,
        unheld=[0] * n,
        given_to=[0] * n,
        bids=[(int(s), None if v == "pass" else int(v)) for s, v in view.get("bids") or []],
        card_points=list(view.get("card_points") or [0] * n),
        marriage_points=list(view.get("marriage_points") or [0] * n),
        trick_counts=list(view.get("trick_counts") or [0] * n),
        order=order,
    )
    rules = view.get("rules") or {}
    first_lead = bool(rules.get("marriage_first_lead", False))
    declared = [(int(s), str(x)) for s, x in view.get("marriages") or []]
    marriages = [(s, SUIT_CHARS.index(x)) for s, x in declared if x != "A"]
    k.marriages = marriages
    k.ace_by = next((s for s, x in declared if x == "A"), None)
    if view.get("talon"):
        k.talon = _cards(view["talon"])
        k.talon_seen = True
    if view.get("discarded") and view.get("declarer") == seat:
        k.laid_away = _cards(view["discarded"])
    for c_text, to in view.get("given") or []:
        if c_text is None:
            k.given_hidden += 1
        else:
            k.given_to[int(to)] |= bit(parse_card(c_text))

    # Replay the tricks for played cards, voids and the trump in force.
    tricks = [
        [(int(s), parse_card(c)) for s, c in t.get("cards", [])] for t in view.get("tricks") or []
    ]
    winners = [t.get("winner") for t in view.get("tricks") or []]
    pending = list(marriages)
    trump: int | None = None
    won = [0] * n
    partner_cards: list[tuple[int, int]] = []
    all_tricks = [*tricks, trick] if trick else tricks
    for i, t in enumerate(all_tricks):
        if not t:
            continue
        lead_seat, lead = t[0]
        declared_here = False
        if rank_of(lead) in (KING, QUEEN):
            other = card(suit_of(lead), KING + QUEEN - rank_of(lead))
            could = not k.played & bit(other) and (won[lead_seat] or first_lead)
            if could and pending and pending[0] == (lead_seat, suit_of(lead)):
                pending.pop(0)
                trump = suit_of(lead)
                partner_cards.append((lead_seat, other))
                declared_here = True
            elif could:
                # Half of a marriage it could have declared, led plainly: no other half.
                k.unheld[lead_seat] |= bit(other)
        k.history.append(PlayedTrick(list(t), trump, declared_here))
        led = suit_of(lead)
        for s, c in t:
            k.played |= bit(c)
            k.played_by[s] |= bit(c)
            if suit_of(c) != led:
                k.void[s] |= SUIT_MASKS[led]
                if trump is not None and suit_of(c) != trump:
                    k.void[s] |= SUIT_MASKS[trump]
        if i < len(winners) and winners[i] is not None:
            won[int(winners[i])] += 1
    if k.trump is None and trump is not None:
        k.trump = trump
    if k.trump is not None:
        # The trump's declarer: the last marriage of its suit, else the ace
        # marriage's last ace.
        by_suit = [s for s, suit in marriages if suit == k.trump]
        k.trump_by = by_suit[-1] if by_suit else k.ace_by
    for s in range(n):
        if won[s] or (k.trick_counts and s < len(k.trick_counts) and k.trick_counts[s] > 0):
            k.eligible |= 1 << s

    # Known holdings of the other seats.
    for s in range(n):
        if s != seat:
            k.known[s] |= k.given_to[s] & ~k.played
    d = k.declarer
    if d is not None and d != seat and k.talon_seen:
        given_any = 0
        for m in k.given_to:
            given_any |= m
        k.known[d] |= k.talon & ~given_any & ~k.played & ~k.hand
    for s, other in partner_cards:
        if s != seat and not k.played & bit(other):
            k.known[s] |= bit(other)
    for s in range(n):
        if s == seat:
            k.known[s] = 0
        k.void[s] &= ~k.known[s]
        k.unheld[s] &= ~k.known[s]
    known_all = k.hand | k.played | k.laid_away
    for s in range(n):
        known_all |= k.known[s]
    k.pool = FULL_DECK & ~known_all
    in_hands = sum(k.need(s) for s in order if s != seat)
    k.dead = max(0, k.pool.bit_count() - in_hands)
    return k


def legal_plays(legal: list[str]) -> list[tuple[int, bool]]:
    """The ``play`` actions of a legal list as ``(card, declare)``."""
    out = []
    for a in legal:
        words = a.split()
        if words and words[0] == "play":
            out.append((parse_card(words[1]), len(words) > 2 and words[2] == "declare"))
    return out


def play_text(c: int, declare: bool) -> str:
    """The text of a ``play`` action."""
    return f"play {card_text(c)}" + (" declare" if declare else "")
