"""Every worked example of RULES.md §14, reproduced from explicit deals.

Each example is a whole hand (or several) played through the public API;
the expected numbers are written out and cross-checked against the
reference model in helpers.py before the engine is asked.
"""

from __future__ import annotations

import pytest
from hands import (
    HAND_B,
    HAND_C,
    HAND_D,
    HAND_E,
    ROUND_17_18,
    ROUND_28_33,
    ROUND_32_34,
    ROUND_34_37,
    ROUND_51_53,
    ROUND_56_58,
)
from helpers import (
    DECK,
    SEAT1_WINS,
    act,
    make_deal,
    new_game,
    new_game_or_skip,
    play_hands,
    play_scripted,
    points,
    round5,
    round_last_digit,
    rules,
    run,
    scripted_game,
    with_contract,
    with_dealer,
)

# --- hand points: the deck holds 120, a suit 30 --------------------------------


def test_reference_deck_points() -> None:
    # The model's own arithmetic, used by every other test's premise.
    assert len(DECK) == 24
    assert points(DECK) == 120
    for suit in "SCDH":
        assert points(c for c in DECK if c[1] == suit) == 30


def test_defender_who_takes_one_whole_suit_scores_30() -> None:
    # Hand C: seat 2 wins exactly the six clubs (JC QC 9C and AC TC KC).
    o = HAND_C.outcome()
    assert o.card_points == [0, 90, 30]
    _, delta = play_scripted(HAND_C)
    assert delta == [0, 130, 30]


def test_declarer_points_are_the_rest_of_120() -> None:
    # Hand C again: seat 1's 90 card points + 40 marriage = 130 exactly, so a
    # contract of 130 is made and 135 is not — the engine counted 90, not
    # 89 or 95.
    _, made = play_scripted(with_contract(HAND_C, 130))
    _, failed = play_scripted(with_contract(HAND_C, 135))
    assert made[1] == 130
    assert failed[1] == -135
    assert made[2] == failed[2] == 30


def test_declarer_takes_all_120_points() -> None:
    # Hand D: every trick (120) plus hearts (100) — contract 220 is made,
    # 225 is not. Both defenders take nothing.
    assert HAND_D.outcome().totals == [0, 220, 0]
    _, made = play_scripted(with_contract(HAND_D, 220))
    assert made == [0, 220, 0]
    _, failed = play_scripted(with_contract(HAND_D, 225))
    assert failed == [0, -225, 0]


# --- declarer ---------------------------------------------------------------------


def test_contract_170_took_220_scores_plus_170() -> None:
    # §14 (seed 002): the excess over the contract is lost.
    assert HAND_D.contract == 170
    assert HAND_D.outcome().totals[1] == 220
    game, delta = play_scripted(HAND_D)
    assert delta == [0, 170, 0]
    assert game.scores == [0, 170, 0]


def test_contract_120_took_118_scores_minus_120() -> None:
    # §14: no rounding for the declarer — 118 does not make 120.
    o = HAND_E.outcome()
    assert o.totals == [0, 118, 2]
    _, delta = play_scripted(HAND_E)
    # Seat 2's 2 points round to 0; seat 0 took no trick (0 points).
    assert delta == [0, -120, 0]


def test_contract_115_took_118_scores_plus_115() -> None:
    _, delta = play_scripted(with_contract(HAND_E, 115))
    assert delta == [0, 115, 0]


# --- defenders: nearest5 ------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "raw", "rounded"),
    [
        # (seat 0, seat 2) raw points → rounded, §14: 17→15, 18→20, 51→50,
        # 53→55, 56→55, 58→60; and §8.3's 52→50/57→55 style neighbours.
        (ROUND_17_18, (18, 17), (20, 15)),
        (ROUND_51_53, (53, 51), (55, 50)),
        (ROUND_56_58, (58, 56), (60, 55)),
        (ROUND_34_37, (37, 34), (35, 35)),
        (ROUND_28_33, (33, 28), (35, 30)),
        (ROUND_32_34, (34, 32), (35, 30)),
    ],
    ids=["17-18", "51-53", "56-58", "34-37", "28-33", "32-34"],
)
def test_defenders_round_to_nearest_5(script, raw, rounded) -> None:
    o = script.outcome()
    assert (o.totals[0], o.totals[2]) == raw
    assert (round5(raw[0]), round5(raw[1])) == rounded
    assert o.totals[1] < 100  # the declarer fails the contract of 100
    _, delta = play_scripted(script)
    assert delta == [rounded[0], -100, rounded[1]]


def test_reference_rounding_tables() -> None:
    # The model's rounding, as §8.3 and §14 spell it out.
    for raw, want in [
        (17, 15),
        (18, 20),
        (51, 50),
        (52, 50),
        (53, 55),
        (56, 55),
        (57, 55),
        (58, 60),
        (0, 0),
        (2, 0),
        (3, 5),
        (120, 120),
    ]:
        assert round5(raw) == want, raw
    for raw, want in [
        (34, 35),
        (37, 35),
        (28, 30),
        (32, 30),
        (33, 30),
        (31, 30),
        (39, 40),
        (30, 30),
    ]:
        assert round_last_digit(raw) == want, raw


# --- defenders: by_last_digit (not in classic; skipped until implemented) ----------


@pytest.mark.parametrize(
    ("script", "raw", "rounded"),
    [
        (ROUND_34_37, (37, 34), (35, 35)),  # §14: 34→35, 37→35
        (ROUND_28_33, (33, 28), (30, 30)),  # §14: 28→30; §8.3: 33→30 (nearest5: 35)
        (ROUND_32_34, (34, 32), (35, 30)),  # §14: 32→30
    ],
    ids=["34-37", "28-33", "32-34"],
)
def test_defenders_round_by_last_digit(script, raw, rounded) -> None:
    o = script.outcome()
    assert (o.totals[0], o.totals[2]) == raw
    game = new_game_or_skip(script.deal(), rules(rounding="by_last_digit"), "rounding")
    script.play(game)
    assert game.scores == [rounded[0], -100, rounded[1]]


# --- write-off ------------------------------------------------------------------------


def test_write_off_of_120_gives_each_opponent_60() -> None:
    # Hand B's deal; seat 1 wins the bidding at 120 (seat 0 raised to 105,
    # seat 1 went to 120 — seat 1's cap is 160 with KS QS) and writes off
    # right after taking the talon.
    game = scripted_game(HAND_B)
    run(game, "2 pass; 0 bid 105; 1 bid 120; 0 pass")
    assert game.view(None)["declarer"] == 1
    act(game, 1, "writeoff")
    assert game.scores == [60, -120, 60]


# --- barrel -----------------------------------------------------------------------------


def _hand_b(dealer: int, contract: int = 120, bidding: str | None = None):
    s = with_dealer(HAND_B, dealer, bidding or SEAT1_WINS[dealer])
    return with_contract(s, contract)


def test_barrel_870_plus_25_is_880_and_three_failed_attempts_fall_to_760() -> None:
    # Seat 2 starts at 870 and takes 25 as a defender in hand B: 895 → 880,
    # on the barrel. Seat 1 declares hands B again and again (contract 120,
    # made with 135), seat 2 never wins the bidding: after the third hand on
    # the barrel it falls to 760. Meanwhile seat 0 takes no trick each hand
    # (a bolt) and pays 120 at the third bolt.
    scripts = [_hand_b(0), _hand_b(1), _hand_b(2), _hand_b(0)]
    game = new_game([s.deal() for s in scripts], scores=[0, 0, 870])
    after = play_hands(game, scripts)
    assert after == [
        [0, 120, 880],  # arrival: 870 + 25 → 880
        [0, 240, 880],  # attempt 1 (on the barrel a defender scores nothing)
        [-120, 360, 880],  # attempt 2; seat 0's third bolt
        [-120, 480, 760],  # attempt 3 failed: fall by 120
    ]


# --- bolts ------------------------------------------------------------------------------


def test_third_bolt_costs_120_and_the_count_restarts() -> None:
    # Hand D six times: seat 1 takes every trick (contract 120), seats 0 and
    # 2 get a bolt every hand: −120 at the 3rd and the 6th, not at the 4th.
    scripts = [with_contract(with_dealer(HAND_D, d % 3, SEAT1_WINS[d % 3]), 120) for d in range(6)]
    game = new_game([s.deal() for s in scripts])
    after = play_hands(game, scripts)
    assert after == [
        [0, 120, 0],
        [0, 240, 0],
        [-120, 360, -120],
        [-120, 480, -120],
        [-120, 600, -120],
        [-240, 720, -240],
    ]


# --- samosval (not in classic; skipped until implemented) ------------------------


def test_samosval_555_falls_to_0() -> None:
    # Seat 1 at 435 makes 120 → exactly 555 → 0 with samosval on.
    game = new_game_or_skip(HAND_B.deal(), rules(samosval=True), "samosval", scores=[0, 435, 0])
    HAND_B.play(game)
    assert game.scores == [0, 0, 25]


def test_without_samosval_555_stays() -> None:
    game, _ = play_scripted(HAND_B, scores=[0, 435, 0])
    assert game.scores == [0, 555, 25]


# --- a sanity check of the examples' own deals -----------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_scripted_deal_is_accepted_for_every_dealer(dealer: int) -> None:
    d = make_deal(dealer, HAND_B.deal()["hands"], " ".join(HAND_B.deal()["talon"]))
    game = new_game(d)
    first_hand = (dealer + 1) % 3
    v = game.view(None)
    assert v["phase"] == "bidding"
    assert list(v["bids"][0]) == [first_hand, 100]
    assert game.current_player == (first_hand + 1) % 3
    for seat in range(3):
        assert sorted(game.view(seat)["hand"]) == sorted(d["hands"][seat])
