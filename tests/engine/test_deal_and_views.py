"""Classic rules: the deal, the turn order, and what each seat's view shows.

Seat numbering in every deal: seat 0 deals, seat 1 is first hand (sits on
100), seat 2 speaks first in the bidding — unless a test says otherwise.
"""

from __future__ import annotations

import json
import re

import pytest
from hands import HAND_A, HAND_B, HAND_D
from helpers import (
    REQUIRED_KEYS,
    act,
    legal,
    scripted_game,
    snapshot,
)
from thousand import Game, Rules

# --- the deal, turn order, views ------------------------------------------------


def test_deal_dealer_first_hand_and_turn_order() -> None:
    game = scripted_game(HAND_B)
    d = HAND_B.deal()
    v = game.view(None)
    assert v["phase"] == "bidding"
    assert list(v["bids"][0]) == [1, 100]  # first hand = dealer + 1 sits on 100
    assert game.current_player == 2 and v["turn"] == 2
    for seat in range(3):
        assert sorted(game.view(seat)["hand"]) == sorted(d["hands"][seat])
    assert game.scores == [0, 0, 0]
    assert game.winner is None


def test_view_has_the_documented_keys_and_is_json() -> None:
    game = scripted_game(HAND_B)
    for seat in (0, 1, 2, None):
        v = game.view(seat)
        json.dumps(v)
        assert not REQUIRED_KEYS - set(v), f"view({seat}) lacks {REQUIRED_KEYS - set(v)}"
        assert v["talon"] is None  # nobody sees the talon during the bidding
        assert v["trump"] is None
        assert v["trick"] == []
        assert v["scores"] == [0, 0, 0]
        assert v["legal"] == (legal(game) if seat == 2 else [])
    assert game.view(None)["rules"] == Rules.preset("classic").to_dict()


def test_spectator_and_opponents_never_see_a_hand() -> None:
    game = scripted_game(HAND_B)
    d = HAND_B.deal()
    for seat in (0, 1, 2, None):
        text = json.dumps(game.view(seat))
        for other in range(3):
            if other == seat:
                continue
            for c in d["hands"][other]:
                assert f'"{c}"' not in text, f"view({seat}) shows {c} of seat {other}"
        for c in d["talon"]:
            assert f'"{c}"' not in text, f"view({seat}) shows talon card {c}"


def test_legal_actions_round_trip_through_text() -> None:
    game = scripted_game(HAND_B)
    for a in game.legal_actions():
        clone1 = Game.from_json(game.to_json())
        clone2 = Game.from_json(game.to_json())
        clone1.apply(a)
        clone2.apply(str(a))
        assert clone1.to_json() == clone2.to_json()


def test_log_rebuilds_the_game() -> None:
    game = scripted_game(HAND_A)
    HAND_A.play_until(game, 2, "play KD declare")
    rebuilt = scripted_game(HAND_A)
    for a in game.log:
        rebuilt.apply(str(a))
    assert json.loads(rebuilt.to_json()) == json.loads(game.to_json())
    assert [str(a) for a in rebuilt.log] == [str(a) for a in game.log]


def test_json_round_trip_mid_hand() -> None:
    game = scripted_game(HAND_A)
    HAND_A.play_until(game, 0, "play AH")  # mid-trick, after a second marriage
    copy = Game.from_json(game.to_json())
    assert copy.to_json() == game.to_json()  # exactly, not just equivalent
    assert snapshot(copy) == snapshot(game)
    # the copy behaves the same for the rest of the hand
    rest = HAND_A.actions()[len(game.log) :]
    for seat, a in rest:
        act(game, seat, a)
        act(copy, seat, a)
        assert snapshot(copy) == snapshot(game)
    assert copy.scores == game.scores == [0, 100, 160]


def test_seed_deals_reproducibly() -> None:
    a, b = Game.new(seed=11), Game.new(seed=11)
    assert [a.view(s) for s in range(3)] == [b.view(s) for s in range(3)]
    hands = {tuple(sorted(Game.new(seed=s).view(0)["hand"])) for s in range(8)}
    assert len(hands) > 1, "different seeds should deal different hands"


def test_explicit_deal_then_seed() -> None:
    # After the explicit deal is used up, later hands come from the seed:
    # the next dealer is seat 1 and every hand is a fresh 7 cards.
    game = scripted_game(HAND_B)
    HAND_B.play(game)
    v = game.view(None)
    assert v["phase"] == "bidding"
    assert list(v["bids"][0]) == [2, 100]
    assert game.current_player == 0
    seen = [set(game.view(s)["hand"]) for s in range(3)]
    assert all(len(h) == 7 for h in seen)
    assert len(seen[0] | seen[1] | seen[2]) == 21


def test_bad_deals_are_rejected() -> None:
    good = HAND_B.deal()
    dup = json.loads(json.dumps(good))
    dup["hands"][0][0] = dup["hands"][1][0]
    short = json.loads(json.dumps(good))
    short["hands"][2] = short["hands"][2][:6]
    junk = json.loads(json.dumps(good))
    junk["talon"][0] = "XX"
    for bad in (dup, short, junk):
        with pytest.raises(ValueError):
            Game.new(deal=bad)


def test_start_scores() -> None:
    game = Game.new(seed=3, scores=[100, -40, 300])
    assert game.scores == [100, -40, 300]
    assert game.view(None)["scores"] == [100, -40, 300]


def test_hidden_talon_card_stays_hidden_until_played() -> None:
    # Hand D: the talon QH JC JD is won at the hidden 100; JC and JD are
    # passed on, QH stays with seat 1 until it leads it in trick 5.
    game = scripted_game(HAND_D)
    qh = re.compile(r"\bQH\b")
    for seat, a in HAND_D.actions():
        if (seat, a) == (1, "play QH"):
            break
        for viewer in (0, 2, None):
            assert not qh.search(json.dumps(game.view(viewer))), (viewer, a)
        act(game, seat, a)
    act(game, 1, "play QH")
    for viewer in (0, 2, None):
        assert [str(x) for x in game.view(viewer)["trick"][0]] == ["1", "QH"]
