"""The multiplayer bridge (web/net_bridge.py) in CPython: three pages' private peers and the relay.

The browser runs the same module in Pyodide, one peer per page; here the
module's one peer is swapped per page, and every call goes through the
bridge's own dispatcher, as the worker calls it. The host relays a guest's
message only when its own peer's check lets it through.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "web"))

import engine_bridge
import net_bridge
from thousand import Rules

RULES = Rules.preset("classic").to_dict()


def reply_of(name: str, *args: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(engine_bridge.call(name, json.dumps(list(args))))
    return reply


def call(name: str, *args: Any) -> Any:
    reply = reply_of(name, *args)
    if "error" in reply:
        raise RuntimeError(f"{reply['error']['type']}: {reply['error']['message']}")
    return reply["ok"]


class Pages:
    """A page per seat (seat 0 hosts; with ``bot``, it plays seat 2 too) and the host's relay."""

    def __init__(self, bot: bool = False, players: int = 3, label: str = "bridge") -> None:
        self.rules = RULES if players == 3 else {**RULES, "players": players}
        self.seats = (
            [[0, 2], *([s] for s in range(1, players) if s != 2)]
            if bot
            else [[s] for s in range(players)]
        )
        self.peers: list[Any] = []
        self.log: list[dict[str, Any]] = []
        self.refused: list[str] = []
        self.gone: set[int] = set()
        """Pages that have left: nothing more reaches them."""
        first: list[tuple[int, dict[str, Any]]] = []
        for page, seats in enumerate(self.seats):
            master = hashlib.sha256(f"{label}/{page}".encode()).hexdigest()
            state = call("net_private_new", self.rules, seats, master, [2] if bot else [])
            self.peers.append(net_bridge._peer)
            first += [(page, m) for m in state["out"]]
        self.states: list[dict[str, Any]] = [{} for _ in self.seats]
        self.queue: list[tuple[int, dict[str, Any]]] = []
        for page, msg in first:
            self.send(page, msg)

    def on(self, page: int, name: str, *args: Any) -> Any:
        net_bridge._peer = self.peers[page]
        return call(name, *args)

    def send(self, page: int, msg: dict[str, Any]) -> None:
        """A page's message to the host: checked there (a guest's), then relayed to all.

        Every page receives one message before the next is relayed: the host's order.
        """
        self.queue.append((page, msg))
        if len(self.queue) > 1:
            return
        while self.queue:
            page, msg = self.queue[0]
            self._relay(page, msg)
            self.queue.pop(0)

    def _relay(self, page: int, msg: dict[str, Any]) -> None:
        if page != 0:
            net_bridge._peer = self.peers[0]
            reply = reply_of("net_private_check", msg)
            if "error" in reply:
                self.refused.append(reply["error"]["type"])
                return
        self.log.append(msg)
        for p in range(len(self.peers)):
            if p in self.gone:
                continue
            self.states[p] = state = self.on(p, "net_private_receive", msg)
            self.queue += [(p, out) for out in state["out"]]

    def page_of(self, seat: int) -> int:
        return next(p for p, seats in enumerate(self.seats) if seat in seats)

    def turn(self) -> int | None:
        """The seat whose own page says it moves (the host may not see a claim for four
        nines that only the claimant's page sees)."""
        for page, seats in enumerate(self.seats):
            if page not in self.gone and self.states[page]["turn"] in seats:
                return int(self.states[page]["turn"])
        return None

    def play_moves(self, rng: random.Random, moves: int) -> None:
        """``moves`` random legal moves, whoever is to move."""
        for _ in range(moves):
            seat = self.turn()
            assert seat is not None
            page = self.page_of(seat)
            legal = self.states[page]["views"][seat]["legal"]
            self.send(page, self.on(page, "net_private_act", seat, rng.choice(legal)))

    def play_deal(self, rng: random.Random) -> None:
        deal = self.states[0]["deal"]
        while self.states[0]["deal"] == deal and (seat := self.turn()) is not None:
            page = self.page_of(seat)
            if page == 0 and seat != 0:
                action = self.on(0, "net_private_bot", seat, "easy")
            else:
                legal = self.states[page]["views"][seat]["legal"]
                action = rng.choice([a for a in legal if a != "redeal"] or legal)
            self.send(page, self.on(page, "net_private_act", seat, action))


def test_three_pages_play_two_deals_and_agree() -> None:
    pages = Pages()
    rng = random.Random(3)
    pages.play_deal(rng)
    pages.play_deal(rng)
    assert all(s["deal"] == 2 for s in pages.states), [s["deal"] for s in pages.states]
    assert all(s["verdicts"] == {"0": [], "1": []} for s in pages.states)
    # Every page's view agrees on the public score.
    assert len({json.dumps(s["views"][p]["scores"]) for p, s in enumerate(pages.states)}) == 1
    assert pages.refused == []


def test_four_pages_play_two_deals_with_the_dealer_sitting_out_and_agree() -> None:
    pages = Pages(players=4)
    rng = random.Random(4)
    for deal in range(2):
        # The dealer sits the deal out: it is dealt no cards.
        dealer = pages.states[0]["views"][0]["dealer"]
        assert pages.states[pages.page_of(dealer)]["views"][dealer]["hand"] == []
        pages.play_deal(rng)
        assert pages.states[0]["deal"] == deal + 1
    assert all(s["verdicts"] == {"0": [], "1": []} for s in pages.states)
    assert len({json.dumps(s["views"][p]["scores"]) for p, s in enumerate(pages.states)}) == 1
    assert pages.refused == []


def test_a_computer_seat_is_played_by_the_host_page() -> None:
    pages = Pages(bot=True)
    pages.play_deal(random.Random(5))
    assert pages.states[1]["verdicts"] == {"0": []}
    assert pages.states[0]["views"][2] is not None and pages.states[1]["views"][2] is None


def test_a_reloaded_page_rebuilds_its_peer_from_the_public_messages() -> None:
    pages = Pages()
    rng = random.Random(6)
    pages.play_moves(rng, 6)
    master = pages.peers[1].master
    before = pages.states[1]
    again = call("net_private_replay", RULES, [1], master, pages.log)
    assert again["views"] == before["views"] and again["out"] == []
    pages.peers[1] = net_bridge._peer
    pages.play_deal(rng)
    assert pages.states[1]["verdicts"] == {"0": []}


def test_a_reloaded_guest_catching_up_skips_the_answers_it_sent_and_plays_on() -> None:
    pages = Pages()
    rng = random.Random(8)
    pages.play_moves(rng, 6)
    before = pages.states[1]
    call("net_private_new", RULES, [1], pages.peers[1].master)
    # Its shuffle and unlocks are in the log: not one is worked out again…
    skipped = [call("net_private_receive", m, True)["out"] for m in pages.log[:-1]]
    assert skipped == [[]] * (len(pages.log) - 1)
    # …and the page is where it was, owing what it owed.
    again = call("net_private_receive", pages.log[-1], False)
    assert again["views"] == before["views"] and again["out"] == before["out"]
    pages.peers[1] = net_bridge._peer
    pages.play_deal(rng)
    assert pages.states[1]["verdicts"] == {"0": []}


def test_a_table_saved_in_the_former_group_is_refused_clearly() -> None:
    pages = Pages()
    master = pages.peers[1].master
    peer = net_bridge._peer
    former = [dict(m) for m in pages.log]
    for m in former:
        if m["t"] == "shuffle":
            m["deck"] = [format(12345 + i, "0512x") for i in range(24)]
    reply = reply_of("net_private_replay", RULES, [1], master, former)
    assert reply["error"]["type"] == "FormerDeal"
    assert "earlier version" in reply["error"]["message"]
    assert net_bridge._peer is peer  # the page's peer is left as it was


def test_the_host_refuses_what_it_can_see_is_wrong_and_relays_nothing() -> None:
    pages = Pages()
    turn = pages.states[0]["turn"]
    other = next(p for p in (1, 2) if p != turn)
    logged = len(pages.log)
    deal = pages.states[0]["deal"]
    act = {"t": "act", "deal": deal, "seat": other, "action": "pass", "position": None, "y": None}
    pages.send(other, act)  # not its turn
    pages.send(other, {**act, "deal": deal + 1})  # another deal
    pages.send(other, {"t": "unlock", "deal": deal, "seat": other, "stage": "deal", "values": {}})
    pages.send(other, {"t": "reveal", "deal": deal, "seat": other, "secret": "x"})
    assert len(pages.log) == logged
    assert pages.refused == ["NotYourTurn", "Stale", "Refused", "Refused"]
    with pytest.raises(RuntimeError, match="NotYourTurn"):
        pages.on(other, "net_private_act", other, "pass")


def test_a_guest_with_four_nines_after_the_pass_claims_before_the_host_names_a_contract() -> None:
    # These keys deal seat 1 three nines and leave the fourth in the talon.
    pages = Pages(label="claim/28")
    assert sum(c[0] == "9" for c in pages.states[1]["views"][1]["hand"]) == 3
    while (phase := pages.states[0]["phase"]) in ("bidding", "talon"):
        seat = pages.turn()
        assert seat is not None
        legal = pages.states[seat]["views"][seat]["legal"]
        if phase == "bidding":  # the host wins the bidding
            action = next(a for a in legal if a.startswith("bid")) if seat == 0 else "pass"
        else:  # and passes the nine to seat 1
            nine = [a for a in legal if a.startswith("give 9") and a.endswith(" 1")]
            action = (nine or [a for a in legal if a.startswith("give") and a.endswith(" 2")])[0]
        pages.send(pages.page_of(seat), pages.on(seat, "net_private_act", seat, action))
    # Only seat 1's page sees the claim; the host waits, and may not name a contract.
    assert [s["turn"] for s in pages.states] == [None, 1, None]
    assert pages.states[1]["views"][1]["legal"] == ["redeal", "decline"]
    with pytest.raises(RuntimeError, match="NotYourTurn"):
        pages.on(0, "net_private_act", 0, "contract 120")
    deal = pages.states[0]["deal"]
    pages.send(1, pages.on(1, "net_private_act", 1, "decline"))
    # The host let the claim through; seat 1's page then said it was ready.
    assert pages.refused == [] and pages.log[-1] == {"t": "ready", "deal": deal, "seat": 1}
    assert [s["turn"] for s in pages.states] == [0, 0, 0]
    pages.send(1, {"t": "ready", "deal": deal, "seat": 1})  # said twice: stale
    assert pages.refused == ["Stale"]
    pages.play_deal(random.Random(9))
    assert all(s["verdicts"] == {"0": []} for s in pages.states), [
        s["verdicts"] for s in pages.states
    ]


def test_no_game_yet_and_two_players_are_clear_errors() -> None:
    net_bridge._peer = None
    with pytest.raises(RuntimeError, match="NoGame"):
        call("net_private_state")
    two = Rules.preset("classic").replace(players=2).to_dict()
    with pytest.raises(RuntimeError, match="three or four"):
        call("net_private_new", two, [0], "a" * 64)
