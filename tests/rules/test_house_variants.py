"""Dark play, the golden round, and two- and four-player tables (RULES.md §12.7, §9, §10, §11).

See house_coverage.py for how each test registers what it covers.
"""

from __future__ import annotations

from typing import Any

from house_coverage import covers
from house_helpers import (
    CAPTURE,
    CAPTURE_TALON,
    PLAIN,
    PLAIN_TALON,
    ROUNDING_DEAL,
    ROUNDING_TALON,
    barrel,
    bids,
    contracts,
    finish,
    give,
    highest_play,
    last_row,
    legal,
    lowest_play,
    make_deal,
    new_game,
    opponents,
    play_trick,
    power_deal,
    power_match,
    rules,
    run,
    view_cards,
    win_bidding,
)
from thousand import Game, Rules

# --- 12.7 Dark play (§9.1) ----------------------------------------------------------------

# Seat 1 (first hand) can take every trick and declare hearts: 120 + 100 = 220.
DARK_HANDS = [None, "AS AC AD AH TS KH QH", None]
DARK_TALON = "TH TC TD"


def dark_game(
    hands: list[str | None] = DARK_HANDS, talon: str = DARK_TALON, **options: Any
) -> Game:
    options.setdefault("dark", True)
    return new_game(hands, talon, **options)


def play_dark_sweep(g: Game) -> dict[str, Any]:
    """Seat 1 plays dark, takes the talon, gives away two tens and declares hearts."""
    run(g, "dark", "pass", "pass")
    give(g, "TC", "TD")
    g.apply("contract 120")
    assert play_trick(g, "AS") == 1
    assert play_trick(g, "KH declare") == 1
    return finish(g)


@covers("dark", False, True)
def test_dark_choice_comes_before_seeing_the_cards():
    g = dark_game(dark=False)
    assert g.phase == "bidding" and "dark" not in legal(g)
    g = dark_game()
    assert g.phase == "dark" and g.current_player == 1
    assert sorted(legal(g)) == ["dark", "look"]
    assert g.view(1)["hand"] == [] and not view_cards(g.view(1))  # not looked yet
    assert g.view(2)["legal"] == [] and len(g.view(2)["hand"]) == 7
    g.apply("look")
    assert g.phase == "bidding" and g.current_player == 2 and len(g.view(1)["hand"]) == 7
    assert 105 in bids(g)


@covers("dark", True)
def test_dark_bid_hidden_talon_face_down_passes_fixed_contract():
    g = dark_game()
    g.apply("dark")
    view = g.view(2)
    assert view["dark"] and view["high_bid"] == 120 and view["bids"] == [[1, 120]]
    assert bids(g) == []  # without dark_undarken the opponents can only pass
    run(g, "pass", "pass")
    assert g.view(None)["declarer"] == 1 and g.view(1)["bid"] == 120
    assert g.view(2)["talon"] is None and not g.view(2)["talon_shown"]
    assert sorted(g.view(1)["talon"]) == ["TC", "TD", "TH"]
    give(g, "TC", "TD")
    assert g.view(2)["given"] == [["TC", 2], [None, 0]]
    assert g.view(0)["given"] == [[None, 2], ["TD", 0]]
    assert contracts(g) == [120]
    assert "writeoff" not in legal(g)  # dark_write_off is off


@covers("dark", True)
@covers("dark_cap_240", False, True)
def test_dark_made_counts_double_the_hand_or_240():
    """Lead's reading: made → +2 × the declarer's hand total, or exactly 240 with the cap."""
    row = play_dark_sweep(dark_game())
    assert row["totals"][1] == 220 and row["result"] == "made" and row["dark"]
    assert row["deltas"][1] == 440 and "dark" in row["marks"][1]
    row = play_dark_sweep(dark_game(dark_cap_240=True))
    assert row["deltas"][1] == 240


@covers("dark", True)
@covers("dark_double_bolt", False, True)
def test_dark_failed_costs_240_and_double_bolt():
    for double in (False, True):
        deal = power_deal(2)
        g = Game.new(rules=rules(dark=True, dark_double_bolt=double), seed=1, deal=deal)
        run(g, "dark", "pass", "pass", "give TH 2", "give JS 0", "contract 120")
        row = finish(g)
        assert row["result"] == "failed" and row["deltas"][1] == -240
        assert row["marks"][1].count("bolt") == (2 if double else 1)
        assert row["marks"][0].count("bolt") == 1  # only the dark player's bolt doubles


@covers("dark_min_score", None, 240)
def test_dark_min_score():
    assert dark_game().phase == "dark"
    assert dark_game(dark_min_score=240).phase == "bidding"
    assert dark_game(dark_min_score=240, scores=[0, 235, 0]).phase == "bidding"
    assert dark_game(dark_min_score=240, scores=[0, 240, 0]).phase == "dark"


@covers("dark", True)
def test_no_dark_on_the_barrel():
    assert dark_game(scores=[0, 880, 0]).phase == "bidding"


@covers("dark_undarken", False, True)
def test_dark_undarken():
    """Lead's reading: an opponent holding a marriage may bid 125, which cancels dark."""
    hands = ["9S JS QS 9C JC 9D JD", "AS AC AD AH TS TC TD", "KH QH KC TH QC QD KD"]
    g = new_game(hands, "KS 9H JH", dark=True)
    g.apply("dark")
    assert bids(g) == []
    g = new_game(hands, "KS 9H JH", dark=True, dark_undarken=True)
    g.apply("dark")
    assert bids(g)[0] == 125  # seat 2 holds three marriages
    g.apply("bid 125")
    assert not g.view(None)["dark"]
    assert bids(g) == []  # seat 0 holds no marriage: 130 is above its cap
    run(g, "pass")
    assert g.current_player == 1  # the dark player may answer the normal bidding
    g.apply("pass")
    assert g.view(None)["declarer"] == 2 and g.view(0)["talon_shown"]
    assert sorted(g.view(0)["talon"]) == ["9H", "JH", "KS"]
    # Without a marriage, dark_undarken gives no bid.
    plain = ["KH QH KC TH QC QD KD", "AS AC AD AH TS TC TD", "9S JS QS 9C JC 9D JD"]
    g = new_game(plain, "KS 9H JH", dark=True, dark_undarken=True)
    g.apply("dark")
    assert bids(g) == []


@covers("dark_write_off", False, True)
def test_dark_write_off():
    g = dark_game()
    run(g, "dark", "pass", "pass")
    assert "writeoff" not in legal(g)
    g = dark_game(dark_write_off=True)
    run(g, "dark", "pass", "pass")
    assert "writeoff" in legal(g)
    g.apply("writeoff")
    assert last_row(g)["deltas"] == [60, -240, 60]


@covers("cross", True)
def test_no_cross_in_dark_play():
    g = dark_game(cross=True)
    run(g, "dark", "pass", "pass")
    assert "cross" not in legal(g)
    g = dark_game(cross=True)
    run(g, "look", "pass", "pass")
    assert "cross" in legal(g)


# --- 12.7 The golden round (§9.2) ---------------------------------------------------------


def golden_rows(strong: list[int], **options: Any) -> tuple[Game, list[dict[str, Any]]]:
    """Golden hands from :func:`power_deal`: hand k's first hand declares 120 and
    ``strong[k]`` takes every trick."""
    players = options.get("players", 3)
    declarers = [(k + 1) % players for k in range(len(strong))]
    return power_match(strong, declarers=declarers, golden=True, **options)


@covers("golden", False, True)
def test_golden_round_is_compulsory_120_with_a_hidden_talon():
    g = Game.new(rules=rules(), seed=1, deal=power_deal(1))
    assert g.phase == "bidding"
    g = Game.new(rules=rules(golden=True), seed=1, deal=power_deal(1))
    view = g.view(2)
    assert g.phase == "talon" and g.current_player == 1 and view["golden"]
    assert view["declarer"] == 1 and view["bid"] == 120 and view["bids"] == [[1, 120]]
    assert view["talon"] is None and not view["talon_shown"]
    assert "writeoff" in legal(g)  # a golden declarer may write off, doubled
    give(g, "JS", "JC")
    assert contracts(g) == [120] and "writeoff" in legal(g)


@covers("golden", True)
def test_golden_round_doubles_every_score_for_n_hands():
    # Hand 3: seat 0 declares and fails while seat 1 takes every trick.
    _, rows = golden_rows([1, 2, 1, 1])
    assert [r["golden"] for r in rows] == [True, True, True, False]
    assert [r["declarer"] for r in rows] == [1, 2, 0, 1]
    assert rows[0]["deltas"] == [0, 240, 0]
    assert rows[1]["deltas"] == [0, 0, 240]
    assert all("golden" in m for r in rows[:3] for m in r["marks"])
    # Seat 0: −2 × 120, and its third bolt costs 2 × 120 as well.
    assert rows[2]["deltas"] == [-480, 240, 0]
    assert "bolt_penalty" in rows[2]["marks"][0]
    # A normal hand again: the declarer sits on 100; seat 2's third bolt costs 120.
    assert rows[3]["bid"] == 100 and rows[3]["deltas"] == [0, 120, -120]


@covers("golden", True)
def test_golden_round_doubles_the_defenders_points():
    g = Game.new(rules=rules(golden=True), seed=1, deal=make_deal(ROUNDING_DEAL, ROUNDING_TALON))
    give(g, "9H", "QC")
    row = finish(g, "contract 120")
    assert row["totals"] == [73, 23, 24]
    assert row["deltas"] == [150, -240, 50]


@covers("golden_marriage_not_doubled", False, True)
def test_golden_marriage_not_doubled():
    """A defender's marriage counts once in the golden round; its card points double."""
    deltas = {}
    for once in (False, True):
        g = Game.new(
            rules=rules(golden=True, golden_marriage_not_doubled=once),
            seed=1,
            deal=make_deal(CAPTURE, CAPTURE_TALON),
        )
        give(g, "9S", "JS")
        g.apply("contract 120")
        assert play_trick(g, "AS") == 1
        assert play_trick(g, "KH declare") == 2
        assert play_trick(g, "KD declare") is not None  # seat 2 declares diamonds (80)
        row = finish(g)
        assert row["marriage_points"][2] == 80 and row["card_points"][2] == 73
        deltas[once] = row["deltas"][2]
    assert deltas[False] == 2 * 155  # 73 + 80 = 153, rounded to 155, doubled
    assert deltas[True] == 225  # 2 × 73 + 80 = 226, rounded


@covers("golden_double_bolt", False, True)
def test_golden_double_bolt():
    for double in (False, True):
        g, rows = golden_rows([1], golden_double_bolt=double)
        assert rows[0]["marks"][0].count("bolt") == (2 if double else 1)
        assert g.view(None)["bolts"] == ([2, 0, 2] if double else [1, 0, 1])


# Nobody makes the golden 120: in each hand a defender takes every trick.
FAILED_GOLDEN = [2, 0, 2]


@covers("golden_reset", False, True)
def test_golden_reset():
    g, rows = golden_rows(FAILED_GOLDEN)
    assert all(r["result"] == "failed" for r in rows)
    assert g.scores != [0, 0, 0]
    kept = list(g.scores)
    g, rows = golden_rows(FAILED_GOLDEN, golden_reset=True)
    assert [r["scores"] for r in rows[:2]] == [
        r["scores"] for r in golden_rows(FAILED_GOLDEN)[1][:2]
    ]
    assert g.scores == [0, 0, 0] and rows[2]["scores"] == [0, 0, 0]
    assert "golden_reset" in rows[2]["marks"][0]
    assert kept != g.scores
    # If somebody made it, nothing is reset.
    g, rows = golden_rows([1, 0, 2], golden_reset=True)
    assert rows[0]["result"] == "made" and g.scores != [0, 0, 0]


@covers("golden_repeat", False, True)
def test_golden_repeat():
    for repeat in (False, True):
        g, _ = golden_rows(FAILED_GOLDEN, golden_repeat=repeat)
        view = g.view(None)
        assert view["golden"] == repeat
        assert g.phase == ("talon" if repeat else "bidding")
        if repeat:
            assert view["declarer"] == view["first_hand"] == 1 and view["bid"] == 120
    # Somebody made it: the round is not played again.
    g, _rows = golden_rows([1, 0, 2], golden_repeat=True)
    assert not g.view(None)["golden"] and g.phase == "bidding"


@covers("golden_raise", False, True)
def test_golden_raise():
    g = Game.new(rules=rules(golden=True), seed=1, deal=power_deal(1))
    give(g, "JS", "JC")
    assert contracts(g) == [120]
    g = Game.new(rules=rules(golden=True, golden_raise=True), seed=1, deal=power_deal(1))
    give(g, "JS", "JC")
    assert contracts(g)[0] == 120 and max(contracts(g)) == 120  # no marriage: cap 120
    g = Game.new(rules=rules(golden=True, golden_raise=True), seed=1, deal=make_deal(*DARK_DEAL))
    give(g, "TC", "TD")
    assert contracts(g)[:3] == [120, 125, 130] and max(contracts(g)) == 220


DARK_DEAL = (DARK_HANDS, DARK_TALON)


@covers("golden", True)
def test_golden_round_passes_face_down():
    """Seed 004: «При игре «втемную» и на золотом коне карты сносятся рубашкой вверх»."""
    g = Game.new(rules=rules(golden=True), seed=1, deal=power_deal(1))
    give(g, "JS", "JC")
    assert g.view(0)["given"] == [[None, 2], ["JC", 0]]


@covers("hidden_talon_at_100", True)
def test_hidden_talon_at_100_passes_face_down():
    """Seed 004: «прикуп не вскрывается, если игрок заявил обязательную ставку в 100 очков
    ... Снос карт в этом случае также осуществляется рубашкой вверх»."""
    g = new_game(PLAIN, PLAIN_TALON)
    run(g, "pass", "pass")
    give(g, "KS", "KC")  # both from the hidden talon
    assert "KS" not in view_cards(g.view(0))


# --- 12.7 Table size: two and four players (§10, §11) -------------------------------------

# Two players, dealer 0: seat 1 sits on 100. Talon 0 is AH KH, talon 1 is QS KS.
# Seat 1 discards QD KD; seat 0 follows every lead and takes only the last trick (KC on 9C).
TWO = ["9H JH QH 9D JD JC QC KC 9S JS", "TH AD TD AC TC 9C AS TS QD KD"]
TWO_TALON = "AH KH QS KS"


def two_player_hand(**options: Any) -> tuple[Game, dict[str, Any]]:
    g = new_game(TWO, TWO_TALON, **options)
    g.apply("pass")
    assert g.phase == "choose" and g.current_player == 1
    run(g, "take 0", "discard QD", "discard KD", "contract 100")

    def policy(options: list[str]) -> str:
        return highest_play(options) if g.current_player == 1 else lowest_play(options)

    row = finish(g, policy=policy)
    return g, row


@covers("players", 3, 2)
def test_two_players_deal_talons_and_discards():
    g = new_game(TWO, TWO_TALON)
    assert Rules.preset("classic").players == 3 and g.view(0)["players"] == 2
    assert [len(g.view(s)["hand"]) for s in (0, 1)] == [10, 10]
    assert g.view(0)["talon_size"] == 2 and g.current_player == 0  # left of the first hand
    g.apply("pass")
    assert g.phase == "choose" and sorted(legal(g)) == ["take 0", "take 1"]
    g.apply("take 1")
    assert sorted(g.view(1)["talon"]) == ["KS", "QS"] and len(g.view(1)["hand"]) == 12
    assert g.phase == "talon" and all(a.startswith("discard") or a == "writeoff" for a in legal(g))
    assert g.view(1)["parting"] == [None, None] and g.view(0)["parting"] == [None, None]
    run(g, "discard QD")
    assert g.view(1)["parting"] == [None] and g.phase == "talon"
    run(g, "discard KD")
    assert g.view(1)["parting"] == []
    assert sorted(g.view(1)["discarded"]) == ["KD", "QD"]
    assert g.view(0)["discarded"] is None
    assert "QD" not in view_cards(g.view(0)) and "AH" not in view_cards(g.view(0))
    assert g.phase == "contract" and len(g.view(1)["hand"]) == 10


@covers("players", 2)
@covers("two_player_second_talon", "dead", "last_trick")
def test_two_player_second_talon():
    _, dead = two_player_hand()
    assert dead["tricks"] == [1, 9]
    # Discards (QD KD, 7) count for the declarer; the other talon (QS KS, 7) is dead.
    assert dead["card_points"] == [4, 109] and sum(dead["card_points"]) == 113
    assert dead["deltas"] == [5, 100]
    _, last = two_player_hand(two_player_second_talon="last_trick")
    assert last["card_points"] == [11, 109] and sum(last["card_points"]) == 120
    assert last["deltas"] == [10, 100]


@covers("two_player_talon_choice", "blind", "seen")
def test_two_player_talon_choice():
    g = new_game(TWO, TWO_TALON)
    g.apply("pass")
    assert g.view(1)["talons"] is None and g.view(1)["talon"] is None
    assert not {"AH", "KH", "QS", "KS"} & view_cards(g.view(1))
    g = new_game(TWO, TWO_TALON, two_player_talon_choice="seen")
    g.apply("pass")
    talons = g.view(1)["talons"]
    assert [sorted(t) for t in talons] == [["AH", "KH"], ["KS", "QS"]]
    assert g.view(0)["talons"] is None and not {"AH", "KH", "QS", "KS"} & view_cards(g.view(0))
    g.apply("take 1")
    assert g.view(1)["talons"] is None


@covers("players", 2)
def test_two_player_write_off_gives_the_opponent_60():
    g = new_game(TWO, TWO_TALON)
    run(g, "pass", "take 0", "writeoff")
    assert last_row(g)["deltas"] == [60, -100]


# Four players, dealer 0 sits out: first hand 1, then 2 and 3.
FOUR = ["", "9S JS QS 9C JC QC 9D", None, None]


def four_player_writeoff(talon: str, **options: Any) -> dict[str, Any]:
    g = new_game(FOUR, talon, dealer=0, **options)
    if options.get("golden"):
        assert g.phase == "talon"
    else:
        run(g, "pass", "pass")
    g.apply("writeoff")
    return last_row(g)


@covers("players", 4)
def test_four_players_dealer_sits_out():
    g = new_game(FOUR, "KH QH 9H", dealer=0)
    view = g.view(0)
    assert view["players"] == 4 and view["sitting_out"] == 0 and view["active"] == [1, 2, 3]
    assert view["hand"] == [] and view["hand_sizes"] == [0, 7, 7, 7]
    assert g.current_player == 2
    run(g, "pass", "pass")
    assert opponents(g) == [2, 3] and g.view(None)["parting"] == [2, 3]
    give(g, "9H", "KH")
    row = finish(g, "contract 100")
    assert row["tricks"][0] == 0 and sum(row["tricks"]) == 8
    assert sum(row["card_points"]) == 120
    # The dealer scores the talon (KH QH 9H: 7, plus the heart marriage 100) and no bolt.
    assert row["deltas"][0] == 107 and row["marks"][0] == ["talon"]
    # The deal passes on: seat 1 deals and sits out; seat 0 plays.
    assert g.view(None)["sitting_out"] == 1 and len(g.view(0)["hand"]) == 7


@covers("dealer_score", "talon_points", "flat_30", "aces_50")
def test_dealer_score():
    talon = "KH QH AS"  # 18 points, the heart marriage, one ace
    assert four_player_writeoff(talon)["deltas"] == [118, -100, 50, 50]
    assert four_player_writeoff(talon, dealer_score="flat_30")["deltas"][0] == 30
    assert four_player_writeoff(talon, dealer_score="aces_50")["deltas"][0] == 150
    assert four_player_writeoff("9H JH AS", dealer_score="aces_50")["deltas"][0] == 50


@covers("dealer_score", "flat_30")
def test_dealer_flat_30_doubles_in_the_golden_round():
    row = four_player_writeoff_golden("KH QH AS", dealer_score="flat_30")
    assert row["deltas"][0] == 60


def four_player_writeoff_golden(talon: str, **options: Any) -> dict[str, Any]:
    g = new_game(FOUR, talon, dealer=0, golden=True, **options)
    assert g.phase == "talon" and g.view(None)["declarer"] == 1
    give(g, *talon.split()[:2])
    return finish(g, "contract 120")


@covers("talon_half_marriage", False, True)
def test_talon_half_marriage():
    talon = "KH AS QD"  # 18 points; a lone king of hearts and a lone queen of diamonds
    assert four_player_writeoff(talon)["deltas"][0] == 18
    assert four_player_writeoff(talon, talon_half_marriage=True)["deltas"][0] == 18 + 50 + 40
    # A whole marriage counts once, not as two halves.
    assert four_player_writeoff("KH QH 9H", talon_half_marriage=True)["deltas"][0] == 107


@covers("players", 4)
def test_four_players_dealer_on_the_barrel_keeps_the_attempt():
    deals = [
        make_deal(FOUR, "KH QH AS", dealer=0),
        make_deal(["9S JS QS KS 9C JC QC", "", None, None], None, dealer=1),
    ]
    g = Game.new(rules=rules(players=4), seed=1, deal=deals, scores=[880, 0, 0, 0])
    run(g, "pass", "pass", "writeoff")
    row = last_row(g)
    assert row["deltas"][0] == 0 and g.scores[0] == 880  # on the barrel: no talon points
    assert barrel(g, 0)["hands"] == 0  # sitting out does not use up an attempt
    win_bidding(g, 2)
    g.apply("writeoff")
    assert barrel(g, 0)["hands"] == 1
