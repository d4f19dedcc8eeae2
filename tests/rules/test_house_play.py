"""Play: marriages, trumps and following suit (RULES.md §12.2, §12.10).

See house_coverage.py for how each test registers what it covers.
"""

from __future__ import annotations

from typing import Any

import pytest
from house_coverage import covers
from house_helpers import (
    CAPTURE,
    CAPTURE_TALON,
    contracts,
    finish,
    give,
    legal,
    new_game,
    play_trick,
    plays,
    run,
)
from thousand import Game, IllegalAction

# --- 12.2 Play -----------------------------------------------------------------------------

# Seat 1 holds the heart marriage and wins the first trick with TS (AS is its own).
ACES = ["9S QS KS 9C JC 9D JD", "AS AC AD AH TS KH QH", "QC KC TC QD KD TD 9H"]
ACES_TALON = "TH JS JH"


def aces_game(**options: Any) -> Game:
    g = new_game(ACES, ACES_TALON, **options)
    run(g, "pass", "pass")
    give(g, "JS", "JH")
    g.apply("contract 100")
    return g


@covers("marriage_first_lead", False, True)
def test_marriage_first_lead():
    g = aces_game()
    assert "play KH" in legal(g) and "play KH declare" not in legal(g)
    with pytest.raises(IllegalAction, match="trick"):
        g.apply("play KH declare")
    g = aces_game(marriage_first_lead=True)
    assert "play KH declare" in legal(g)
    g.apply("play KH declare")
    view = g.view(0)
    assert view["trump"] == "H" and view["marriages"] == [[1, "H"]]
    assert view["marriage_points"] == [0, 100, 0]


def test_marriage_needs_a_trick_by_default_and_counts_after_one():
    g = aces_game()
    assert play_trick(g, "TS") == 1
    assert "play KH declare" in legal(g)
    play_trick(g, "KH declare")
    assert g.view(2)["trump"] == "H" and g.view(2)["marriage_points"] == [0, 100, 0]


def capture_hand(hands: list[str], **options: Any) -> dict[str, Any]:
    g = new_game(hands, CAPTURE_TALON, **options)
    run(g, "pass", "pass")
    give(g, "9S", "JS")
    g.apply("contract 100")
    assert play_trick(g, "AS") == 1
    assert play_trick(g, "KH declare") == 2  # seat 2's AH takes the king
    assert play_trick(g, "JD") == 1
    g.apply("play QH")
    return finish(g)


@covers("marriage_needs_capture", False, True)
def test_marriage_needs_capture_king_and_queen_both_lost():
    kept = capture_hand(CAPTURE)
    lost = capture_hand(CAPTURE, marriage_needs_capture=True)
    # Seat 2's TH took the queen too: neither card of the marriage is in seat 1's tricks.
    assert kept["marriage_points"] == [0, 100, 0]
    assert lost["marriage_points"] == [0, 0, 0]
    assert lost["card_points"] == kept["card_points"]
    assert lost["totals"][1] == kept["totals"][1] - 100


@covers("marriage_needs_capture", True)
def test_marriage_needs_capture_one_card_taken_is_enough():
    """Seed 004: «Если марьяж объявлен, но ни король, ни дама из этого марьяжа не взята
    игроком, то очки ... не начисляются» — taking one of them keeps the marriage."""
    hands = [CAPTURE[0], CAPTURE[1].replace("TC", "TH"), CAPTURE[2].replace("TH", "TC")]
    row = capture_hand(hands, marriage_needs_capture=True)
    # Seat 2 has no heart left, so seat 1's QH wins: the queen is in seat 1's tricks.
    assert row["tricks"][1] >= 3
    assert row["marriage_points"] == [0, 100, 0]


@covers("ace_marriage", False, True)
def test_ace_marriage():
    g = aces_game()
    assert max(contracts_after(ACES, ACES_TALON)) == 220  # 120 + hearts only
    assert play_trick(g, "TS") == 1
    assert "play AC declare" not in legal(g)
    with pytest.raises(IllegalAction):
        g.apply("play AC declare")

    assert max(contracts_after(ACES, ACES_TALON, ace_marriage=True)) == 300  # 420, max_bid
    g = aces_game(ace_marriage=True)
    assert "play AC declare" not in legal(g)  # not before taking a trick
    assert play_trick(g, "TS") == 1
    assert {"play AS declare", "play AC declare", "play AD declare", "play AH declare"} <= set(
        legal(g)
    )
    play_trick(g, "AC declare")
    view = g.view(2)
    assert view["marriages"] == [[1, "A"]] and view["marriage_points"] == [0, 200, 0]
    assert view["trump"] is None  # an ace marriage sets no trump (ace_marriage_trump none)
    row = finish(g)
    assert row["marriage_points"][1] == 200


def contracts_after(hands: list[str], talon: str, **options: Any) -> list[int]:
    g = new_game(hands, talon, **options)
    run(g, "pass", "pass")
    give(g, "JS", "JH")
    return contracts(g)


@covers("ace_marriage", True)
def test_ace_marriage_lost_once_an_ace_won_a_trick():
    g = aces_game(ace_marriage=True)
    assert play_trick(g, "AS") == 1
    assert not [a for a in legal(g) if a.startswith("play A") and a.endswith("declare")]


@covers("ace_marriage_trump", "none", "cancel", "last_ace")
def test_ace_marriage_trump():
    trumps = {}
    for mode in ("none", "cancel", "last_ace"):
        g = aces_game(ace_marriage=True, ace_marriage_trump=mode)
        seen = []
        for lead in ("TS", "KH declare", "AC declare", "AD", "AH", "AS"):
            assert play_trick(g, lead) == 1
            seen.append(g.view(0)["trump"])
        trumps[mode] = seen
    assert trumps["none"] == [None, "H", "H", "H", "H", "H"]
    assert trumps["cancel"] == [None, "H", None, None, None, None]
    # The last of the four aces to be played shows the trump suit.
    assert trumps["last_ace"] == [None, "H", None, None, None, "S"]


# Seat 1 wins trick 1 with AH and declares spades; seat 2 takes KS with AS and leads,
# holding TS (a trump it did not declare) besides clubs and diamonds.
FOREIGN = ["9S JS KC QD KD KH QH", "AH KS QS AC TC AD TD", "AS TS 9C JC QC 9D JD"]
FOREIGN_TALON = "TH 9H JH"


def foreign_trump_lead(**options: Any) -> list[str]:
    g = new_game(FOREIGN, FOREIGN_TALON, **options)
    run(g, "pass", "pass")
    give(g, "9H", "JH")
    g.apply("contract 100")
    assert play_trick(g, "AH") == 1
    assert play_trick(g, "KS declare") == 2
    assert g.current_player == 2 and g.view(2)["trump"] == "S"
    return plays(g)


@covers("no_lead_foreign_trump", False, True)
def test_no_lead_foreign_trump():
    assert "TS" in foreign_trump_lead()
    leads = foreign_trump_lead(no_lead_foreign_trump=True)
    assert "TS" not in leads and leads == ["9C", "9D", "JC", "JD", "QC"]


@covers("must_lead_trump", False, True)
def test_must_lead_trump():
    assert len(foreign_trump_lead()) == 6
    assert foreign_trump_lead(must_lead_trump=True) == ["TS"]


# (a) Seat 1 leads QD: seat 2 holds JD and KD, seat 0 holds 9D and AD.
BEAT = ["9D AD QS KS QC KC KH", "QD AS TS AC TC AH TH", "JD KD 9S JS 9C JC 9H"]
BEAT_TALON = "TD QH JH"


@covers("must_beat", False, True)
def test_must_beat_in_the_suit_led():
    for beat in (False, True):
        g = new_game(BEAT, BEAT_TALON, must_beat=beat)
        run(g, "pass", "pass")
        give(g, "JH", "QH")
        run(g, "contract 100", "play QD")
        assert plays(g) == (["KD"] if beat else ["JD", "KD"])
        g.apply("play KD")
        assert plays(g) == (["AD"] if beat else ["9D", "AD"])


# (b), (c) Seat 1 declares hearts; seat 2 takes it with AH and leads. Seat 0 has only
# spades and JH left; seat 1 has QH, 9H and diamonds, no club.
OVER = ["JH TH 9S JS QS KS TS", "KH QH 9H AC 9D AD AS", "AH JD 9C JC QC TC QD"]
OVER_TALON = "KC KD TD"


def over_trump_position(**options: Any) -> Game:
    g = new_game(OVER, OVER_TALON, **options)
    run(g, "pass", "pass", "give KC 2", "give AS 0", "contract 100")
    assert play_trick(g, "AC", "9C", "9S") == 1
    assert play_trick(g, "KH declare", "AH", "TH") == 2
    return g


@covers("must_beat", False, True)
def test_must_beat_over_trump_unless_the_trick_is_trumped():
    for beat in (False, True):
        g = over_trump_position(must_beat=beat)
        # (b) A club: seat 0 trumps with JH; seat 1, void, must over-trump with QH.
        b = g.copy()
        run(b, "play JC", "play JH")
        assert plays(b) == (["QH"] if beat else ["9H", "QH"])
        # (c) A diamond: seat 0 trumps; seat 1 follows suit with any diamond, since
        # the trick is trumped and beating the JD would not win it.
        c = g.copy()
        run(c, "play JD", "play JH")
        assert plays(c) == ["9D", "AD", "KD", "TD"]


# --- 12.10 Trump timing --------------------------------------------------------------------

# Seat 1 declares hearts, then spades; seat 2 has no spade left but the 9 of hearts.
TIMING = ["9S JS TS AS KD TD AD", "AC TC KH QH AH KS QS", "9H JH 9C JC QC KC QD"]
TIMING_TALON = "TH JD 9D"


def test_a_second_marriage_is_trump_from_its_own_trick():
    g = new_game(TIMING, TIMING_TALON)
    run(g, "pass", "pass", "give JD 2", "give 9D 0", "contract 100")
    assert play_trick(g, "AC") == 1
    assert play_trick(g, "KH declare") == 1 and g.view(2)["trump"] == "H"
    g.apply("play KS declare")
    assert g.view(2)["trump"] == "S" and g.view(2)["marriage_points"] == [0, 140, 0]
    # Void in spades, seat 2 need not play the old trump, and the 9 of hearts does not win.
    assert plays(g) == ["9C", "9H", "JC", "JD", "QC", "QD"]
    assert play_trick(g, "9H", "9S") == 1
