"""Every house rule of RULES.md §12, the presets, and random games under every table size.

Each option value has at least one test from an explicit deal that compares
it with the default, so the test fails if the engine ignores the option.
Tests register what they cover with ``@covers(option, values…)``;
``test_every_option_value_has_a_behaviour_test`` walks ``Rules.options()``
and fails for any option or listed value nobody tests.

Seats in the 3-player deals: dealer 0, first hand 1 (sits on 100), bidding
opens with seat 2. Where the lead's reading of an ambiguous rule is tested,
the test's docstring says so.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest
from house_helpers import (
    DECK,
    check_views,
    finish,
    give,
    highest_play,
    legal,
    lowest_play,
    make_deal,
    new_game,
    opponents,
    play_power_hand,
    play_trick,
    plays,
    points,
    power_deal,
    rules,
    run,
    texts,
    view_cards,
    win_bidding,
)
from thousand import Game, IllegalAction, Rules

# --- coverage registry ---------------------------------------------------------------------

COVERED: dict[str, set[tuple[str, Any]]] = defaultdict(set)
COVERED_BY: dict[str, set[str]] = defaultdict(set)


def _key(value: Any) -> tuple[str, Any]:
    # True == 1 for a set, so the type is part of the key.
    return type(value).__name__, value


def covers(option: str, *values: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Record that the decorated test shows ``option`` behaving as RULES.md says for ``values``."""

    def mark(test: Callable[..., Any]) -> Callable[..., Any]:
        for value in values:
            COVERED[option].add(_key(value))
        COVERED_BY[option].add(test.__name__)
        return test

    return mark


# The values RULES.md §12 lists for the options that take a free number.
FREE_VALUES: dict[str, tuple[Any, ...]] = {
    "max_bid": (300, 200),
    "silence_below": (None, -120, 0),
    "penalty": (120, 100),
    "write_off_limit": (None, 2, 3),
    "redeal_talon_below": (5, None, 4, 15),
    "redeal_hand_below": (13, None, 14, 15),
    "barrel_attempts": (3, 2),
    "bomb": (0, 1, 2),
    "lock_at": (None, 800),
    "dark_min_score": (None, 240),
}


def required_values(option: dict[str, Any]) -> list[Any]:
    if option["kind"] == "bool":
        return [False, True]
    if option["choices"]:
        return list(option["choices"]) + ([None] if option["optional"] else [])
    return list(FREE_VALUES[option["id"]])


def last_row(game: Game) -> dict[str, Any]:
    return game.sheet[-1]


def bids(game: Game) -> list[int]:
    return [int(a.split()[1]) for a in legal(game) if a.startswith("bid ")]


def contracts(game: Game) -> list[int]:
    return [int(a.split()[1]) for a in legal(game) if a.startswith("contract ")]


# Seat 2 opens the bidding. It holds no marriage here (KH, QH sit with seat 0).
PLAIN = ["KH QH 9S JS 9C JC 9D", "AS TS AC TC AD TD AH", "QS QC QD JD 9H JH TH"]
PLAIN_TALON = "KS KC KD"
# Seat 2 holds the diamond marriage: cap 120 + 80 = 200.
MARRIED = ["KH QH 9S JS 9C JC 9D", "AS TS AC TC AD TD AH", "QS QC QD KD JD JH TH"]
MARRIED_TALON = "KS KC 9H"


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


# Seat 1 wins trick 1 with AS and declares hearts with the king, which seat 2's AH
# takes; seat 2 leads JD, seat 1 wins it with AD and leads the queen of trumps.
CAPTURE = ["QS KS 9C JC 9D 9H JH", "AS KH QH AD TS AC TC", "AH TH JD QD KD TD KC"]
CAPTURE_TALON = "9S JS QC"


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


# --- 12.3 Redeal claims --------------------------------------------------------------------

STRONG = "AS TS AC TC AD TD AH"


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


# --- 12.4 Scoring ---------------------------------------------------------------------------


def power_match(
    strong: list[int],
    declarers: list[int] | None = None,
    players: int = 3,
    contract: int = 120,
    **options: Any,
) -> tuple[Game, list[dict[str, Any]]]:
    """Hands from :func:`power_deal`: in hand k, ``strong[k]`` takes every trick and
    ``declarers[k]`` (the strong seat by default) wins the bidding and plays ``contract``.
    Dealer 0 first."""
    declarers = declarers or strong
    scores = options.pop("scores", None)
    deals = [power_deal(s, dealer=k % players, players=players) for k, s in enumerate(strong)]
    g = Game.new(rules=rules(players=players, **options), seed=1, deal=deals, scores=scores)
    rows = []
    for s, d in zip(strong, declarers, strict=True):
        rows.append(play_power_hand(g, d, s, contract=contract))
    return g, rows


# Highest-card play from this deal leaves the defenders 73 (seat 0) and 24 (seat 2).
ROUNDING_DEAL = ["JS QS AS 9C JD AD AH", "KS KC TC QD 9H QH TH", "9S TS JC AC 9D TD JH"]
ROUNDING_TALON = "KH QC KD"


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


# --- 12.5 Write-off -----------------------------------------------------------------------


def same_deal(times: int) -> list[dict[str, Any]]:
    return [make_deal(PLAIN, PLAIN_TALON, dealer=k % 3) for k in range(times)]


def declare(g: Game, seat: int, bid: int | None = None) -> None:
    """``seat`` wins the bidding; the game waits in the talon phase."""
    win_bidding(g, seat, bid)
    assert g.phase == "talon" and g.current_player == seat


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


# --- 12.6 Barrel and match ----------------------------------------------------------------


def barrel(g: Game, seat: int) -> dict[str, Any]:
    return dict(g.view(None)["barrel"][seat])


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
    run(g, "discard QD", "discard KD")
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
    assert opponents(g) == [2, 3]
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


# --- Rules: the option list, presets, and rules inside saved games -------------------------

# Every option id RULES.md names, with its default (the first value of its row).
RULES_MD_DEFAULTS: dict[str, Any] = {
    # 12.1
    "bid_cap": "hand_marriages",
    "max_bid": 300,
    "no_jump_bids": False,
    "silence_below": None,
    "hidden_talon_at_100": True,
    "pass_face_down": False,
    "barrel_min_bid": 120,
    # 12.2
    "marriage_first_lead": False,
    "marriage_needs_capture": False,
    "ace_marriage": False,
    "ace_marriage_trump": "none",
    "no_lead_foreign_trump": False,
    "must_lead_trump": False,
    # 12.3
    "redeal_talon_below": 5,
    "redeal_two_nines_talon": True,
    "redeal_three_nines_talon": False,
    "redeal_three_jacks_talon": False,
    "redeal_hand_below": 13,
    "redeal_four_nines": True,
    "redeal_four_nines_after_pass": True,
    "redeal_four_jacks": False,
    "redeal_only_at_100": False,
    "redeal_penalty_dealer": False,
    # 12.4
    "rounding": "nearest5",
    "declarer_rounding": False,
    "penalty": 120,
    "bolt_rule": "no_tricks",
    "bolt_mode": "total",
    "no_bolt_on_own_game": False,
    "four_nines_bonus": False,
    # 12.5
    "write_off": True,
    "write_off_flat_60": False,
    "write_off_keeps_score": False,
    "write_off_limit": None,
    "write_off_third_penalty": False,
    "write_off_on_barrel": False,
    "cross": False,
    # 12.6
    "barrel_at": 880,
    "barrel_attempts": 3,
    "barrel_three_falls_zero": True,
    "one_on_barrel": True,
    "barrel_fall_to": "minus_penalty",
    "target_1001": False,
    "samosval": False,
    "samosval_negative": False,
    "reverse_barrel": False,
    "intermediate_barrel_380": False,
    # 12.7 with 9.1, 9.2, 10, 11
    "dark": False,
    "dark_min_score": None,
    "dark_undarken": False,
    "dark_cap_240": False,
    "dark_double_bolt": False,
    "dark_write_off": False,
    "golden": False,
    "golden_reset": False,
    "golden_repeat": False,
    "golden_raise": False,
    "golden_double_bolt": False,
    "golden_marriage_not_doubled": False,
    "players": 3,
    "dealer_score": "talon_points",
    "talon_half_marriage": False,
    "two_player_second_talon": "dead",
    "two_player_talon_choice": "blind",
    # 12.9
    "bid_step": 5,
    "must_beat": False,
    "lock_at": None,
    "bomb": 0,
}

# Values RULES.md lists for each option (besides the default) that must be accepted.
RULES_MD_VALUES: dict[str, tuple[Any, ...]] = {
    "bid_cap": ("none",),
    "max_bid": (200, 250, 420),
    "silence_below": (-120, 0),
    "barrel_min_bid": (121, 125),
    "ace_marriage_trump": ("cancel", "last_ace"),
    "redeal_talon_below": (None, 4),
    "redeal_hand_below": (None, 14, 15),
    "rounding": ("by_last_digit", "none", "nearest10"),
    "bolt_rule": ("zero_points",),
    "bolt_mode": ("consecutive", "off"),
    "write_off_limit": (2, 3),
    "barrel_at": (900, None),
    "barrel_fall_to": ("500", "minus_contract"),
    "players": (2, 4),
    "dealer_score": ("flat_30", "aces_50"),
    "two_player_second_talon": ("last_trick",),
    "two_player_talon_choice": ("seen",),
    "bid_step": (10,),
    "lock_at": (800,),
    "bomb": (1,),
}


def test_options_list_every_rules_md_option_with_descriptions_and_values():
    options = {o["id"]: o for o in Rules.options()}
    assert len(options) == len(Rules.options())  # no id twice
    assert set(options) == set(RULES_MD_DEFAULTS)
    groups = Rules.groups()
    for oid, o in options.items():
        assert o["default"] == RULES_MD_DEFAULTS[oid], oid
        assert Rules()[oid] == o["default"] and getattr(Rules(), oid) == o["default"]
        assert o["en"].strip() and o["ru"].strip(), oid
        assert any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in o["ru"]), oid
        assert o["group"] in groups and all(groups[o["group"]])
        if o["kind"] == "bool":
            assert isinstance(o["default"], bool) and not o["choices"]
        elif o["kind"] == "choice":
            assert o["default"] in o["choices"] or (o["default"] is None and o["optional"])
        else:
            assert o["kind"] == "int" and o["low"] is not None and o["high"] is not None
            assert o["step"] >= 1
        for value in RULES_MD_VALUES.get(oid, ()):
            assert Rules().replace(**{oid: value})[oid] == value, (oid, value)
        json.dumps(o, ensure_ascii=False)  # the settings screen gets it as JSON


@pytest.mark.parametrize(
    "options",
    [
        {"rounding": "nearest3"},
        {"players": 5},
        {"max_bid": 303},
        {"samosval": "yes"},
        {"penalty": True},
        {"barrel_min_bid": 122},
        {"no_such_rule": True},
    ],
)
def test_bad_option_values_are_refused_by_name(options):
    name = next(iter(options))
    with pytest.raises(ValueError, match=name):
        Rules().replace(**options)
    with pytest.raises(ValueError, match=name):
        Rules.from_dict(options)


PRESET_CHANGES: dict[str, dict[str, Any]] = {
    "classic": {},
    "strict": {
        "barrel_min_bid": 121,
        "write_off_limit": 3,
        "write_off_third_penalty": True,
        "samosval": True,
        "silence_below": -120,
    },
    "two_players": {"players": 2},
    "four_players": {"players": 4},
    "polish": {
        "bid_step": 10,
        "must_beat": True,
        "rounding": "nearest10",
        "lock_at": 800,
        "barrel_at": None,
        "bomb": 1,
        "dealer_score": "aces_50",
    },
}


@pytest.mark.parametrize("name", sorted(PRESET_CHANGES))
def test_presets_have_the_rules_md_values(name):
    preset = Rules.preset(name)
    assert preset.changed() == PRESET_CHANGES[name]
    assert Rules.from_dict(preset.to_dict()) == preset


def test_preset_list_and_mobile_app():
    assert set(Rules.presets()) == {*PRESET_CHANGES, "mobile_app"}
    app = Rules.preset("mobile_app")
    # Seed 004's app offers the golden round and dark play among its agreements.
    assert app.changed() and app.players == 3
    assert set(app.changed()) <= set(RULES_MD_DEFAULTS)
    with pytest.raises(ValueError, match="no_such_preset"):
        Rules.preset("no_such_preset")


def test_every_rules_md_value_either_plays_or_is_refused_as_not_implemented():
    for o in Rules.options():
        for value in {*required_values(o), *RULES_MD_VALUES.get(o["id"], ())}:
            r = Rules().replace(**{o["id"]: value})
            if r.unsupported():
                assert o["id"] in r.unsupported()
                with pytest.raises(NotImplementedError, match=o["id"]):
                    Game.new(rules=r, seed=3)
            else:
                g = Game.new(rules=r, seed=3)
                assert g.rules == r and g.current_player is not None


@pytest.mark.parametrize("name", Rules.presets())
def test_a_saved_game_reloads_with_its_own_rules(name):
    r = Rules.preset(name).replace(samosval_negative=True, penalty=100)
    g = Game.new(rules=r, seed=11, scores=[10] * r.players)
    rng = random.Random(name)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    saved = g.to_json()
    assert json.loads(saved)["rules"] == r.to_dict()
    back = Game.from_json(saved)
    assert back.rules == r and back == g
    assert back.view(0)["rules"] == r.to_dict()
    assert [str(a) for a in back.legal_actions()] == [str(a) for a in g.legal_actions()]
    # The reloaded game does not fall back to the classic rules when it carries on.
    assert Game.from_json(back.to_json()).rules.changed() == r.changed()


# --- every option value is tested -----------------------------------------------------------


def test_every_option_value_has_a_behaviour_test():
    missing = []
    for o in Rules.options():
        if o["kind"] == "int" and o["id"] not in FREE_VALUES:
            missing.append(f"{o['id']}: add its RULES.md values to FREE_VALUES and test them")
            continue
        for value in required_values(o):
            if _key(value) not in COVERED[o["id"]]:
                missing.append(f"{o['id']}={value!r}")
    assert not missing, "options without a behaviour test: " + ", ".join(missing)


# --- random legal games under every preset and table size ----------------------------------

RARE = ("writeoff", "cross", "bomb", "redeal", "decline")
# Everything switched on that changes the flow of a hand, to walk unusual paths.
EVERYTHING = {
    "dark": True,
    "dark_undarken": True,
    "dark_write_off": True,
    "golden": True,
    "golden_raise": True,
    "golden_repeat": True,
    "cross": True,
    "bomb": 2,
    "ace_marriage": True,
    "ace_marriage_trump": "last_ace",
    "marriage_first_lead": True,
    "marriage_needs_capture": True,
    "no_lead_foreign_trump": True,
    "must_beat": True,
    "pass_face_down": True,
    "redeal_three_nines_talon": True,
    "redeal_three_jacks_talon": True,
    "redeal_four_jacks": True,
    "redeal_penalty_dealer": True,
    "four_nines_bonus": True,
    "write_off_on_barrel": True,
    "samosval": True,
    "samosval_negative": True,
    "reverse_barrel": True,
    "intermediate_barrel_380": True,
    "two_player_second_talon": "last_trick",
    "two_player_talon_choice": "seen",
    "talon_half_marriage": True,
    "bolt_rule": "zero_points",
    "bolt_mode": "consecutive",
}

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    **{name: (name, {}) for name in Rules.presets()},
    **{f"{n}p": ("classic", {"players": n}) for n in (2, 3, 4)},
    **{f"{n}p-everything": ("classic", {**EVERYTHING, "players": n}) for n in (2, 3, 4)},
    "polish-4p-golden": ("polish", {"players": 4, "golden": True}),
    "strict-2p-dark-lock": ("strict", {"players": 2, "dark": True, "lock_at": 800}),
}
ILLEGAL_PROBES = [
    *(f"play {c}" for c in DECK),
    "bid 300",
    "bid 101",
    "pass",
    "redeal",
    "decline",
    "dark",
    "look",
    "take 0",
    "take 2",
    "discard AS",
    "give AS 0",
    "give 9H 5",
    "contract 120",
    "contract 999",
    "writeoff",
    "cross",
    "bomb",
]


def random_action(g: Game, rng: random.Random) -> str:
    """A random legal action, leaning towards what players do, so some contracts are made."""
    options = [str(a) for a in g.legal_actions()]
    common = [a for a in options if a not in RARE]
    if common and (rng.random() < 0.9 or len(common) == len(options)):
        options = common
    bids = [a for a in options if a.startswith("bid ")]
    if bids:
        if rng.random() < 0.6 and "pass" in options:
            return "pass"
        return rng.choice(bids[:4])  # mostly modest raises
    contracts_ = [a for a in options if a.startswith("contract ")]
    if contracts_ and rng.random() < 0.8:
        return contracts_[0]
    declares = [a for a in options if a.endswith("declare")]
    if declares and rng.random() < 0.7:
        return rng.choice(declares)
    if options[0].startswith("play ") and rng.random() < 0.6:
        return highest_play(options)
    return rng.choice(options)


def check_hand_row(g: Game, row: dict[str, Any], before: Game) -> None:
    n = g.players
    assert len(row["deltas"]) == len(row["scores"]) == len(row["marks"]) == n
    if row["result"] not in ("made", "failed"):
        return
    total = sum(row["card_points"])
    if n == 2 and g.rules.two_player_second_talon == "dead":
        chosen = before.talon
        dead = before.talons[0] if chosen == before.talons[1] else before.talons[1]
        assert total == 120 - points(texts(dead))
    else:
        assert total == 120
    assert sum(row["tricks"]) == (10 if n == 2 else 8)
    d = row["declarer"]
    assert row["totals"][d] == row["card_points"][d] + row["marriage_points"][d]
    if not (row["dark"] or row["golden"]) and set(row["marks"][d]) <= {"bolt"}:
        assert row["deltas"][d] == (
            row["contract"] if row["result"] == "made" else -row["contract"]
        )
    if n == 4:
        sitter = row["dealer"]
        assert row["tricks"][sitter] == 0 and row["card_points"][sitter] == 0
        was = before.view(None)
        lock = g.rules.lock_at
        if not (
            was["barrel"][sitter]["on"]
            or was["barrel"][sitter].get("at_380")
            or (lock is not None and was["scores"][sitter] >= lock)
        ):
            assert "talon" in row["marks"][sitter]


# Scores near the barrel, the Polish lock, 380, samosval and the reverse barrel.
START_SCORES = (0, 0, 300, 360, 435, 540, 760, 790, 800, 860, 880, -435, -770, -880)


def play_random_game(
    rules_: Rules, seed: int, rng: random.Random, max_hands: int, max_actions: int = 400
) -> Game:
    n = rules_.players
    scores = None
    if rng.random() < 0.5:
        scores = [rng.choice(START_SCORES) for _ in range(n)]
    g = Game.new(rules=rules_, seed=seed, scores=scores)
    for _ in range(max_actions):
        if g.phase == "over" or len(g.sheet) >= max_hands:
            break
        if rng.random() < 0.5:  # views cost the most; half the moments are plenty
            check_views(g)
        if rng.random() < 0.05:
            saved = g.to_json()
            back = Game.from_json(saved)
            assert back == g and back.rules == g.rules
            assert all(back.view(s) == g.view(s) for s in [None, *range(n)])
            if rng.random() < 0.5:
                g = back
        if rng.random() < 0.05:
            legal_now = {str(a) for a in g.legal_actions()}
            probe = rng.choice([p for p in ILLEGAL_PROBES if p not in legal_now])
            saved = g.to_json()
            with pytest.raises(IllegalAction):
                g.apply(probe)
            assert g.to_json() == saved
        action = random_action(g, rng)
        assert g.is_legal(action)
        rows = len(g.sheet)
        before = g.copy()
        g.apply(action)
        assert g.log[-1] == action
        if len(g.sheet) > rows:
            for row in g.sheet[rows:]:
                check_hand_row(g, row, before)
    if g.phase == "over":
        assert g.winner is not None and g.current_player is None and g.legal_actions() == []
    # The log alone, with the rules, seed and deals, rebuilds the game.
    assert Game.from_json(g.to_json()) == g
    return g


@pytest.mark.parametrize("config", list(CONFIGS))
def test_random_games(config):
    preset, options = CONFIGS[config]
    rules_ = Rules.preset(preset).replace(**options)
    rng = random.Random(f"{preset}/{sorted(options.items())}")
    for k in range(6):
        play_random_game(rules_, seed=k, rng=rng, max_hands=5)
