"""Classic rules: an illegal action is refused with its reason, and the game is unchanged.

Seat numbering in every deal: seat 0 deals, seat 1 is first hand (sits on
100), seat 2 speaks first in the bidding — unless a test says otherwise.
"""

from __future__ import annotations

import pytest
from hands import HAND_B
from helpers import (
    act,
    assert_illegal,
    run,
    scripted_game,
)
from thousand import IllegalAction

# --- illegal actions leave the game unchanged --------------------------------------


def test_illegal_actions_in_every_phase() -> None:
    game = scripted_game(HAND_B)
    # bidding
    for bad in (
        "",
        "foo",
        "bid",
        "bid abc",
        "bid 103",
        "bid 100",
        "bid 305",
        "contract 120",
        "play AS",
        "give AS 0",
        "writeoff",
        "redeal",
        "decline",
        "play KS declare",
        "pass pass",
        "bid 105 extra",
    ):
        assert_illegal(game, bad)
    run(game, "2 pass; 0 pass")
    # talon
    for bad in (
        "give 9S 2",
        "give AS 1",
        "give AS 3",
        "give XX 2",
        "give AS",
        "bid 110",
        "pass",
        "contract 100",
        "play AS",
        "decline",
    ):
        assert_illegal(game, bad)
    run(game, "1 give KD 2; 1 give QD 0")
    # contract
    for bad in (
        "contract 95",
        "contract 103",
        "contract 165",
        "contract",
        "give AS 2",
        "play AS",
        "bid 120",
    ):
        assert_illegal(game, bad)
    act(game, 1, "contract 120")
    # play
    for bad in (
        "play 9S",
        "play KS declare",
        "play AS declare",
        "play ZZ",
        "contract 125",
        "pass",
        "give AS 2",
    ):
        assert_illegal(game, bad)
    act(game, 1, "play AS")
    assert_illegal(game, "play 9S extra")
    assert_illegal(game, "play JD")  # seat 2 must follow with 9S


def test_illegal_action_is_a_value_error_with_a_reason() -> None:
    assert issubclass(IllegalAction, ValueError)
    game = scripted_game(HAND_B)
    err = assert_illegal(game, "bid 125")
    assert "125" in str(err) or "cap" in str(err).lower() or "bid" in str(err).lower()


def test_action_object_from_another_state_must_be_legal_here() -> None:
    game = scripted_game(HAND_B)
    other = scripted_game(HAND_B)
    run(other, "2 pass; 0 pass")
    give = other.legal_actions()[0]
    with pytest.raises(IllegalAction):
        game.apply(give)
