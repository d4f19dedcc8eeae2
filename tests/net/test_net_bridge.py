"""The multiplayer bridge (web/net_bridge.py) in CPython: the host's game and the fair-deal audit.

The browser runs the same module in Pyodide; here it is imported straight
from web/ so its hashing, its checks and the audit's verdicts can be tested
quickly against the engine, honest and tampered.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "web"))

import engine_bridge
import net_bridge
from thousand import Game, Rules
from thousand.actions import IllegalAction

HOST = "a" * 64
NONCE = "b" * 64
GUESTS = [None, "1" * 64, "2" * 64]


def seed_of(k: int) -> str:
    return net_bridge.net_deal_seed(f"{k:064x}", GUESTS)


def call(name: str, *args: Any) -> Any:
    """Through the bridge's own dispatcher, as the worker calls it."""
    reply = json.loads(engine_bridge.call(name, json.dumps(list(args))))
    if "error" in reply:
        raise RuntimeError(f"{reply['error']['type']}: {reply['error']['message']}")
    return reply["ok"]


class Recorder:
    """A host playing random legal actions with fair seeds, and what one guest saw."""

    def __init__(self, seat: int = 1, seed: int = 7) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        state = call("net_host_new", Rules.preset("classic").to_dict(), seed_of(0))
        self.seeds = {0: seed_of(0)}
        self.observations: dict[int, list[dict[str, Any]]] = {}
        self.record(state)

    def record(self, state: dict[str, Any]) -> None:
        self.observations.setdefault(state["deal"], []).append(
            {"step": state["step"], "view": state["views"][self.seat]}
        )

    def play_deal(self) -> int:
        """Play until the deal on the table is over; returns its number."""
        state = call("net_host_state")
        k = state["deal"]
        while state["deal"] == k and state["turn"] is not None:
            nxt = state["next_deal"]
            if nxt not in self.seeds:
                self.seeds[nxt] = seed_of(nxt)
                call("net_host_set_seed", nxt, self.seeds[nxt])
            view = state["views"][state["turn"]]
            state = call("net_host_apply", state["turn"], self.rng.choice(view["legal"]))
            self.record(state)
        return k

    def reveal(self, k: int, **changes: Any) -> dict[str, Any]:
        req = {
            "rules": Rules.preset("classic").to_dict(),
            "seat": self.seat,
            "deal": k,
            "host_seed": f"{k:064x}",
            "nonce": NONCE,
            "guest_seeds": GUESTS,
            "seeds": {str(j): s for j, s in self.seeds.items() if j < k},
            "log": json.loads(call("net_host_save"))["log"],
            "commit": net_bridge.net_commit(f"{k:064x}", NONCE),
            "my_seed": GUESTS[self.seat],
            "observations": self.observations[k],
        }
        req.update(changes)
        return call("net_audit", req)


def test_hashes_are_fixed_and_refuse_bad_seeds() -> None:
    assert net_bridge.net_commit(HOST, NONCE) == net_bridge.net_commit(HOST, NONCE)
    assert net_bridge.net_commit(HOST, NONCE) != net_bridge.net_commit(NONCE, HOST)
    assert net_bridge.net_deal_seed(HOST, GUESTS) != net_bridge.net_deal_seed(
        HOST, [None, None, None]
    )
    for bad in ("", "A" * 64, "a" * 63, 5, None):
        with pytest.raises(ValueError):
            net_bridge.net_commit(bad, NONCE)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        net_bridge.net_deal_seed(HOST, ["zz"])


def test_host_game_refuses_other_seats_and_illegal_actions() -> None:
    state = call("net_host_new", Rules.preset("classic").to_dict(), seed_of(0))
    turn = state["turn"]
    other = (turn + 1) % 3
    before = call("net_host_save")
    with pytest.raises(RuntimeError, match="NotYourTurn"):
        call("net_host_apply", other, state["views"][turn]["legal"][0])
    with pytest.raises(RuntimeError, match="IllegalAction"):
        call("net_host_apply", turn, "bid 5")
    with pytest.raises(RuntimeError, match="IllegalAction"):
        call("net_host_apply", turn, {"not": "text"})
    assert call("net_host_save") == before
    # Each seat's view shows its own hand only.
    game = Game.from_json(before)
    for s in range(3):
        assert state["views"][s]["hand"] == game.view(s)["hand"]


def test_would_deal_is_true_only_for_the_action_that_deals() -> None:
    rec = Recorder()
    state = call("net_host_state")
    assert not call("net_host_would_deal", state["turn"], state["views"][state["turn"]]["legal"][0])
    # Play to the last card of the deal and ask before playing it.
    while True:
        state = call("net_host_state")
        legal = state["views"][state["turn"]]["legal"]
        if state["phase"] == "play" and sum(state["views"][0]["hand_sizes"]) == 1:
            assert call("net_host_would_deal", state["turn"], legal[0])
            assert not call("net_host_would_deal", (state["turn"] + 1) % 3, legal[0])
            break
        if state["next_deal"] not in rec.seeds:
            rec.seeds[state["next_deal"]] = seed_of(state["next_deal"])
            call("net_host_set_seed", state["next_deal"], rec.seeds[state["next_deal"]])
        call("net_host_apply", state["turn"], rec.rng.choice(legal))


def test_no_view_shows_a_card_its_seat_may_not_see() -> None:
    """A view's last action hides a card passed face down (a hidden talon's too).

    Everyone passes when they may, so most deals stay at 100 with the talon
    unseen, and the declarer's two cards must pass face down.
    """
    card = re.compile(r"\b[9TJQKA][SCDH]\b")
    for seed in range(6):
        rng = random.Random(seed)
        state = call("net_host_new", Rules.preset("classic").to_dict(), seed_of(0))
        engine = Game.new(rules=Rules.preset("classic"), seed=seed_of(0))
        # What each seat has seen so far (a trick's cards stay known after the deal).
        seen = [set(card.findall(json.dumps(engine.view(seat)))) for seat in range(3)]
        while state["deal"] < 3 and state["turn"] is not None:
            if not state["seeded"]:
                call("net_host_set_seed", state["next_deal"], seed_of(state["next_deal"]))
                engine.set_deal_seed(state["next_deal"], seed_of(state["next_deal"]))
            legal = state["views"][state["turn"]]["legal"]
            action = "pass" if "pass" in legal else rng.choice(legal)
            state = call("net_host_apply", state["turn"], action)
            engine.apply(action)
            for seat in range(3):
                seen[seat] |= set(card.findall(json.dumps(engine.view(seat))))
                if action.startswith("play "):  # a played card is public, even the deal's last
                    seen[seat].add(action.split()[1])
                sent = set(card.findall(json.dumps(state["views"][seat])))
                assert sent <= seen[seat], (seed, action, seat, sent - seen[seat])


def test_honest_deals_pass_the_audit() -> None:
    rec = Recorder()
    for _ in range(4):
        k = rec.play_deal()
        verdict = rec.reveal(k)
        assert verdict["ok"], verdict
        assert verdict["checked"] == len(rec.observations[k]) > 0


def test_a_host_that_chose_the_cards_is_caught() -> None:
    rec = Recorder()
    # Deal 1 is shuffled from a seed of the host's choosing, not the fair one.
    rec.seeds[1] = net_bridge.net_deal_seed("c" * 64, [None, None, None])
    call("net_host_set_seed", 1, rec.seeds[1])
    rec.play_deal()
    k = rec.play_deal()
    assert k == 1
    rec.seeds[1] = seed_of(1)  # the host reveals as if it had been honest
    verdict = rec.reveal(1)
    assert not verdict["ok"]
    assert any("hand" in p or "dealer" in p or "talon" in p for p in verdict["problems"]), verdict


def test_audit_catches_a_broken_commitment_a_dropped_seed_and_a_forged_view() -> None:
    rec = Recorder()
    k = rec.play_deal()
    assert rec.reveal(k)["ok"]
    bad_commit = rec.reveal(k, commit=net_bridge.net_commit("d" * 64, NONCE))
    assert any("commitment" in p for p in bad_commit["problems"])
    dropped = rec.reveal(k, my_seed="9" * 64)
    assert any("your own random seed" in p for p in dropped["problems"])
    forged = json.loads(json.dumps(rec.observations[k]))
    forged[0]["view"]["scores"] = [999, 0, 0]
    verdict = rec.reveal(k, observations=forged)
    assert any("scores" in p for p in verdict["problems"]), verdict
    short = rec.reveal(k, log=json.loads(call("net_host_save"))["log"][:3])
    assert not short["ok"]
    malformed = rec.reveal(k, host_seed="nope")
    assert not malformed["ok"] and "malformed" in malformed["problems"][0]


def test_bot_moves_are_legal_and_reproducible() -> None:
    Recorder()
    state = call("net_host_state")
    a = call("net_host_bot", state["turn"], "easy")
    assert a == call("net_host_bot", state["turn"], "easy")
    assert a in state["views"][state["turn"]]["legal"]
    with pytest.raises(RuntimeError, match="NotYourTurn"):
        call("net_host_bot", (state["turn"] + 1) % 3, "easy")


def test_no_game_yet_is_a_clear_error() -> None:
    net_bridge._host = None
    with pytest.raises(RuntimeError, match="NoGame"):
        call("net_host_state")
    with pytest.raises(IllegalAction):
        Game.new().apply("bid 5")


def error_of(name: str, *args: Any) -> dict[str, Any]:
    reply = json.loads(engine_bridge.call(name, json.dumps(list(args))))
    assert "error" in reply, reply
    error: dict[str, Any] = reply["error"]
    return error


def test_refusals_cross_the_bridge_with_their_code() -> None:
    call("new", {"seed": 4})
    view = call("view", None)
    turn, other = view["turn"], (view["turn"] + 1) % 3
    save = call("save")
    error = error_of("act", other, "pass")
    assert (error["type"], error["code"]) == ("IllegalAction", "not_your_turn")
    assert error_of("act", turn, "bid 7")["code"] == "bid_too_low"
    assert error_of("act", turn, "bid x")["code"] == "malformed"
    assert error_of("act", turn, "play AS")["code"] == "wrong_phase"
    assert "code" not in error_of("hand_replay", 5)
    assert call("why", turn, "pass") is None
    assert call("why", other, "pass")["code"] == "not_your_turn"
    why = call("why", turn, "bid 7")
    assert why["code"] == "bid_too_low" and why["message"] and why["low"] == 105
    assert call("save") == save


def test_the_bridge_tells_which_suit_a_card_must_follow() -> None:
    call("new", {"seed": 4})
    rng = random.Random(4)
    while True:
        view = call("view", call("view", None)["turn"])
        if view["phase"] == "play" and view["trick"]:
            refused = [c for c in view["hand"] if f"play {c}" not in view["legal"]]
            if refused:
                break
        call("act", view["seat"], rng.choice(view["legal"]))
    seat, card = view["seat"], refused[0]
    why = call("why", seat, f"play {card}")
    assert why["code"] in {"must_follow", "must_trump"}
    assert why["suit"] in "SCDH"
    error = error_of("act", seat, f"play {card}")
    assert {k: error[k] for k in why} == why


def test_the_host_refuses_another_seat_with_not_your_turn() -> None:
    state = call("net_host_new", Rules.preset("classic").to_dict(), seed_of(0))
    other = (state["turn"] + 1) % 3
    error = error_of("net_host_apply", other, "pass")
    assert (error["type"], error["code"]) == ("NotYourTurn", "not_your_turn")
    assert error_of("net_host_apply", state["turn"], {"not": "text"})["code"] == "malformed"
