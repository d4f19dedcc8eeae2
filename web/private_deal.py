"""One private deal as every peer records it: the shuffle, the unlocking, and its audit.

This module owns the bookkeeping of the protocol in web/net/PRIVATE_DEAL.md
for one deal: the public values every peer has seen (each seat's shuffled
deck, every lock removed in public, every card opened, every face-down
pass), what this peer's own seats could read with their secrets, and the
check at the deal's end once every secret is revealed (:meth:`Ledger.audit`).
It knows where positions go (the dealing order of :func:`layout`) but no
rule of play: the engine replays the revealed deal (``thousand.check_deal``).

A message that breaks the protocol (out of turn, wrong positions, not a
point of the curve) raises :class:`ProtocolViolation` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mental_poker import (
    CODES,
    DECK,
    Point,
    SeatSecret,
    decode,
    from_wire,
    is_secret,
    is_shuffle_of,
    joint,
    lock,
    shuffle,
    to_wire,
    unlock,
)
from thousand.cards import card_text, parse_card
from thousand.private_hand import dealing_order


class ProtocolViolation(ValueError):
    """A private-deal message that does not fit the protocol at this point: the
    evidence in English, and where a page can say it in its player's words, as
    the ``code`` and ``facts`` of a :class:`Problem`."""

    def __init__(self, text: str, code: str = "protocol", facts: Mapping[str, Any] | None = None):
        super().__init__(text)
        self.code = code
        self.facts = dict(facts) if facts is not None else {"reason": text}


def layout(players: int, dealer: int) -> dict[str, Any]:
    """Which deck positions go where: ``{"hands": [[positions] per seat], "talon": [positions]}``.

    The engine's dealing order (``thousand.private_hand.dealing_order``).
    """
    hands: list[list[int]] = [[] for _ in range(players)]
    talon: list[int] = []
    for j, (kind, where) in enumerate(dealing_order(players, dealer)):
        (hands[where] if kind == "hand" else talon).append(j)
    return {"hands": hands, "talon": talon}


@dataclass
class Pass:
    """A card passed face down from ``giver`` to ``to`` by the three-pass transfer."""

    giver: int
    to: int
    source: int
    """The deck position the card was dealt in."""
    values: list[Point] = field(default_factory=list)
    """y₁ (giver), y₂ (receiver), y₃ (giver)."""
    shown: int | None = None
    """The card, when it was passed face up (no values then)."""


@dataclass
class Ledger:
    """Everything public about one deal, and what this peer's seats read of it."""

    players: int
    dealer: int
    secrets: dict[int, SeatSecret] = field(default_factory=dict)
    """The seats this peer plays (a guest: its own; the host: its own and the computer seats)."""

    def __post_init__(self) -> None:
        self.places = layout(self.players, self.dealer)
        self.decks: list[list[Point]] = [list(CODES)]
        self.current: list[Point] = []
        self.unlocks: list[tuple[int, int, Point, Point]] = []
        """(seat, position, before, after) of every lock removed in public."""
        self.locks: list[set[int]] = [set(range(self.players)) for _ in range(DECK)]
        self.known: dict[int, int] = {}
        """Position → card, for every position this peer could read or saw opened."""
        self.opened: dict[int, tuple[int, int]] = {}
        """Position → (seat, card) of every card opened in public."""
        self.passes: list[Pass] = []
        self.received: dict[int, int] = {}
        """Pass number → card, for the passes to this peer's seats."""
        self.revealed: dict[int, SeatSecret] = {}

    # --- the shuffle ------------------------------------------------------------------

    @property
    def shuffled(self) -> bool:
        return len(self.decks) > self.players

    def next_shuffler(self) -> int | None:
        return None if self.shuffled else len(self.decks) - 1

    def my_shuffle(self, seat: int) -> list[str]:
        return [to_wire(x) for x in shuffle(self.secrets[seat], self.decks[-1])]

    def on_shuffle(self, seat: int, deck: Sequence[str]) -> None:
        if seat != self.next_shuffler():
            raise ProtocolViolation(f"seat {seat} shuffled out of turn")
        if len(deck) != DECK:
            raise ProtocolViolation(f"seat {seat}'s deck has {len(deck)} cards, not {DECK}")
        values = [_value(x, seat) for x in deck]
        if len(set(values)) != DECK:
            raise ProtocolViolation(f"seat {seat}'s deck repeats a card")
        self.decks.append(values)
        if self.shuffled:
            self.current = list(values)

    # --- removing locks ---------------------------------------------------------------

    def deal_positions(self, seat: int) -> list[int]:
        """The positions ``seat`` unlocks in the dealing pass: every hand but its own."""
        own = set(self.places["hands"][seat])
        return [j for h in self.places["hands"] for j in h if j not in own]

    def my_unlocks(self, seat: int, positions: Iterable[int]) -> dict[str, str]:
        key = self.secrets[seat].key
        return {str(j): to_wire(unlock(key, [self.current[j]])[0]) for j in positions}

    def on_unlock(self, seat: int, values: Mapping[str, str], expected: Iterable[int]) -> None:
        """Seat removes its lock from ``expected`` positions in public."""
        if not self.shuffled:
            raise ProtocolViolation("no lock comes off before the shuffle is done")
        want = sorted(expected)
        try:
            got = sorted(int(j) for j in values)
        except (TypeError, ValueError):
            raise ProtocolViolation(f"seat {seat} named a position that is no number") from None
        if got != want:
            raise ProtocolViolation(f"seat {seat} unlocked positions {got}, not {want}")
        for j in want:
            if seat not in self.locks[j]:
                raise ProtocolViolation(f"seat {seat}'s lock is already off position {j}")
        after = {j: _value(values[str(j)], seat) for j in want}
        for j, x in after.items():
            self.unlocks.append((seat, j, self.current[j], x))
            self.current[j] = x
            self.locks[j].discard(seat)
            if not self.locks[j]:
                card = decode(x)
                if card is None:
                    raise ProtocolViolation(f"position {j} opened to no card")
                self.known[j] = card

    def read(self, seat: int, positions: Iterable[int]) -> list[str]:
        """What this peer's ``seat`` reads at positions where only its lock is left."""
        out = []
        for j in positions:
            if self.locks[j] != {seat}:
                raise ProtocolViolation(f"position {j} still has other seats' locks")
            card = decode(unlock(self.secrets[seat].key, [self.current[j]])[0])
            if card is None:
                raise ProtocolViolation(
                    f"position {j} does not open to a card: the deal is corrupt"
                )
            self.known[j] = card
            out.append(card_text(card))
        return out

    # --- opening and passing ----------------------------------------------------------

    def on_open(self, seat: int, position: int, text: str) -> None:
        """Seat shows the card of ``position`` to all (a play or a face-up give)."""
        if not isinstance(position, int) or not 0 <= position < DECK:
            raise ProtocolViolation(f"seat {seat} opened no position ({position!r})")
        if position in self.opened:
            raise ProtocolViolation(f"position {position} was opened before")
        held = {*self.places["hands"][seat], *self.places["talon"]}
        held |= {p.source for p in self.passes if p.to == seat}
        if position not in held:
            raise ProtocolViolation(f"seat {seat} cannot hold the card of position {position}")
        card = parse_card(text)
        mine = self.known.get(position)
        elsewhere = [j for j, c in self.known.items() if c == card and j != position]
        if elsewhere and position not in self.known:
            raise ProtocolViolation(
                f"seat {seat} showed {text}, which this table knows at position {elsewhere[0]}",
                "shown_known",
                {"card": card_text(card), "position": elsewhere[0]},
            )
        if mine is not None and mine != card:
            # This peer read that position itself: the claim is false now.
            raise ProtocolViolation(
                f"seat {seat} showed {text} for position {position}, which holds {card_text(mine)}",
                "played_other",
                {"card": card_text(card), "position": position, "holds": card_text(mine)},
            )
        self.opened[position] = (seat, card)

    def on_show(self, giver: int, to: int, source: int, text: str) -> None:
        """The giver passes the card of ``source`` face up: everybody sees it."""
        self.on_open(giver, source, text)
        card = self.opened.pop(source)[1]
        self.known[source] = card
        self.passes.append(Pass(giver, to, source, shown=card))

    def pass_start(self, giver: int, to: int, source: int) -> str:
        """This peer's seat ``giver`` passes the card of ``source`` face down: y₁."""
        k = len(self.passes)
        key = self.secrets[giver].pass_key(k)
        return to_wire(lock(key, [CODES[self.known[source]]])[0])

    def on_pass(self, giver: int, to: int, source: int, y1: str) -> int:
        k = len(self.passes)
        self.passes.append(Pass(giver, to, source, [_value(y1, giver)]))
        return k

    def pass_answer(self, k: int) -> str:
        """This peer's receiving seat locks y₁ with its fresh key: y₂."""
        p = self.passes[k]
        key = self.secrets[p.to].pass_key(k)
        return to_wire(lock(key, [p.values[0]])[0])

    def pass_finish(self, k: int) -> str:
        """The giver removes its fresh lock: y₃, locked by the receiver only."""
        p = self.passes[k]
        key = self.secrets[p.giver].pass_key(k)
        return to_wire(unlock(key, [p.values[1]])[0])

    def on_pass_value(self, k: int, seat: int, value: str) -> None:
        if not 0 <= k < len(self.passes):
            raise ProtocolViolation(f"there is no pass {k}")
        p = self.passes[k]
        step = len(p.values)
        if step >= 3 or seat != (p.to if step == 1 else p.giver):
            raise ProtocolViolation(f"seat {seat} spoke out of turn in pass {k}")
        p.values.append(_value(value, seat))
        if step == 2 and p.to in self.secrets:
            card = decode(unlock(self.secrets[p.to].pass_key(k), [p.values[2]])[0])
            if card is None:
                raise ProtocolViolation(f"the card passed to seat {p.to} is no card")
            self.received[k] = card

    # --- the end: every secret revealed ----------------------------------------------

    def on_reveal(self, seat: int, secret: str) -> None:
        if not is_secret(secret):
            raise ProtocolViolation(f"seat {seat}'s secret is not 64 hex digits")
        self.revealed[seat] = SeatSecret(secret)

    def audit(self) -> Verdict:
        """Check every public value against the revealed secrets; the deal's cards if all hold."""
        missing = [s for s in range(self.players) if s not in self.revealed]
        if missing:
            return Verdict(
                [Problem(s, f"seat {s} did not reveal its key", "no_reveal") for s in missing], None
            )
        problems: list[Problem] = []
        if not self.shuffled:
            s = self.next_shuffler() or 0
            return Verdict([Problem(s, "the shuffle never finished", "shuffle_unfinished")], None)
        for s in range(self.players):
            if not is_shuffle_of(self.revealed[s].key, self.decks[s], self.decks[s + 1]):
                text = (
                    f"seat {s} lied in the shuffle: its deck is not the deck it "
                    "was given, locked by its key and permuted"
                )
                problems.append(Problem(s, text, "shuffle_lie"))
        for s, j, before, after in self.unlocks:
            if unlock(self.revealed[s].key, [before])[0] != after:
                text = f"seat {s} lied when removing its lock from position {j}"
                problems.append(Problem(s, text, "unlock_lie", {"position": j}))
        if problems:
            return Verdict(problems[:1], None)
        every_lock = joint(self.revealed[s].key for s in range(self.players))
        cards: list[int] = []
        for j, x in enumerate(unlock(every_lock, self.decks[-1])):
            card = decode(x)
            if card is None:
                text = f"position {j} holds no card"
                return Verdict([Problem(0, text, "no_card", {"position": j})], None)
            cards.append(card)
        for j, (s, card) in self.opened.items():
            if cards[j] != card:
                facts = {"card": card_text(card), "position": j, "holds": card_text(cards[j])}
                text = "seat {s} played {card} from position {position}, which holds {holds}"
                problems.append(Problem(s, text.format(s=s, **facts), "played_other", facts))
        for k, p in enumerate(self.passes):
            f, h = self.revealed[p.giver].pass_key(k), self.revealed[p.to].pass_key(k)
            code = CODES[cards[p.source]]
            if p.shown is not None:
                if p.shown != cards[p.source]:
                    facts = {
                        "card": card_text(p.shown),
                        "position": p.source,
                        "holds": card_text(cards[p.source]),
                    }
                    text = "seat {s} passed {card} from position {position}, which holds {holds}"
                    problems.append(
                        Problem(
                            p.giver, text.format(s=p.giver, **facts), "passed_other_shown", facts
                        )
                    )
            elif len(p.values) < 3:
                seat = p.giver if len(p.values) != 1 else p.to
                text = f"pass {k} to seat {p.to} was never finished"
                problems.append(Problem(seat, text, "pass_unfinished", {"to": p.to}))
            elif unlock(f, [p.values[0]])[0] != code or lock(f, [p.values[2]])[0] != p.values[1]:
                text = (
                    f"seat {p.giver} passed seat {p.to} another card than "
                    f"the one of position {p.source}"
                )
                facts = {"to": p.to, "position": p.source}
                problems.append(Problem(p.giver, text, "passed_other", facts))
            elif unlock(h, [p.values[1]])[0] != p.values[0]:
                text = f"seat {p.to} lied in the pass it received"
                problems.append(Problem(p.to, text, "pass_receiver_lie"))
        return Verdict(problems, cards)

    def deal(self, cards: Sequence[int]) -> dict[str, Any]:
        """The engine's explicit deal (``Game.new(deal=…)``) these position cards make."""
        return {
            "hands": [[card_text(cards[j]) for j in h] for h in self.places["hands"]],
            "talon": [card_text(cards[j]) for j in self.places["talon"]],
        }


class Problem(NamedTuple):
    """A cheat proved or claimed: the seat, the evidence in English, and the same as
    ``code`` and ``facts`` for a page to say in its player's language (seats and
    positions 0-based, cards as text such as ``"AH"``)."""

    seat: int
    text: str
    code: str = "protocol"
    facts: Mapping[str, Any] = {}


@dataclass
class Verdict:
    """The audit of one deal: the ``problems`` it proved, and the cards by position."""

    problems: list[Problem]
    cards: list[int] | None


def _value(text: Any, seat: int) -> Point:
    try:
        return from_wire(text)
    except ValueError as e:
        raise ProtocolViolation(f"seat {seat} sent a bad value: {e}") from None
