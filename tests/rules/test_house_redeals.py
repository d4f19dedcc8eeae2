"""Redeal claims (RULES.md §12.3).

See house_coverage.py for how each test registers what it covers.
"""

from __future__ import annotations

from typing import Any

from house_coverage import covers
from house_helpers import (
    STRONG,
    give,
    last_row,
    legal,
    new_game,
    points,
    run,
    win_bidding,
)

# --- 12.3 Redeal claims --------------------------------------------------------------------


def talon_claim(talon: str, hand: str = STRONG, **options: Any) -> str | None:
    """Seat 1 takes ``talon`` at 100: the reason of its redeal claim, or None."""
    g = new_game([None, hand, None], talon, **options)
    run(g, "pass", "pass")
    assert g.phase == "talon" and g.current_player == 1
    if "redeal" not in legal(g):
        return None
    give(g, *talon.split()[:2])  # the claim stays open until the contract is named
    assert "redeal" in legal(g)
    g.apply("redeal")
    row = last_row(g)
    assert row["result"] == "redeal" and row["claimant"] == 1
    assert row["deltas"] == [0, 0, 0] or options.get("redeal_penalty_dealer")
    # Same dealer, a fresh deal, bidding again.
    assert g.view(None)["dealer"] == 0 and g.phase in ("bidding", "dark")
    return str(row["reason"])


def hand_claim(hand: str, **options: Any) -> str | None:
    """Seat 2, first to speak, holds ``hand``: the reason of its redeal claim, or None."""
    g = new_game([None, None, hand], None, **options)
    assert g.current_player == 2
    if "redeal" not in legal(g):
        return None
    g.apply("redeal")
    row = last_row(g)
    assert row["result"] == "redeal" and row["claimant"] == 2
    return str(row["reason"])


H12 = "9S JS QS 9C JC QC JD"
H13 = "9S JS KS 9C JC QC JD"
H14 = "9S JS KS 9C JC KC JD"


@covers("redeal_talon_below", 5, None, 4, 15)
def test_redeal_talon_below():
    assert points(["9S", "JS", "JC"]) == 4 and points(["TH", "JS", "JC"]) == 14
    assert "less than 5" in (talon_claim("9S JS JC") or "")
    assert talon_claim("9S JS JC", redeal_talon_below=None) is None
    assert talon_claim("9S JS JC", redeal_talon_below=4) is None
    assert talon_claim("TH JS JC") is None
    assert "less than 15" in (talon_claim("TH JS JC", redeal_talon_below=15) or "")


@covers("redeal_two_nines_talon", True, False)
def test_redeal_two_nines_talon():
    assert talon_claim("9S 9C TH") == "two nines in the talon"
    assert talon_claim("9S 9C TH", redeal_two_nines_talon=False) is None


@covers("redeal_three_nines_talon", False, True)
def test_redeal_three_nines_talon():
    off = {"redeal_talon_below": None}  # the talon is worth 0: keep that claim out
    assert talon_claim("9S 9C 9D", **off) is None
    assert talon_claim("9S 9C 9D", redeal_three_nines_talon=True, **off) == (
        "three nines in the talon"
    )


@covers("redeal_three_jacks_talon", False, True)
def test_redeal_three_jacks_talon():
    assert talon_claim("JS JC JD") is None
    assert talon_claim("JS JC JD", redeal_three_jacks_talon=True) == "three jacks in the talon"


@covers("redeal_hand_below", 13, None, 14, 15)
def test_redeal_hand_below():
    assert [points(h.split()) for h in (H12, H13, H14)] == [12, 13, 14]
    assert "less than 13" in (hand_claim(H12) or "")
    assert hand_claim(H13) is None
    assert hand_claim(H12, redeal_hand_below=None) is None
    assert "less than 14" in (hand_claim(H13, redeal_hand_below=14) or "")
    assert hand_claim(H14, redeal_hand_below=14) is None
    assert "less than 15" in (hand_claim(H14, redeal_hand_below=15) or "")


def test_hand_claim_only_before_bidding():
    g = new_game([None, None, H12], None)
    assert "redeal" in legal(g)
    run(g, "bid 105", "pass", "bid 110")  # seat 1 raises: seat 2 speaks again
    assert g.current_player == 2 and "redeal" not in legal(g)


@covers("redeal_hand_below", 13)
def test_hand_claim_not_after_bidding_and_seeing_the_talon():
    """RULES §4: «Hand-based claims are made before bidding; talon-based ones by the bid
    winner after the talon is revealed». Seat 2 could claim, bid instead, and won."""
    g = new_game([None, None, H12], "KH TH AH")  # a talon of 25 points and no nine
    assert "redeal" in legal(g)
    run(g, "bid 105", "pass", "pass")
    assert g.phase == "talon" and g.current_player == 2
    assert "redeal" not in legal(g)


@covers("redeal_four_nines", True, False)
def test_redeal_four_nines():
    four = "9S 9C 9D 9H AS AC TD"
    assert hand_claim(four) == "four nines in hand"
    assert hand_claim(four, redeal_four_nines=False) is None


@covers("redeal_four_jacks", False, True)
def test_redeal_four_jacks():
    four = "JS JC JD JH AS AC TD"
    assert hand_claim(four) is None
    assert hand_claim(four, redeal_four_jacks=True) == "four jacks in hand"


@covers("redeal_four_nines_after_pass", True, False)
def test_redeal_four_nines_after_the_talon():
    nines = "9S 9C 9D AS AC AD AH"
    assert talon_claim("9H TH JS", hand=nines) == "four nines with the talon"
    assert talon_claim("9H TH JS", hand=nines, redeal_four_nines_after_pass=False) is None


@covers("redeal_four_nines_after_pass", True, False)
def test_redeal_four_nines_after_receiving_a_card():
    hands = [None, STRONG, "9S 9C 9D KS QS KC QC"]
    for on in (True, False):
        g = new_game(hands, "9H TH JS", redeal_four_nines_after_pass=on)
        run(g, "pass", "pass", "give 9H 2", "give JS 0")
        if on:
            assert g.phase == "claim" and g.current_player == 2
            assert sorted(legal(g)) == ["decline", "redeal"]
            c = g.copy()
            c.apply("decline")
            assert c.phase == "contract" and c.current_player == 1
            g.apply("redeal")
            assert last_row(g)["reason"] == "four nines after the pass"
            assert last_row(g)["claimant"] == 2
        else:
            assert g.phase == "contract" and g.current_player == 1


@covers("redeal_only_at_100", False, True)
def test_redeal_only_at_100():
    for only, at_100, claim in (
        (False, True, True),
        (False, False, True),
        (True, True, True),
        (True, False, False),
    ):
        g = new_game([None, STRONG, None], "9S 9C TH", redeal_only_at_100=only)
        if at_100:
            run(g, "pass", "pass")
        else:
            win_bidding(g, 2)
        assert g.phase == "talon"
        assert ("redeal" in legal(g)) == claim, (only, at_100)


@covers("redeal_penalty_dealer", False, True)
def test_redeal_penalty_dealer():
    for penalty in (False, True):
        g = new_game(
            [None, STRONG, None],
            "9S 9C 9D",
            redeal_penalty_dealer=penalty,
            redeal_three_nines_talon=True,
            redeal_talon_below=None,
        )
        run(g, "pass", "pass", "redeal")
        row = last_row(g)
        assert row["reason"] == "three nines in the talon"
        assert row["deltas"] == ([-120, 0, 0] if penalty else [0, 0, 0])
        assert g.scores == row["scores"] == ([-120, 0, 0] if penalty else [0, 0, 0])
    # Seed 004 names the penalty for three nines, not for two nines in the talon.
    g = new_game([None, STRONG, None], "9S 9C TH", redeal_penalty_dealer=True)
    run(g, "pass", "pass", "redeal")
    assert last_row(g)["reason"] == "two nines in the talon"
    assert g.scores == [0, 0, 0]
    # A claim that has nothing to do with nines costs nothing.
    g = new_game([None, STRONG, None], "9S JS JC", redeal_penalty_dealer=True)
    run(g, "pass", "pass", "redeal")
    assert last_row(g)["reason"] == "talon worth less than 5"
    assert g.scores == [0, 0, 0]
    g = new_game([None, None, "9S 9C 9D 9H AS AC TD"], None, redeal_penalty_dealer=True)
    g.apply("redeal")
    assert last_row(g)["reason"] == "four nines in hand" and g.scores == [-120, 0, 0]
