"""Classic rules: redeal claims and bolts (болт).

Seat numbering in every deal: seat 0 deals, seat 1 is first hand (sits on
100), seat 2 speaks first in the bidding — unless a test says otherwise.
"""

from __future__ import annotations

import pytest
from hands import CAPS_DEAL, DECLARER_BOLT, HAND_B
from helpers import (
    SEAT1_WINS,
    act,
    assert_illegal,
    legal,
    legal_set,
    make_deal,
    new_game,
    new_game_or_skip,
    play_hands,
    rules,
    run,
    with_contract,
    with_dealer,
)
from thousand import Game

# --- redeal claims (classic: §4, §12.3) ---------------------------------------------


def _redeal_then_check(game: Game, next_deal: dict) -> None:
    scores = list(game.scores)
    game.apply("redeal")
    v = game.view(None)
    assert game.scores == scores, "nobody scores on a redeal"
    assert v["phase"] == "bidding"
    assert list(v["bids"][0]) == [1, 100], "the same dealer deals again"
    assert game.current_player == 2
    for seat in range(3):
        assert sorted(game.view(seat)["hand"]) == sorted(next_deal["hands"][seat])


def test_redeal_hand_below_13_points() -> None:
    # Seat 2: KH KS JS JC 9S 9C 9D = 4+4+2+2 = 12 points (three nines only).
    deal = make_deal(0, ["AS TS QS AH TH QH JH", "AC TC KC QC JD QD KD", "KH KS JS JC 9S 9C 9D"])
    game = new_game([deal, CAPS_DEAL])
    assert "redeal" in legal(game)
    _redeal_then_check(game, CAPS_DEAL)


def test_no_redeal_with_exactly_13_points() -> None:
    # Seat 2: KH QS JS JC JD 9S 9C = 4+3+2+2+2 = 13 points. Seat 0 has 49.
    deal = make_deal(0, ["AS TS KS AH TH QH 9H", "AC TC KC QC QD KD AD", "KH QS JS JC JD 9S 9C"])
    game = new_game(deal)
    assert "redeal" not in legal(game)
    assert_illegal(game, "redeal")
    act(game, 2, "pass")
    assert "redeal" not in legal(game)


def test_redeal_four_nines_in_hand() -> None:
    deal = make_deal(0, ["KS QS JS TS KH QH JH", "KC QC JC TC KD QD JD", "9S 9C 9D 9H AS AC AD"])
    game = new_game([deal, CAPS_DEAL])
    assert "redeal" in legal(game)
    _redeal_then_check(game, CAPS_DEAL)


def _talon_deal(talon: str) -> dict:
    """Seat 1 wins at 100; the talon is ``talon``; no hand-based claims."""
    rest = {
        "JS JC 9D": ["AS TS KS 9S AH TH KH", "QS AC TC KC 9C QH JH", "9H JD QD KD TD AD QC"],
        "9S 9C AD": ["AS TS KS JS AH TH KH", "QS AC TC KC JC QH JH", "9H JD QD KD TD 9D QC"],
        "JS QC 9D": ["AS TS KS 9S AH TH KH", "QS AC TC KC 9C QH JH", "9H JD QD KD TD AD JC"],
    }[talon]
    # hands are listed seat 1, seat 2, seat 0 for readability
    return make_deal(0, [rest[2], rest[0], rest[1]], talon)


@pytest.mark.parametrize("talon", ["JS JC 9D", "9S 9C AD"], ids=["below-5", "two-nines"])
def test_redeal_claim_on_the_talon(talon: str) -> None:
    deal = _talon_deal(talon)
    game = new_game([deal, CAPS_DEAL])
    assert "redeal" not in legal(game)  # nobody's hand qualifies
    run(game, "2 pass; 0 pass")
    assert game.view(None)["phase"] == "talon"
    assert "redeal" in legal(game)
    _redeal_then_check(game, CAPS_DEAL)


def test_talon_claim_still_open_before_the_contract() -> None:
    game = new_game([_talon_deal("JS JC 9D"), CAPS_DEAL])
    run(game, "2 pass; 0 pass; 1 give JS 2; 1 give JC 0")
    assert game.view(None)["phase"] == "contract"
    assert "redeal" in legal(game)
    act(game, 1, "contract 100")
    assert "redeal" not in legal(game)


def test_no_talon_claim_with_5_points_and_one_nine() -> None:
    game = new_game(_talon_deal("JS QC 9D"))
    run(game, "2 pass; 0 pass")
    assert "redeal" not in legal(game)
    assert_illegal(game, "redeal")


def test_redeal_four_nines_after_taking_the_talon() -> None:
    # Seat 1 holds 9S 9C 9D and the talon brings 9H.
    deal = make_deal(
        0, ["KS QS JS TS KH QH JH", "9S 9C 9D AH TH KC KD", "QC JC TC QD JD TD AD"], "9H AS AC"
    )
    game = new_game([deal, CAPS_DEAL])
    assert "redeal" not in legal(game)
    run(game, "2 pass; 0 pass")
    assert "redeal" in legal(game)
    _redeal_then_check(game, CAPS_DEAL)


# Seat 2 holds 9S 9C 9D; the talon (9H AS AC, 22 points) brings 9H to seat 1,
# who passes it on to seat 2: four nines after the pass (§12.3).
FOUR_NINES_PASS = make_deal(
    0, ["JC QC KC JD QD KD AD", "AH TH KH QH JH QS JS", "9S 9C 9D TS TC TD KS"], "9H AS AC"
)


def test_four_nines_after_the_pass_decline() -> None:
    game = new_game(FOUR_NINES_PASS)
    run(game, "2 pass; 0 pass; 1 give AS 0; 1 give 9H 2")
    v = game.view(None)
    assert v["phase"] == "claim"
    assert game.current_player == 2
    assert legal_set(game) == {"redeal", "decline"}
    act(game, 2, "decline")
    assert game.view(None)["phase"] == "contract"
    assert game.current_player == 1


def test_four_nines_after_the_pass_redeal() -> None:
    game = new_game([FOUR_NINES_PASS, CAPS_DEAL])
    run(game, "2 pass; 0 pass; 1 give AS 0; 1 give 9H 2")
    assert game.current_player == 2
    _redeal_then_check(game, CAPS_DEAL)


# --- bolts ------------------------------------------------------------------------


def test_a_player_who_takes_a_trick_gets_no_bolt() -> None:
    # Hand B three times: seat 2 takes one trick each hand (25 each time,
    # never a bolt); seat 0 takes none: its third bolt costs 120.
    scripts = [with_dealer(HAND_B, d, SEAT1_WINS[d]) for d in range(3)]
    game = new_game([s.deal() for s in scripts])
    after = play_hands(game, scripts)
    assert after == [[0, 120, 25], [0, 240, 50], [-120, 360, 75]]


def test_the_declarer_gets_a_bolt_too() -> None:
    # Seat 1 declares and takes no trick three times (contract 105 each):
    # −105 × 3 and −120 for the third bolt. Seat 2 gets 80, seat 0 40.
    assert DECLARER_BOLT.outcome().tricks[1] == 0
    scripts = [with_contract(with_dealer(DECLARER_BOLT, d, SEAT1_WINS[d]), 105) for d in range(3)]
    game = new_game([s.deal() for s in scripts])
    after = play_hands(game, scripts)
    assert after == [[40, -105, 80], [80, -210, 160], [120, -435, 240]]


def test_no_bolt_on_own_game_option() -> None:
    scripts = [with_contract(with_dealer(DECLARER_BOLT, d, SEAT1_WINS[d]), 105) for d in range(3)]
    game = new_game_or_skip(
        [s.deal() for s in scripts], rules(no_bolt_on_own_game=True), "no_bolt_on_own_game"
    )
    after = play_hands(game, scripts)
    assert after[-1] == [120, -315, 240]
