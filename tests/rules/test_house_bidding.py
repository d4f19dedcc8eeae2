"""Bidding, the contract and the write-off (RULES.md §12.1, §12.5).

See house_coverage.py for how each test registers what it covers.
"""

from __future__ import annotations

from typing import Any

import pytest
from house_coverage import covers
from house_helpers import (
    MARRIED,
    MARRIED_TALON,
    PLAIN,
    PLAIN_TALON,
    bids,
    contracts,
    declare,
    finish,
    give,
    last_row,
    legal,
    new_game,
    rules,
    run,
    same_deal,
    view_cards,
)
from thousand import Game, IllegalAction

# --- 12.1 Bidding and contract -------------------------------------------------------------


@covers("bid_cap", "hand_marriages", "none")
def test_bid_cap():
    g = new_game(PLAIN, PLAIN_TALON)
    assert max(bids(g)) == 120  # no marriage in hand: 120 at most
    g = new_game(MARRIED, MARRIED_TALON)
    assert max(bids(g)) == 200  # 120 + the diamond marriage
    g = new_game(PLAIN, PLAIN_TALON, bid_cap="none")
    assert max(bids(g)) == 300  # only max_bid limits
    with pytest.raises(IllegalAction):
        new_game(PLAIN, PLAIN_TALON).apply("bid 125")
    new_game(PLAIN, PLAIN_TALON, bid_cap="none").apply("bid 125")


@covers("bid_cap", "hand_marriages")
def test_contract_cap_follows_the_declarers_hand():
    g = new_game(PLAIN, PLAIN_TALON)
    run(g, "pass", "pass")  # seat 1 takes the talon at 100: kings, no queen
    give(g, "KS", "KC")
    assert contracts(g) == [100, 105, 110, 115, 120]
    g = new_game(PLAIN, PLAIN_TALON, bid_cap="none", max_bid=200)
    run(g, "pass", "pass")
    give(g, "KS", "KC")
    assert max(contracts(g)) == 200


@covers("max_bid", 300, 200)
def test_max_bid():
    hearts_diamonds = ["9S JS 9C JC 9D JD QS", "AS TS AC TC AD TD AH", "KH QH KD QD KC QC TH"]
    g = new_game(hearts_diamonds, "KS JH 9H")
    assert max(bids(g)) == 300  # 120 + 100 + 80 + 60 = 360, capped by max_bid 300
    g = new_game(hearts_diamonds, "KS JH 9H", max_bid=200)
    assert max(bids(g)) == 200
    g = new_game(PLAIN, PLAIN_TALON, bid_cap="none", max_bid=200)
    assert max(bids(g)) == 200


@covers("bid_step", 5, 10)
def test_bid_step():
    g = new_game(MARRIED, MARRIED_TALON)
    assert bids(g)[:3] == [105, 110, 115]
    g = new_game(MARRIED, MARRIED_TALON, bid_step=10)
    assert bids(g) == list(range(110, 201, 10))
    run(g, "bid 110", "pass", "pass")  # seats 0 and 1 pass
    assert g.view(None)["declarer"] == 2
    give(g, "KS", "KC")  # keep only the diamond marriage
    assert contracts(g) == list(range(110, 201, 10))


@covers("no_jump_bids", False, True)
def test_no_jump_bids():
    g = new_game(MARRIED, MARRIED_TALON)
    assert bids(g)[:2] == [105, 110] and 150 in bids(g)
    g = new_game(MARRIED, MARRIED_TALON, no_jump_bids=True)
    assert bids(g) == [105]
    run(g, "bid 105", "pass")
    assert bids(g) == [110]  # seat 1 may answer one step higher only
    with pytest.raises(IllegalAction):
        g.apply("bid 120")


@covers("silence_below", None, -120, 0)
def test_silence_below():
    for silence, score, silent in (
        (None, -500, False),
        (-120, -115, False),
        (-120, -125, True),
        (0, -5, True),
        (0, 0, False),
    ):
        g = new_game(MARRIED, MARRIED_TALON, scores=[0, 0, score], silence_below=silence)
        assert bool(bids(g)) != silent, (silence, score)
        if silent:
            assert "pass" in legal(g)


@covers("hidden_talon_at_100", True, False)
def test_hidden_talon_at_100():
    g = new_game(PLAIN, PLAIN_TALON)
    run(g, "pass", "pass")
    assert sorted(g.view(1)["talon"]) == sorted(PLAIN_TALON.split())
    assert g.view(2)["talon"] is None and g.view(0)["talon"] is None
    assert g.view(None)["talon"] is None and not g.view(2)["talon_shown"]
    assert not set(PLAIN_TALON.split()) & view_cards(g.view(2))

    g = new_game(PLAIN, PLAIN_TALON, hidden_talon_at_100=False)
    run(g, "pass", "pass")
    assert sorted(g.view(2)["talon"]) == sorted(PLAIN_TALON.split())
    assert sorted(g.view(None)["talon"]) == sorted(PLAIN_TALON.split())

    # A raised bid shows the talon whatever the option says.
    g = new_game(MARRIED, MARRIED_TALON)
    run(g, "bid 105", "pass", "pass")
    assert sorted(g.view(0)["talon"]) == sorted(MARRIED_TALON.split())


@covers("pass_face_down", False, True)
def test_pass_face_down():
    for face_down in (False, True):
        g = new_game(MARRIED, MARRIED_TALON, pass_face_down=face_down)
        # Seat 2 declares at 105 (the talon is shown) and passes two cards of its own hand.
        run(g, "bid 105", "pass", "pass", "give JD 0", "give QS 1")
        seen_by_0, seen_by_1, seen_by_2 = (g.view(s)["given"] for s in (0, 1, 2))
        assert seen_by_2 == [["JD", 0], ["QS", 1]]  # the declarer sees both
        if face_down:
            assert seen_by_1 == [[None, 0], ["QS", 1]]
            assert seen_by_0 == [["JD", 0], [None, 1]]
            assert g.view(None)["given"] == [[None, 0], [None, 1]]
            assert "QS" not in view_cards(g.view(0)) and "JD" not in view_cards(g.view(1))
        else:
            assert seen_by_1 == seen_by_0 == g.view(None)["given"] == [["JD", 0], ["QS", 1]]


@covers("barrel_min_bid", 120, 121, 125)
def test_barrel_min_bid():
    for least, expected in ((120, [120, 125]), (121, [121, 125]), (125, [125, 130])):
        g = new_game(MARRIED, MARRIED_TALON, scores=[0, 0, 880], barrel_min_bid=least)
        assert g.view(None)["barrel"][2]["on"]
        assert bids(g)[:2] == expected, least
    # Off the barrel the usual 105 is allowed.
    g = new_game(MARRIED, MARRIED_TALON, scores=[0, 0, 870], barrel_min_bid=125)
    assert bids(g)[0] == 105


@covers("barrel_min_bid", 121)
def test_barrel_min_bid_raises_the_contract_of_the_first_hand_on_100():
    married_first = ["9S JS 9C JC 9D JD QS", "KH QH KD QD TH AH TD", None]
    for least, low in ((120, 120), (121, 121)):
        g = new_game(married_first, None, scores=[0, 880, 0], barrel_min_bid=least)
        run(g, "pass", "pass")
        give(g, "9H", "JH")  # the talon is AD 9H JH
        assert contracts(g)[0] == low


# --- 12.5 Write-off -----------------------------------------------------------------------


@covers("write_off", True, False)
def test_write_off():
    g = new_game(PLAIN, PLAIN_TALON)
    run(g, "pass", "pass")
    assert "writeoff" in legal(g)  # right after seeing the talon: the bid is written off
    g.apply("writeoff")
    row = last_row(g)
    assert row["result"] == "writeoff" and row["deltas"] == [50, -100, 50]
    assert "writeoff" in row["marks"][1]
    # After naming the contract, the contract is written off; half of 105 is 55.
    g = new_game(PLAIN, PLAIN_TALON)
    run(g, "pass", "pass")
    give(g, "KS", "KC")
    assert "writeoff" in legal(g)
    run(g, "contract 105")
    assert "writeoff" in legal(g)  # before the first lead
    g.apply("writeoff")
    assert last_row(g)["deltas"] == [55, -105, 55]
    # Not after the first lead.
    g = new_game(PLAIN, PLAIN_TALON)
    run(g, "pass", "pass")
    give(g, "KS", "KC")
    run(g, "contract 100", "play AS")
    assert "writeoff" not in legal(g)

    g = new_game(PLAIN, PLAIN_TALON, write_off=False)
    run(g, "pass", "pass")
    assert "writeoff" not in legal(g)
    with pytest.raises(IllegalAction):
        g.apply("writeoff")
    give(g, "KS", "KC")
    assert "writeoff" not in legal(g)


@covers("write_off_flat_60", False, True)
def test_write_off_flat_60():
    for flat, share in ((False, 50), (True, 60)):
        g = new_game(PLAIN, PLAIN_TALON, write_off_flat_60=flat)
        run(g, "pass", "pass", "writeoff")
        assert last_row(g)["deltas"] == [share, -100, share]


@covers("write_off_keeps_score", False, True)
def test_write_off_keeps_score():
    for keeps, loss in ((False, -100), (True, 0)):
        g = new_game(PLAIN, PLAIN_TALON, write_off_keeps_score=keeps)
        run(g, "pass", "pass", "writeoff")
        assert last_row(g)["deltas"] == [50, loss, 50]


def write_offs_allowed(times: int, **options: Any) -> list[bool]:
    """Seat 1 declares ``times`` hands in a row: may it write off each of them?"""
    g = Game.new(rules=rules(**options), seed=1, deal=same_deal(times))
    allowed = []
    for _ in range(times):
        declare(g, 1)
        allowed.append("writeoff" in legal(g))
        if allowed[-1]:
            g.apply("writeoff")
        else:
            give(g, "KS", "KC")
            finish(g, "contract " + str(g.view(None)["bid"]))
    return allowed


@covers("write_off_limit", None, 2, 3)
def test_write_off_limit():
    assert write_offs_allowed(4) == [True, True, True, True]
    assert write_offs_allowed(4, write_off_limit=2) == [True, True, False, False]
    assert write_offs_allowed(4, write_off_limit=3) == [True, True, True, False]


@covers("write_off_third_penalty", False, True)
def test_write_off_third_penalty():
    for extra in (False, True):
        g = Game.new(rules=rules(write_off_third_penalty=extra), seed=1, deal=same_deal(4))
        losses = []
        for _ in range(4):
            declare(g, 1)
            bid = g.view(None)["bid"]
            g.apply("writeoff")
            losses.append(last_row(g)["deltas"][1] + bid)
        assert losses == ([0, 0, -120, 0] if extra else [0, 0, 0, 0])
        assert ("penalty" in g.sheet[2]["marks"][1]) == extra


@covers("write_off_on_barrel", False, True)
def test_write_off_on_barrel():
    g = new_game(PLAIN, PLAIN_TALON, scores=[0, 880, 0])
    run(g, "pass", "pass")
    assert "writeoff" not in legal(g)
    g = new_game(PLAIN, PLAIN_TALON, scores=[0, 880, 0], write_off_on_barrel=True)
    run(g, "pass", "pass")
    assert "writeoff" in legal(g)
    g.apply("writeoff")
    row = last_row(g)
    # A write-off on the barrel is a failed attempt: the player falls at once.
    assert row["scores"][1] == 760 and "fall" in row["marks"][1]
    # Another player may write off while somebody sits on the barrel.
    g = new_game(PLAIN, PLAIN_TALON, scores=[880, 0, 0])
    run(g, "pass", "pass")
    assert "writeoff" in legal(g)


@covers("cross", False, True)
def test_cross():
    g = new_game(PLAIN, PLAIN_TALON)
    run(g, "pass", "pass")
    assert "cross" not in legal(g)
    with pytest.raises(IllegalAction):
        g.apply("cross")

    g = new_game(PLAIN, PLAIN_TALON, cross=True, scores=[10, 20, 30])
    run(g, "pass", "pass")
    assert "cross" in legal(g)
    give(g, "KS", "KC")
    g.apply("contract 110")
    assert "cross" in legal(g)
    g.apply("cross")
    row = last_row(g)
    assert row["result"] == "cross" and row["deltas"] == [0, 0, 0]
    assert row["scores"] == [10, 20, 30]
    assert row["marks"][1] == ["cross"]
    assert row["marks"][0] == row["marks"][2] == ["bolt"]
    assert g.view(None)["bolts"] == [1, 0, 1]


@covers("cross", True)
def test_cross_forbidden_while_anyone_is_on_the_barrel_and_in_the_golden_round():
    g = new_game(PLAIN, PLAIN_TALON, cross=True, scores=[880, 0, 0])
    run(g, "pass", "pass")
    assert "cross" not in legal(g) and "writeoff" in legal(g)
    g = new_game(PLAIN, PLAIN_TALON, cross=True, golden=True)
    assert g.phase == "talon" and "cross" not in legal(g)


@covers("bomb", 0, 1, 2)
def test_bomb():
    g = new_game(PLAIN, PLAIN_TALON)
    run(g, "pass", "pass")
    assert "bomb" not in legal(g)
    for uses in (1, 2):
        g = Game.new(rules=rules(bomb=uses), seed=1, deal=same_deal(4), scores=[0, 100, 0])
        allowed = []
        for _ in range(uses + 1):
            declare(g, 1)
            allowed.append("bomb" in legal(g))
            if allowed[-1]:
                g.apply("bomb")
                row = last_row(g)
                assert row["result"] == "bomb" and row["deltas"] == [60, 0, 60]
                assert "bomb" in row["marks"][1]
        assert allowed == [True] * uses + [False]
        assert g.scores[1] == 100
