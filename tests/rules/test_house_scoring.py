"""Scoring, the barrel and the match (RULES.md §12.4, §12.6).

See house_coverage.py for how each test registers what it covers.
"""

from __future__ import annotations

from typing import Any

from house_coverage import covers
from house_helpers import (
    PLAIN,
    PLAIN_TALON,
    ROUNDING_DEAL,
    ROUNDING_TALON,
    STRONG,
    barrel,
    contracts,
    declare,
    finish,
    give,
    last_row,
    new_game,
    play_power_hand,
    play_trick,
    power_deal,
    power_match,
    rules,
    run,
    same_deal,
    win_bidding,
)
from thousand import Game

# --- 12.4 Scoring ---------------------------------------------------------------------------


@covers("rounding", "nearest5", "by_last_digit", "none", "nearest10")
def test_rounding_of_defenders():
    expected = {
        "nearest5": [75, -100, 25],
        "by_last_digit": [70, -100, 25],
        "none": [73, -100, 24],
        "nearest10": [70, -100, 20],
    }
    for mode, deltas in expected.items():
        g = new_game(ROUNDING_DEAL, ROUNDING_TALON, rounding=mode)
        run(g, "pass", "pass")
        give(g, "9H", "QC")
        row = finish(g, "contract 100")
        assert row["totals"] == [73, 23, 24]
        assert row["deltas"] == deltas, mode


# Highest-card play from this deal gives the declarer (seat 1) 98 points.
NINETY_EIGHT = ["JS KS TS 9C QC QD TH", "9S AS 9D JD KD AD JH", "QS JC TC AC TD 9H KH"]
NINETY_EIGHT_TALON = "AH KC QH"


@covers("declarer_rounding", False, True)
def test_declarer_rounding():
    for on, rounding, made in (
        (False, "nearest5", False),
        (True, "nearest5", True),
        (True, "by_last_digit", True),
        (True, "none", False),
    ):
        g = new_game(NINETY_EIGHT, NINETY_EIGHT_TALON, declarer_rounding=on, rounding=rounding)
        run(g, "pass", "pass")
        give(g, "9S", "9D")
        row = finish(g, "contract 100")
        assert row["totals"][1] == 98
        assert row["result"] == ("made" if made else "failed")
        assert row["deltas"][1] == (100 if made else -100)


@covers("penalty", 120, 100)
@covers("bolt_mode", "total", "consecutive", "off")
def test_bolt_modes_and_penalty():
    # Seat 0 has bolts in hands 1, 2 and 4 (it declares hand 3); seat 2 in 1, 3 and 4.
    strong = [1, 2, 0, 1]
    g, rows = power_match(strong)
    assert [r["marks"][0].count("bolt") for r in rows] == [1, 1, 0, 1]
    assert rows[3]["deltas"] == [-120, 120, -120]
    assert "bolt_penalty" in rows[3]["marks"][0] and "bolt_penalty" in rows[3]["marks"][2]
    assert g.view(None)["bolts"] == [0, 2, 0]

    g, rows = power_match(strong, penalty=100)
    assert rows[3]["deltas"] == [-100, 120, -100]

    g, rows = power_match(strong, bolt_mode="consecutive")  # hand 3 broke both runs
    assert rows[3]["deltas"] == [0, 120, 0]
    assert g.view(None)["bolts"] == [1, 0, 2]

    g, rows = power_match(strong, bolt_mode="off")
    assert all("bolt" not in m for r in rows for m in r["marks"])
    assert rows[3]["deltas"] == [0, 120, 0]


@covers("bolt_mode", "consecutive", "total")
def test_bolt_mode_consecutive_three_in_a_row():
    # Seat 1 declares hand 3 from the second seat: seat 0 (first hand) has three in a row.
    for mode in ("consecutive", "total"):
        _, rows = power_match([1, 2, 1], bolt_mode=mode)
        assert rows[2]["declarer"] == 1 and rows[2]["dealer"] == 2
        assert rows[2]["deltas"] == [-120, 120, 0]
        assert "bolt_penalty" in rows[2]["marks"][0]


@covers("no_bolt_on_own_game", False, True)
def test_no_bolt_on_own_game():
    # Seat 1 declares at 100 and seat 2 takes every trick.
    g, rows = power_match([2], declarers=[1])
    assert rows[0]["tricks"] == [0, 0, 8] and rows[0]["result"] == "failed"
    assert rows[0]["marks"][1] == ["bolt"] and g.view(None)["bolts"] == [1, 1, 0]
    g, rows = power_match([2], declarers=[1], no_bolt_on_own_game=True)
    assert rows[0]["marks"][1] == [] and g.view(None)["bolts"] == [1, 0, 0]


# Seat 1 declares hearts; at trick 4 it leads 9S and seat 2 trumps with 9H while seat 0
# throws 9C: seat 2 takes one trick worth nothing.
ZERO = ["TS JS 9C TC AC TD AD", "AS KS 9S QS KH QH AH", "9H JH JC QC KC QD KD"]
ZERO_TALON = "TH 9D JD"


@covers("bolt_rule", "no_tricks", "zero_points")
def test_bolt_rule():
    rows = {}
    for rule in ("no_tricks", "zero_points"):
        g = new_game(ZERO, ZERO_TALON, bolt_rule=rule)
        run(g, "pass", "pass", "give 9D 2", "give JD 0", "contract 100")
        assert play_trick(g, "AS", "JC", "TS") == 1
        assert play_trick(g, "KS", "QC", "JS") == 1
        assert play_trick(g, "KH declare", "JH", "TC") == 1
        assert play_trick(g, "9S", "9H", "9C") == 2
        rows[rule] = finish(g)
    for row in rows.values():
        assert row["tricks"] == [0, 7, 1] and row["totals"][2] == 0
    assert rows["no_tricks"]["marks"][2] == []
    assert rows["zero_points"]["marks"][2] == ["bolt"]
    assert rows["no_tricks"]["marks"][0] == rows["zero_points"]["marks"][0] == ["bolt"]


@covers("four_nines_bonus", False, True)
def test_four_nines_bonus():
    """Lead's reading: +penalty (120) for a player holding four nines after the pass."""
    for bonus in (False, True):
        g = new_game([None, STRONG, "9S 9C 9D KS QS KC QC"], "TH 9H JC", four_nines_bonus=bonus)
        run(g, "pass", "pass", "give 9H 2", "give JC 0", "decline")
        row = finish(g, "contract 120")
        assert row["result"] == "made" and row["tricks"] == [0, 8, 0]
        assert row["deltas"] == ([0, 120, 120] if bonus else [0, 120, 0])
        assert ("four_nines" in row["marks"][2]) == bonus


# --- 12.6 Barrel and match ----------------------------------------------------------------


@covers("barrel_at", 880, 900, None)
def test_barrel_at():
    for at, score, on in ((880, 880, True), (900, 900, True), (None, 920, False)):
        g, rows = power_match([1], scores=[0, 800, 0], barrel_at=at)
        assert rows[0]["deltas"][1] == score - 800 and g.scores[1] == score
        assert barrel(g, 1)["on"] == on
        assert ("barrel" in rows[0]["marks"][1]) == on
    # Without a barrel, 1000 is simply reached.
    g, rows = power_match([1], scores=[0, 900, 0], barrel_at=None)
    assert g.winner == 1 and g.phase == "over" and g.scores[1] == 1020
    g, rows = power_match([1], scores=[0, 900, 0])
    assert g.scores[1] == 1000 and g.winner == 1  # 900 started on the barrel at 880


def defend_on_barrel(hands: int, **options: Any) -> tuple[Game, list[dict[str, Any]]]:
    """Seat 1 sits on the barrel while seat 2 declares and writes off, hand after hand."""
    g = Game.new(rules=rules(**options), seed=1, deal=same_deal(hands), scores=[0, 880, 0])
    rows = []
    for _ in range(hands):
        declare(g, 2)
        g.apply("writeoff")
        rows.append(last_row(g))
    return g, rows


@covers("barrel_attempts", 3, 2)
def test_barrel_attempts():
    g, rows = defend_on_barrel(3)
    assert [r["scores"][1] for r in rows] == [880, 880, 760]
    assert rows[0]["deltas"][1] == 0  # a defender on the barrel scores nothing
    assert "barrel_hand_1" in rows[0]["marks"][1] and "fall" in rows[2]["marks"][1]
    assert not barrel(g, 1)["on"] and barrel(g, 1)["falls"] == 1
    g, rows = defend_on_barrel(2, barrel_attempts=2)
    assert [r["scores"][1] for r in rows] == [880, 760]


@covers("barrel_three_falls_zero", True, False)
def test_barrel_three_falls_zero():
    # One attempt each time (barrel_attempts=1): hands 1, 3, 5 are falls, 2 and 4 climb back.
    for zero, final in ((True, 0), (False, 760)):
        deals = [power_deal(1, dealer=k % 3) for k in range(5)]
        g = Game.new(
            rules=rules(barrel_attempts=1, barrel_three_falls_zero=zero),
            seed=1,
            deal=deals,
            scores=[0, 880, 0],
        )
        seen = []
        for k in range(5):
            if k % 2 == 0:
                declare(g, 2)
                g.apply("writeoff")
            else:
                play_power_hand(g, 1, 1, contract=120)
            seen.append(g.scores[1])
        assert seen == [760, 880, 760, 880, final]
        assert ("zero" in last_row(g)["marks"][1]) == zero


@covers("one_on_barrel", True, False)
def test_one_on_barrel_knocks_the_other_off():
    for one in (True, False):
        g, rows = power_match([1], scores=[880, 800, 0], one_on_barrel=one)
        assert barrel(g, 1)["on"] and g.scores[1] == 880
        if one:
            assert g.scores[0] == 760 and not barrel(g, 0)["on"]
            assert "knocked_off" in rows[0]["marks"][0]
        else:
            assert g.scores[0] == 880 and barrel(g, 0)["on"]


@covers("one_on_barrel", True, False)
def test_one_on_barrel_two_arrivals_fall_together():
    for one in (True, False):
        g = new_game(PLAIN, PLAIN_TALON, scores=[830, 0, 830], one_on_barrel=one)
        win_bidding(g, 1)
        g.apply("writeoff")  # 50 to each opponent: both reach 880 in the same hand
        if one:
            assert g.scores == [760, -100, 760]
            assert not barrel(g, 0)["on"] and not barrel(g, 2)["on"]
        else:
            assert g.scores == [880, -100, 880]
            assert barrel(g, 0)["on"] and barrel(g, 2)["on"]


@covers("barrel_fall_to", "minus_penalty", "500", "minus_contract")
def test_barrel_fall_to():
    for mode, after in (("minus_penalty", 760), ("500", 500), ("minus_contract", 755)):
        # Seat 1 sits on the barrel, declares 125 and seat 2 takes every trick.
        g, rows = power_match(
            [2], declarers=[1], contract=125, scores=[0, 880, 0], barrel_fall_to=mode
        )
        assert rows[0]["result"] == "failed" and rows[0]["contract"] == 125
        assert g.scores[1] == after, mode
        assert "fall" in rows[0]["marks"][1]


@covers("target_1001", False, True)
def test_target_1001():
    # Without a barrel: 880 + 120 is exactly 1000.
    g, rows = power_match([1], scores=[0, 880, 0], barrel_at=None)
    assert g.scores[1] == 1000 and g.winner == 1
    g, rows = power_match([1], scores=[0, 880, 0], barrel_at=None, target_1001=True)
    assert g.scores[1] == 1000 and g.winner is None and g.phase != "over"
    g, rows = power_match([1], scores=[0, 890, 0], barrel_at=None, target_1001=True)
    assert g.winner == 1
    # On the barrel: 120 wins a match to 1000.
    g, rows = power_match([1], scores=[0, 880, 0])
    assert g.winner == 1 and "win" in rows[0]["marks"][1]


@covers("target_1001", True)
def test_target_1001_on_the_barrel_120_is_not_enough():
    """RULES §9.1: with 1001 the barrel needs 121/125 (seed 004: «Игроку, сидящему на бочке,
    нужно набрать 121 очко ... если не набирает — слетает с бочки»). Either 120 is no
    longer a contract for a barrel player, or making it must not leave them at 1000."""
    g = Game.new(rules=rules(target_1001=True), seed=1, deal=power_deal(1), scores=[0, 880, 0])
    run(g, "pass", "pass")
    give(g, "JS", "JC")
    if 120 in contracts(g):
        finish(g, "contract 120")
        assert g.winner is None
        assert g.scores[1] <= 880, g.scores


@covers("lock_at", None, 800)
def test_lock_at():
    """Polish lock: at 800 or more a defender scores nothing; the own contract counts."""
    for lock, share in ((None, 50), (800, 0)):
        g = new_game(PLAIN, PLAIN_TALON, scores=[800, 0, 790], lock_at=lock, barrel_at=None)
        run(g, "pass", "pass", "writeoff")
        assert last_row(g)["deltas"] == [share, -100, 50]
    g, rows = power_match([1, 2], scores=[0, 800, 0], lock_at=800, barrel_at=None)
    assert g.scores[1] == 920  # the declarer's own contract counts above the lock
    assert rows[1]["deltas"][1] == 0  # and as a defender it scores nothing


@covers("samosval", False, True)
def test_samosval():
    for on, after in ((False, 555), (True, 0)):
        g, rows = power_match([1], scores=[0, 435, 0], samosval=on)
        assert g.scores[1] == after
        assert ("samosval" in rows[0]["marks"][1]) == on


@covers("samosval_negative", False, True)
def test_samosval_negative():
    # Seat 1 declares 120 and seat 2 takes every trick: −435 − 120 = −555.
    for negative, after in ((False, -555), (True, 0)):
        g, rows = power_match(
            [2], declarers=[1], scores=[0, -435, 0], samosval=True, samosval_negative=negative
        )
        assert rows[0]["result"] == "failed" and g.scores[1] == after


@covers("reverse_barrel", False, True)
def test_reverse_barrel_clamps_and_ends_the_match():
    """Lead's reading: ≤ −880 clamps to −880; reaching −1000 ends the match, best score wins."""
    g, rows = power_match([2], declarers=[1], scores=[0, -770, 0])
    assert g.scores[1] == -890
    g, rows = power_match([2], declarers=[1], scores=[0, -770, 0], reverse_barrel=True)
    assert g.scores[1] == -880 and "reverse_barrel" in rows[0]["marks"][1]
    # From −880, failing 120 reaches −1000: the match ends and the best score wins.
    g, rows = power_match([2], declarers=[1], scores=[0, -880, 10], reverse_barrel=True)
    assert g.phase == "over" and g.winner == 2 and g.scores[1] == -1000
    g, rows = power_match([2], declarers=[1], scores=[0, -880, 10])
    assert g.phase != "over" and g.scores[1] == -1000


@covers("reverse_barrel", True)
def test_reverse_barrel_falls_back_after_the_attempts():
    # Hand 1: seat 1 fails to −880. Hands 2–4: it defends and scores nothing (no bolts).
    _, rows = power_match(
        [2, 2, 0, 0],
        declarers=[1, 2, 0, 0],
        scores=[0, -770, 0],
        reverse_barrel=True,
        bolt_mode="off",
    )
    assert [r["scores"][1] for r in rows] == [-880, -880, -880, -760]
    assert "fall" in rows[3]["marks"][1]


@covers("intermediate_barrel_380", False, True)
def test_intermediate_barrel_380():
    for on in (False, True):
        # Seat 1 writes off 100, then 105: seat 0 gets 50, then 55, from 360.
        g = Game.new(
            rules=rules(intermediate_barrel_380=on), seed=1, deal=same_deal(2), scores=[360, 0, 0]
        )
        declare(g, 1)
        g.apply("writeoff")
        assert g.scores[0] == (380 if on else 410)
        assert barrel(g, 0)["at_380"] == on
        declare(g, 1)
        g.apply("writeoff")
        assert g.scores[0] == (380 if on else 465)  # stopped there, it scores nothing
    # Passing 380 with one's own made contract goes straight on.
    g, _rows = power_match([1], scores=[0, 300, 0], intermediate_barrel_380=True)
    assert g.scores[1] == 420 and not barrel(g, 1)["at_380"]
