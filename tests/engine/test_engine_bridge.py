"""The page's bridge (web/engine_bridge.py) in CPython: hints, undo and the
figures the statistics read.

The browser runs the same module in Pyodide; here it is imported straight
from web/ and called through its own dispatcher, as the worker calls it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "web"))

import engine_bridge
from thousand import Game
from thousand.bots import choose

BOT_SEED = 77


def call(name: str, *args: Any) -> Any:
    reply = json.loads(engine_bridge.call(name, json.dumps(list(args))))
    if "error" in reply:
        raise RuntimeError(f"{reply['error']['type']}: {reply['error']['message']}")
    return reply["ok"]


def log() -> list[str]:
    return json.loads(call("save"))["log"]


def bots_answer() -> None:
    """The computer seats (1 and 2) move until seat 0 is to act or the hand is over."""
    game = engine_bridge._current()
    hands = len(game.sheet)
    while game.current_player not in (0, None) and len(game.sheet) == hands:
        call("bot_act", game.current_player, "random", BOT_SEED + game.current_player, 0)


def until_seat0_plays() -> dict[str, Any]:
    """From a fresh deal, seat 0 takes the first legal action each time until it may play a card."""
    call("new", {"seed": 21})
    for _ in range(200):
        bots_answer()
        v = call("view", 0)
        if v["phase"] == "play" and v["turn"] == 0:
            return v
        call("act", 0, v["legal"][-1] if v["phase"] == "bidding" else v["legal"][0], 0)
    raise AssertionError("seat 0 never got to play")


def test_hint_is_the_strong_bots_choice_from_the_seats_view_only(monkeypatch) -> None:
    call("new", {"seed": 4})
    game = engine_bridge._current()
    seat = game.current_player
    seen: list[dict[str, Any]] = []

    def spy(view: dict[str, Any], level: str, seed: int) -> str:
        seen.append(view)
        return choose(view, level, seed)

    monkeypatch.setattr("thousand.bots.choose", spy)
    before = call("save")
    answer = call("hint", seat, 5)
    assert answer["action"] in game.view(seat)["legal"]
    assert seen == [game.view(seat)]  # the seat's own view, nothing more
    assert call("save") == before  # a hint applies nothing
    with pytest.raises(RuntimeError, match="IllegalAction"):
        call("hint", (seat + 1) % 3, 5)


def test_undo_a_card_restores_the_position_and_the_same_answers_follow() -> None:
    before = until_seat0_plays()
    n = len(log())
    card = next(a for a in before["legal"] if a.startswith("play "))
    call("act", 0, card, 0)
    bots_answer()
    answers = log()[n:]
    result = call("undo", 0, 0)
    assert result["undone"] == len(answers)
    assert len(log()) == n
    after = result["view"]
    for key in ("hand", "trick", "legal", "hand_no", "bids", "contract", "scores"):
        assert after[key] == before[key], key
    # The same card again: the computer answers exactly as before.
    call("act", 0, card, 0)
    bots_answer()
    assert log()[n:] == answers


def test_undo_a_bid_restores_the_bidding_and_keeps_the_deal() -> None:
    call("new", {"seed": 21})
    bots_answer()
    before = call("view", 0)
    assert before["phase"] == "bidding"
    bid = next(a for a in before["legal"] if a.startswith("bid "))
    call("act", 0, bid, 0)
    bots_answer()
    assert call("view", 0)["bids"] != before["bids"]
    after = call("undo", 0, 0)["view"]
    assert after["phase"] == "bidding" and after["turn"] == 0
    assert after["bids"] == before["bids"] and after["hand"] == before["hand"]


def test_nothing_to_undo_is_refused_and_changes_nothing() -> None:
    call("new", {"seed": 9})
    bots_answer()
    saved = call("save")
    with pytest.raises(RuntimeError, match="IllegalAction"):
        call("undo", 0, 0)
    assert call("save") == saved


def test_match_summary_reads_the_sheet_and_the_log() -> None:
    call("new", {"seed": 5, "scores": [900, 600, 600]})
    game = engine_bridge._current()
    k = 0
    while game.phase != "over":
        game.apply(choose(game.view(game.current_player), "normal", k))
        k += 1
    s = call("match_summary", 0)
    rows = [r for r in game.sheet if r["result"] != "redeal"]
    assert s["over"] and s["hands"] == len(rows) and s["scores"] == game.scores
    assert s["won"] == (game.winner == 0) and s["score"] == game.scores[0]
    assert s["points"] == sum(r["deltas"][0] for r in rows)
    assert s["contracts"] == sum(r["declarer"] == 0 for r in rows)
    assert s["made"] == sum(r["declarer"] == 0 and r["result"] == "made" for r in rows)
    # Marriages: every "declare" of seat 0 in the log, replayed move by move.
    replay = Game.new(seed=5, scores=[900, 600, 600])
    declared = 0
    for action in json.loads(game.to_json())["log"]:
        declared += replay.current_player == 0 and action.endswith("declare")
        replay.apply(action)
    assert s["marriages"] == declared


def test_hint_for_a_view_passed_in_is_a_legal_action_and_a_malformed_view_is_refused() -> None:
    call("new", {"seed": 9})
    game = Game.new(seed=12)
    for _ in range(40):  # into the play, so the hint is a card as well as a bid
        seat_view = game.view(game.current_player)
        answer = call("hint_for_view", seat_view, 3)
        assert answer["action"] in seat_view["legal"]
        game.apply(answer["action"])
    assert call("view", 0) == engine_bridge._current().view(0)  # the page's own game is untouched

    good = game.view(game.current_player)
    broken = [
        None,
        [good],
        {**good, "seat": 7},
        {**good, "players": "three"},
        {**good, "hand": "AS KS"},
        {**good, "hand": ["XX"]},
        {**good, "hand": [good["hand"][0], good["hand"][0]]},
        {**good, "legal": ["fly away"]},
        {**good, "rules": {"no_such_rule": 1}},
    ]
    for view in broken:
        with pytest.raises(RuntimeError, match="ValueError: malformed view"):
            call("hint_for_view", view, 3)
    other = game.view((game.current_player + 1) % game.players)
    with pytest.raises(RuntimeError, match=r"IllegalAction: .*not seat"):
        call("hint_for_view", other, 3)
