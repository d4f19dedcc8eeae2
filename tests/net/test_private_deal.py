"""The private deal's crypto (web/mental_poker.py) and bookkeeping (web/private_deal.py).

Three ledgers, one per seat, each holding only its own seat's secret, see
the same public messages, as three browsers would. Tests check that locks
commute, that each seat reads its own cards and nothing else, and that
the audit at the end names a seat that lied.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "web"))

import mental_poker as mp
import p256
from private_deal import Ledger, ProtocolViolation, layout
from thousand.cards import card_text, parse_card


def secret(label: str) -> str:
    return hashlib.sha256(label.encode()).hexdigest()


class Table:
    """Three peers, each with one seat's secret, and the public channel between them."""

    def __init__(self, seed: str = "t", dealer: int = 0, players: int = 3) -> None:
        self.players = players
        self.secrets = [mp.SeatSecret(secret(f"{seed}/{s}")) for s in range(players)]
        self.peers = [Ledger(players, dealer, {s: self.secrets[s]}) for s in range(players)]

    def broadcast(self, method: str, *args: object) -> None:
        for peer in self.peers:
            getattr(peer, method)(*args)

    def shuffle(self, lie: dict[int, object] | None = None) -> None:
        for s in range(self.players):
            deck = self.peers[s].my_shuffle(s)
            if lie and s in lie:
                deck = lie[s](deck)  # type: ignore[operator]
            self.broadcast("on_shuffle", s, deck)

    def deal(self) -> list[list[str]]:
        for s in range(self.players):
            positions = self.peers[s].deal_positions(s)
            self.broadcast("on_unlock", s, self.peers[s].my_unlocks(s, positions), positions)
        return [
            self.peers[s].read(s, self.peers[s].places["hands"][s]) for s in range(self.players)
        ]

    def deal_corrupt(self) -> int:
        """Deal a corrupt deck: how many seats found a position that opens to no card."""
        corrupt = 0
        try:
            self.deal()
        except ProtocolViolation:
            corrupt += 1
        return corrupt

    def take_talon(self, declarer: int, shown: bool) -> list[str]:
        talon = self.peers[0].places["talon"]
        for s in range(self.players):
            if s != declarer or shown:
                self.broadcast("on_unlock", s, self.peers[s].my_unlocks(s, talon), talon)
        if shown:
            return [card_text(self.peers[0].known[j]) for j in talon]
        return self.peers[declarer].read(declarer, talon)

    def reveal(self, skip: int | None = None) -> None:
        for s in range(self.players):
            if s != skip:
                self.broadcast("on_reveal", s, self.secrets[s].secret)


def readable(ledger: Ledger, seat: int, secret_: mp.SeatSecret) -> set[str]:
    """Every card ``secret_`` alone opens from any value this peer received about a position.

    The decks in the middle of the shuffle are left out: a seat opens its
    own turn's deck, but the later seats' secret permutations hide where
    those cards went.
    """
    values = list(ledger.decks[-1])
    values += [after for *_, after in ledger.unlocks]
    values += [v for p in ledger.passes for v in p.values]
    keys = [secret_.key] + [secret_.pass_key(k) for k in range(len(ledger.passes))]
    out = set()
    for x in values:
        for key in keys:
            card = mp.decode(mp.unlock(key, [x])[0])
            if card is not None:
                out.add(card_text(card))
    return out


def test_locks_commute_and_unlock_undoes_them() -> None:
    a, b = mp.SeatSecret(secret("a")).key, mp.SeatSecret(secret("b")).key
    x = [mp.encode(c) for c in range(24)]
    assert mp.lock(a, mp.lock(b, x)) == mp.lock(b, mp.lock(a, x))
    assert mp.unlock(a, mp.unlock(b, mp.lock(a, mp.lock(b, x)))) == x
    assert mp.unlock(b, mp.lock(a, mp.lock(b, x))) == mp.lock(a, x)
    assert 1 <= a.unlock < mp.N and (a.lock * a.unlock) % mp.N == 1
    assert mp.unlock(mp.joint([a, b]), mp.lock(a, mp.lock(b, x))) == x
    # Every card's code is a distinct point of the curve, and so is every lock of it.
    assert len(set(mp.CODES)) == 24 and all(mp.is_value(v) for v in mp.lock(a, x))
    assert [mp.decode(v) for v in x] == list(range(24)) and mp.decode(mp.lock(a, x)[0]) is None


def test_wire_values_are_checked() -> None:
    x = mp.encode(5)
    assert mp.from_wire(mp.to_wire(x)) == x
    wire = mp.to_wire(x)
    assert len(wire) == 66 and wire[:2] in ("02", "03")
    off_curve = next(f"02{n:064x}" for n in range(2, 50) if p256.lift_x(n) is None)
    old_format = format(12345, "0512x")  # a 2048-bit value of the format before
    beyond_field = "02" + "f" * 64
    for bad in (
        "", "zz" * 33, wire.upper(), "04" + wire[2:], wire[:-2], wire + "00",
        off_curve, beyond_field, old_format, 5, None,
    ):  # fmt: skip
        with pytest.raises(ValueError):
            mp.from_wire(bad)
    with pytest.raises(ValueError):
        mp.SeatSecret("no")


def test_layout_follows_the_engines_dealing_order() -> None:
    assert layout(3, 0) == {
        "hands": [list(range(14, 21)), list(range(0, 7)), list(range(7, 14))],
        "talon": [21, 22, 23],
    }
    four = layout(4, 2)
    assert four["hands"][2] == [] and four["hands"][3] == list(range(7))
    assert layout(2, 1)["hands"] == [list(range(10)), list(range(10, 20))]


def test_three_seats_shuffle_and_deal_and_each_reads_only_its_own_cards() -> None:
    t = Table()
    t.shuffle()
    hands = t.deal()
    assert all(len(h) == 7 for h in hands)
    dealt = {c for h in hands for c in h}
    assert len(dealt) == 21
    for s, peer in enumerate(t.peers):
        # With its own secret only, a seat opens exactly its own hand from all it received.
        assert readable(peer, s, t.secrets[s]) == set(hands[s])
    talon = t.take_talon(declarer=1, shown=False)
    assert len(set(talon) | dealt) == 24
    assert readable(t.peers[0], 0, t.secrets[0]) == set(hands[0])
    assert readable(t.peers[2], 2, t.secrets[2]) == set(hands[2])
    assert readable(t.peers[1], 1, t.secrets[1]) == set(hands[1]) | set(talon)
    t.reveal()
    for peer in t.peers:
        verdict = peer.audit()
        assert verdict.problems == [] and verdict.cards is not None
        deal = peer.deal(verdict.cards)
        assert [sorted(h) for h in deal["hands"]] == [sorted(h) for h in hands]
        assert sorted(deal["talon"]) == sorted(talon)


def test_a_shown_talon_is_read_by_all_and_a_face_down_pass_by_its_receiver_only() -> None:
    t = Table("pass")
    t.shuffle()
    hands = t.deal()
    talon = t.take_talon(declarer=1, shown=True)
    assert all(set(talon) <= set(card_text(c) for c in p.known.values()) for p in t.peers)
    # The declarer passes one card of its own hand to seat 2, face down.
    source = t.peers[1].places["hands"][1][3]
    y1 = t.peers[1].pass_start(1, 2, source)
    k = 0
    t.broadcast("on_pass", 1, 2, source, y1)
    t.broadcast("on_pass_value", k, 2, t.peers[2].pass_answer(k))
    t.broadcast("on_pass_value", k, 1, t.peers[1].pass_finish(k))
    given = hands[1][3]
    assert card_text(t.peers[2].received[k]) == given
    assert given not in readable(t.peers[0], 0, t.secrets[0])
    assert readable(t.peers[0], 0, t.secrets[0]) == set(hands[0])
    # Seat 2 plays it, showing the position it came from.
    t.broadcast("on_open", 2, source, given)
    t.reveal()
    assert all(p.audit().problems == [] for p in t.peers)


def test_an_unfinished_or_false_pass_is_named() -> None:
    t = Table("false-pass")
    t.shuffle()
    t.deal()
    source = t.peers[1].places["hands"][1][0]
    other = t.peers[1].places["hands"][1][1]
    t.peers[1].known[source] = t.peers[1].known[other]  # the giver locks another card
    y1 = t.peers[1].pass_start(1, 2, source)
    t.broadcast("on_pass", 1, 2, source, y1)
    t.broadcast("on_pass_value", 0, 2, t.peers[2].pass_answer(0))
    t.broadcast("on_pass_value", 0, 1, t.peers[1].pass_finish(0))
    t.reveal()
    assert t.peers[0].audit().problems[0][0] == 1
    with pytest.raises(ProtocolViolation):
        t.peers[0].on_pass_value(0, 1, y1)  # a fourth step


def test_a_shuffle_lie_is_named_at_the_end() -> None:
    # Seat 0 (say the host) swaps one card of its deck for a value of its own making.
    forged = mp.to_wire(mp.lock(mp.SeatSecret(secret("forge")).key, [mp.encode(23)])[0])
    t = Table("lie")
    t.shuffle(lie={0: lambda deck: [forged, *deck[1:]]})
    assert t.deal_corrupt() == 1  # whoever got the forged card sees it is no card
    t.reveal()
    for peer in t.peers:
        problems = peer.audit().problems
        assert problems and problems[0][0] == 0 and "shuffle" in problems[0][1]


def test_a_repeated_card_in_a_shuffle_is_refused_at_once() -> None:
    t = Table("dup")
    deck = t.peers[0].my_shuffle(0)
    with pytest.raises(ProtocolViolation, match="repeats"):
        t.peers[1].on_shuffle(0, [deck[0], *deck[:-1]])
    with pytest.raises(ProtocolViolation, match="out of turn"):
        t.peers[1].on_shuffle(1, deck)
    assert t.peers[1].next_shuffler() == 0


def test_a_false_unlock_and_a_card_not_dealt_are_named() -> None:
    t = Table("unlock")
    t.shuffle()
    positions = t.peers[0].deal_positions(0)
    t.broadcast("on_unlock", 0, t.peers[0].my_unlocks(0, positions), positions)
    positions = t.peers[1].deal_positions(1)
    values = t.peers[1].my_unlocks(1, positions)
    j, k = str(positions[0]), str(positions[1])
    values[j], values[k] = values[k], values[j]  # seat 1 swaps two of seat 2's cards
    t.broadcast("on_unlock", 1, values, positions)
    positions = t.peers[2].deal_positions(2)
    t.broadcast("on_unlock", 2, t.peers[2].my_unlocks(2, positions), positions)
    t.reveal()
    assert t.peers[0].audit().problems[0][0] == 1

    t = Table("not-dealt")
    t.shuffle()
    hands = t.deal()
    position = t.peers[2].places["hands"][2][0]
    fake = next(c for c in hands[0])  # a card of seat 0, claimed by seat 2
    with pytest.raises(ProtocolViolation):
        t.peers[1].on_open(2, t.peers[1].places["hands"][0][0], fake)  # not seat 2's place
    # Seat 0 holds the card and refuses at once; seat 1 can only tell at the end.
    with pytest.raises(ProtocolViolation, match="knows at position"):
        t.peers[0].on_open(2, position, fake)
    t.peers[1].on_open(2, position, fake)
    t.reveal()
    verdict = t.peers[1].audit()
    problems, cards = verdict.problems, verdict.cards
    assert problems[0][0] == 2 and fake in problems[0][1] and cards is not None
    # The same evidence as facts, for a page to say in its player's language.
    assert problems[0].code == "played_other"
    assert problems[0].facts == {
        "card": fake,
        "position": position,
        "holds": card_text(cards[position]),
    }


def test_a_seat_that_keeps_its_key_is_named() -> None:
    t = Table("quiet")
    t.shuffle()
    t.deal()
    t.reveal(skip=2)
    verdict = t.peers[0].audit()
    assert verdict.problems == [(2, "seat 2 did not reveal its key", "no_reveal", {})]
    assert verdict.cards is None


def test_malformed_unlocks_change_nothing() -> None:
    t = Table("bad")
    peer = t.peers[0]
    with pytest.raises(ProtocolViolation):
        peer.on_unlock(0, {}, [])  # before the shuffle
    t.shuffle()
    positions = peer.deal_positions(0)
    values = peer.my_unlocks(0, positions)
    before = list(peer.current)
    with pytest.raises(ProtocolViolation):
        peer.on_unlock(0, dict(list(values.items())[:-1]), positions)
    with pytest.raises(ProtocolViolation):
        peer.on_unlock(0, {**values, str(positions[0]): "00" * 256}, positions)
    assert peer.current == before and peer.unlocks == []
    assert parse_card("AH") == 23
