"""Classic rules: the bidding (торговля), the talon (прикуп) and the contract.

Seat numbering in every deal: seat 0 deals, seat 1 is first hand (sits on
100), seat 2 speaks first in the bidding — unless a test says otherwise.
"""

from __future__ import annotations

import json

import pytest
from hands import CAPS_DEAL, HAND_B
from helpers import (
    act,
    assert_illegal,
    bids,
    contracts,
    hand,
    legal_set,
    new_game,
    new_game_or_skip,
    rules,
    run,
    scripted_game,
)

# --- bidding --------------------------------------------------------------------


def test_bid_cap_without_a_marriage_is_120() -> None:
    game = new_game(CAPS_DEAL)
    assert game.current_player == 2
    assert legal_set(game) == {"pass", "bid 105", "bid 110", "bid 115", "bid 120"}
    assert_illegal(game, "bid 125")


def test_bid_cap_with_marriages_and_max_bid() -> None:
    game = new_game(CAPS_DEAL)
    act(game, 2, "pass")
    assert bids(game) == set(range(105, 301, 5))  # 120 + 100 + 80 = 300 = max_bid
    assert_illegal(game, "bid 305")
    act(game, 0, "bid 150")  # a jump is allowed
    assert bids(game) == {155, 160}  # seat 1: 120 + 40
    assert_illegal(game, "bid 165")


def test_no_bid_possible_above_cap_leaves_only_pass() -> None:
    game = new_game(CAPS_DEAL)
    run(game, "2 pass; 0 bid 165")
    assert legal_set(game) == {"pass"}


def test_max_bid_option_caps_bids() -> None:
    game = new_game(CAPS_DEAL, rules_=rules(max_bid=200))
    act(game, 2, "pass")
    assert bids(game) == set(range(105, 201, 5))
    assert_illegal(game, "bid 205")


def test_bid_cap_none_option() -> None:
    game = new_game_or_skip(CAPS_DEAL, rules(bid_cap="none"), "bid_cap")
    assert bids(game) == set(range(105, 301, 5))


def test_bids_are_multiples_of_5_above_the_high_bid() -> None:
    game = new_game(CAPS_DEAL)
    act(game, 2, "bid 110")
    for bad in ("bid 110", "bid 105", "bid 100", "bid 113", "bid 0", "bid -5", "bid x"):
        assert_illegal(game, bad)
    assert min(bids(game)) == 115


def test_both_pass_first_hand_wins_at_100() -> None:
    game = new_game(CAPS_DEAL)
    run(game, "2 pass; 0 pass")
    v = game.view(1)
    assert v["phase"] == "talon"
    assert v["declarer"] == 1
    assert game.current_player == 1
    assert len(v["hand"]) == 10


def test_a_pass_is_final() -> None:
    game = new_game(CAPS_DEAL)
    run(game, "2 pass; 0 bid 105; 1 bid 110")
    assert game.current_player == 0  # seat 2 passed and is skipped
    act(game, 0, "bid 115")
    assert game.current_player == 1
    act(game, 1, "pass")
    v = game.view(None)
    assert v["phase"] == "talon" and v["declarer"] == 0
    assert game.current_player == 0


def test_first_hand_may_pass_after_a_raise() -> None:
    game = new_game(CAPS_DEAL)
    run(game, "2 bid 105; 0 pass; 1 pass")
    v = game.view(None)
    assert v["declarer"] == 2
    assert v["phase"] == "talon"


def test_no_jump_bids_option() -> None:
    game = new_game_or_skip(CAPS_DEAL, rules(no_jump_bids=True), "no_jump_bids")
    assert bids(game) == {105}


# --- talon --------------------------------------------------------------------------


def test_talon_hidden_when_won_at_the_obligatory_100() -> None:
    game = scripted_game(HAND_B)
    talon = sorted(HAND_B.deal()["talon"])
    run(game, "2 pass; 0 pass")
    assert sorted(game.view(1)["talon"]) == talon
    assert set(talon) <= hand(game, 1)
    for seat in (0, 2, None):
        v = game.view(seat)
        assert v["talon"] is None, f"seat {seat} sees the talon won at 100"
        text = json.dumps(v)
        for c in talon:
            assert f'"{c}"' not in text, f"view({seat}) reveals talon card {c}"


@pytest.mark.parametrize(
    ("bidding", "declarer"),
    [("2 bid 105; 0 pass; 1 pass", 2), ("2 pass; 0 bid 105; 1 bid 110; 0 pass", 1)],
    ids=["other-wins", "first-hand-raised"],
)
def test_talon_shown_to_all_after_a_raise(bidding: str, declarer: int) -> None:
    game = scripted_game(HAND_B)
    talon = sorted(HAND_B.deal()["talon"])
    run(game, bidding)
    assert game.view(None)["declarer"] == declarer
    for seat in (0, 1, 2, None):
        assert sorted(game.view(seat)["talon"]) == talon, f"seat {seat}"
    assert set(talon) <= hand(game, declarer)
    assert len(hand(game, declarer)) == 10


def test_hidden_talon_option_off_shows_it_at_100() -> None:
    game = new_game_or_skip(HAND_B.deal(), rules(hidden_talon_at_100=False), "hidden_talon_at_100")
    run(game, "2 pass; 0 pass")
    for seat in (0, 1, 2, None):
        assert sorted(game.view(seat)["talon"]) == sorted(HAND_B.deal()["talon"])


def test_gives_one_card_to_each_opponent() -> None:
    game = scripted_game(HAND_B)
    run(game, "2 pass; 0 pass")
    ten = hand(game, 1)
    expected = {f"give {c} {s}" for c in ten for s in (0, 2)} | {"writeoff"}
    assert legal_set(game) - {"redeal"} == expected
    # Every seat sees who is still to get a card, clockwise from the declarer.
    assert [game.view(s)["parting"] for s in (0, 1, 2, None)] == [[2, 0]] * 4
    act(game, 1, "give KD 2")
    assert game.view(None)["parting"] == [0]
    assert "KD" in hand(game, 2) and "KD" not in hand(game, 1)
    assert legal_set(game) - {"redeal", "writeoff"} == {f"give {c} 0" for c in ten - {"KD"}}
    assert_illegal(game, "give QD 2")  # seat 2 already has its card
    assert_illegal(game, "give QD 1")  # not to oneself
    assert_illegal(game, "give 9S 0")  # not the declarer's card
    act(game, 1, "give QD 0")
    assert game.view(None)["phase"] == "contract" and game.view(None)["parting"] == []
    assert [len(hand(game, s)) for s in range(3)] == [8, 8, 8]


def test_contract_at_least_the_bid_and_within_the_cap_at_that_time() -> None:
    # Seat 0 wins at 120 with both red marriages, then gives QD away: only
    # hearts are left, so the contract cap is 120 + 100 = 220, not 300.
    game = new_game(CAPS_DEAL)
    run(game, "2 pass; 0 bid 120; 1 pass")
    run(game, "0 give QD 1; 0 give KC 2")
    assert game.view(None)["phase"] == "contract"
    assert contracts(game) == set(range(120, 221, 5))
    for bad in ("contract 115", "contract 225", "contract 122", "contract 300"):
        assert_illegal(game, bad)


def test_marriage_from_the_talon_raises_the_contract_cap() -> None:
    # Seat 1 (spades marriage, bidding cap 160) wins at 100; the talon brings
    # KC to its QC: clubs + spades = 120 + 100 = 220.
    game = new_game(CAPS_DEAL)
    run(game, "2 pass; 0 pass; 1 give JH 2; 1 give 9D 0")
    assert hand(game, 1) >= {"QS", "KS", "QC", "KC"}
    assert contracts(game) == set(range(100, 221, 5))


def test_contract_respects_max_bid() -> None:
    game = new_game(CAPS_DEAL, rules_=rules(max_bid=250))
    run(game, "2 pass; 0 bid 120; 1 pass; 0 give AS 1; 0 give KC 2")
    assert hand(game, 0) >= {"KH", "QH", "KD", "QD"}
    assert contracts(game) == set(range(120, 251, 5))
