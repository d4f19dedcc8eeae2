"""A person's seat given to a computer (web/private_table.py ``replace``), through the bridge.

Three pages play (seat 0 hosts); mid-hand the page of seat 2 is gone for
good, and the host gives its seat to a computer. Every page left applies the
host's ``replace`` at the same place of the public messages: the deal on the
table is void and dealt again by the same dealer, the host's page plays
seat 2 from then on, and the hand dealt again is audited at its end like
any other. A page that reloads reaches the same state from the public
messages, and a ``replace`` that is wrong changes nothing anywhere.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "web"))

import net_bridge
from test_net_bridge import RULES, Pages, call, reply_of

GONE = 2


class LeavingPages(Pages):
    """The pages of :class:`Pages`, of which some may have left (they receive nothing more)."""

    def __init__(self) -> None:
        self.mute: int | None = None  # a page whose keys are not sent
        super().__init__()

    def _relay(self, page: int, msg: dict[str, Any]) -> None:
        if page in self.gone or (page == self.mute and msg["t"] == "reveal"):
            return
        super()._relay(page, msg)

    def moves(self, rng: random.Random, count: int) -> None:
        for _ in range(count):
            seat = self.states[0]["turn"]
            page = self.page_of(seat)
            legal = self.states[page]["views"][seat]["legal"]
            action = rng.choice([a for a in legal if a != "redeal"] or legal)
            self.send(page, self.on(page, "net_private_act", seat, action))

    def replace(self, seat: int, level: str = "easy") -> None:
        """``seat``'s page has left: the host publishes the replace, its page plays the seat."""
        self.gone.add(self.page_of(seat))
        self.seats[0].append(seat)
        self.send(0, {"t": "replace", "deal": self.states[0]["deal"], "seat": seat, "level": level})


def mid_hand(seed: int, moves: int = 5) -> tuple[LeavingPages, random.Random]:
    pages = LeavingPages()
    rng = random.Random(seed)
    pages.moves(rng, moves)
    return pages, rng


def test_a_seat_replaced_mid_hand_is_dealt_again_and_checked_at_the_end() -> None:
    pages, rng = mid_hand(11)
    before = pages.states[0]
    hand_no, dealer = before["hand_no"], before["views"][0]["dealer"]
    pages.replace(GONE)
    host, guest = pages.states[0], pages.states[1]
    assert host["deal"] == guest["deal"] == 1
    assert host["seats"] == [0, 2] and guest["seats"] == [1]
    assert host["replaced"] == guest["replaced"] == {"2": "easy"}
    # Dealt again from the start: same hand, same dealer, the bidding from its first bid.
    view = host["views"][2]
    assert view["hand_no"] == hand_no and view["dealer"] == dealer
    assert len(view["hand"]) == 7 and host["phase"] == "bidding"
    assert guest["views"][1]["sheet"] == [] and len(guest["views"][1]["hand"]) == 7
    pages.play_deal(rng)
    host, guest = pages.states[0], pages.states[1]
    # The void deal has no verdict; the one dealt again was audited and found fair.
    assert host["verdicts"] == guest["verdicts"] == {"1": []}
    assert host["deal"] == guest["deal"] == 2
    # Only the hand dealt again is scored.
    rows = guest["views"][1]["sheet"]
    assert len(rows) == 1 and rows == host["views"][0]["sheet"]
    assert pages.refused == []


def test_keys_after_the_replace_are_fresh_and_the_host_derives_the_seat_from_its_master() -> None:
    pages, _ = mid_hand(12)
    old_shuffles = [m["deck"] for m in pages.log if m["t"] == "shuffle"]
    pages.replace(GONE)
    new = [m for m in pages.log if m["t"] == "shuffle" and m["deal"] == 1]
    assert [m["seat"] for m in new] == [0, 1, 2]
    assert not {json.dumps(m["deck"]) for m in new} & {json.dumps(d) for d in old_shuffles}
    host = pages.peers[0]
    assert host.ledger.secrets[2].secret == host.secret(2, 1).secret


def test_a_replace_while_the_keys_are_revealed_voids_the_finished_hand() -> None:
    pages, rng = mid_hand(13, moves=0)
    pages.play_deal(rng)
    assert pages.states[1]["verdicts"] == {"0": []}
    # Seat 2's page goes as the second hand ends: its keys never come.
    pages.mute = GONE
    pages.play_deal(rng)
    assert pages.states[0]["revealing"] and pages.states[0]["revealed"] == [0, 1]
    pages.replace(GONE)
    host, guest = pages.states[0], pages.states[1]
    assert host["deal"] == guest["deal"] == 2 and not guest["revealing"]
    assert len(guest["views"][1]["sheet"]) == 1  # the finished hand is void: only the first counts
    pages.play_deal(rng)
    assert pages.states[1]["verdicts"] == {"0": [], "2": []}
    assert len(pages.states[1]["views"][1]["sheet"]) == 2


@pytest.mark.parametrize("reload", ["host", "guest"])
def test_a_reloaded_page_replays_the_replace_to_the_same_state(reload: str) -> None:
    pages, rng = mid_hand(15)
    pages.replace(GONE)
    pages.moves(rng, 4)
    page, seats = (0, [0]) if reload == "host" else (1, [1])  # the seats it started with
    master = pages.peers[page].master
    before = pages.states[page]
    again = call("net_private_replay", RULES, seats, master, pages.log)
    assert again["views"] == before["views"] and again["out"] == []
    assert {k: again[k] for k in ("deal", "seats", "replaced", "turn", "phase", "verdicts")} == {
        k: before[k] for k in ("deal", "seats", "replaced", "turn", "phase", "verdicts")
    }
    pages.peers[page] = net_bridge._peer
    pages.play_deal(rng)
    assert pages.states[0]["verdicts"] == pages.states[1]["verdicts"] == {"1": []}


def test_the_replaced_player_page_follows_on_as_a_watcher() -> None:
    pages, _ = mid_hand(16)
    pages.send(0, {"t": "replace", "deal": 0, "seat": GONE, "level": "normal"})
    gone = pages.states[GONE]
    assert gone["seats"] == [] and gone["views"] == [None, None, None]
    assert gone["deal"] == 1 and gone["replaced"] == {"2": "normal"}


BAD = [
    ({"deal": 1}, "deal 0 is on the table"),
    ({"deal": True}, "deal 0 is on the table"),
    ({"deal": "0"}, "deal 0 is on the table"),
    ({"seat": 0}, "host's own seat"),
    ({"seat": 3}, "no seat 3"),
    ({"seat": -1}, "no seat -1"),
    ({"seat": True}, "no seat True"),
    ({"seat": None}, "no seat None"),
    ({"level": "godlike"}, "no computer player"),
    ({"level": None}, "no computer player"),
    ({"extra": 1}, "only"),
]


@pytest.mark.parametrize(("change", "why"), BAD)
def test_a_wrong_replace_is_refused_everywhere_and_changes_nothing(
    change: dict[str, Any], why: str
) -> None:
    pages, _ = mid_hand(17)
    msg = {"t": "replace", "deal": 0, "seat": GONE, "level": "easy", **change}
    for page in range(3):
        before = json.dumps(pages.on(page, "net_private_state"), sort_keys=True)
        reply = reply_of("net_private_receive", msg)
        assert reply["error"]["type"] == "Refused" and why in reply["error"]["message"]
        assert json.dumps(pages.on(page, "net_private_state"), sort_keys=True) == before


def test_a_seat_already_played_by_the_host_is_not_replaced() -> None:
    lobby = Pages(bot=True)  # seat 2 is a computer seat from the lobby
    msg = {"t": "replace", "deal": 0, "seat": 2, "level": "easy"}
    for page in (0, 1):  # the host's page, and the guest's, told of the lobby's computers
        before = json.dumps(lobby.on(page, "net_private_state"), sort_keys=True)
        error = reply_of("net_private_receive", msg)["error"]
        assert error["type"] == "Refused" and "computer already" in error["message"]
        assert json.dumps(lobby.on(page, "net_private_state"), sort_keys=True) == before
    pages, _ = mid_hand(18)
    pages.replace(GONE)
    for page in (0, 1):
        net_bridge._peer = pages.peers[page]
        reply = reply_of("net_private_receive", {**msg, "deal": 1})
        assert reply["error"]["type"] == "Refused"
        assert "computer already" in reply["error"]["message"]


def test_tables_saved_before_replacing_still_load() -> None:
    pages, _ = mid_hand(19)
    state = call("net_private_replay", RULES, [1], pages.peers[1].master, pages.log)
    assert state["replaced"] == {} and state["seats"] == [1]
    assert state["views"] == pages.states[1]["views"]
