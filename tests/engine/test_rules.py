"""Rules of the classic three-player game, each proven on an explicit deal.

Seat numbering in every deal: seat 0 deals, seat 1 is first hand (sits on
100), seat 2 speaks first in the bidding — unless a test says otherwise.
"""

from __future__ import annotations

import json
import re

import pytest
from hands import DECLARER_BOLT, HAND_A, HAND_B, HAND_D
from helpers import (
    REQUIRED_KEYS,
    SEAT1_WINS,
    ScriptedHand,
    act,
    assert_illegal,
    bids,
    contracts,
    hand,
    legal,
    legal_set,
    make_deal,
    new_game,
    new_game_or_skip,
    play_hands,
    plays,
    rules,
    run,
    scripted_game,
    snapshot,
    with_contract,
    with_dealer,
)
from thousand import Game, IllegalAction, Rules


def play_until(game: Game, script: ScriptedHand, seat: int, action: str) -> None:
    """Apply the script's actions up to (not including) ``seat``'s ``action``."""
    script.outcome()
    for s, a in script.actions():
        if (s, a) == (seat, action):
            return
        act(game, s, a)
    raise AssertionError(f"{seat} {action!r} is not in the script")


def plays_of(cards_: set[str] | str) -> set[str]:
    cs = cards_.split() if isinstance(cards_, str) else cards_
    return {f"play {c}" for c in cs}


# --- the deal, turn order, views ------------------------------------------------


def test_deal_dealer_first_hand_and_turn_order() -> None:
    game = scripted_game(HAND_B)
    d = HAND_B.deal()
    v = game.view(None)
    assert v["phase"] == "bidding"
    assert list(v["bids"][0]) == [1, 100]  # first hand = dealer + 1 sits on 100
    assert game.current_player == 2 and v["turn"] == 2
    for seat in range(3):
        assert sorted(game.view(seat)["hand"]) == sorted(d["hands"][seat])
    assert game.scores == [0, 0, 0]
    assert game.winner is None


def test_view_has_the_documented_keys_and_is_json() -> None:
    game = scripted_game(HAND_B)
    for seat in (0, 1, 2, None):
        v = game.view(seat)
        json.dumps(v)
        assert not REQUIRED_KEYS - set(v), f"view({seat}) lacks {REQUIRED_KEYS - set(v)}"
        assert v["talon"] is None  # nobody sees the talon during the bidding
        assert v["trump"] is None
        assert v["trick"] == []
        assert v["scores"] == [0, 0, 0]
        assert v["legal"] == (legal(game) if seat == 2 else [])
    assert game.view(None)["rules"] == Rules.preset("classic").to_dict()


def test_spectator_and_opponents_never_see_a_hand() -> None:
    game = scripted_game(HAND_B)
    d = HAND_B.deal()
    for seat in (0, 1, 2, None):
        text = json.dumps(game.view(seat))
        for other in range(3):
            if other == seat:
                continue
            for c in d["hands"][other]:
                assert f'"{c}"' not in text, f"view({seat}) shows {c} of seat {other}"
        for c in d["talon"]:
            assert f'"{c}"' not in text, f"view({seat}) shows talon card {c}"


def test_legal_actions_round_trip_through_text() -> None:
    game = scripted_game(HAND_B)
    for a in game.legal_actions():
        clone1 = Game.from_json(game.to_json())
        clone2 = Game.from_json(game.to_json())
        clone1.apply(a)
        clone2.apply(str(a))
        assert clone1.to_json() == clone2.to_json()


def test_log_rebuilds_the_game() -> None:
    game = scripted_game(HAND_A)
    play_until(game, HAND_A, 2, "play KD declare")
    rebuilt = scripted_game(HAND_A)
    for a in game.log:
        rebuilt.apply(str(a))
    assert json.loads(rebuilt.to_json()) == json.loads(game.to_json())
    assert [str(a) for a in rebuilt.log] == [str(a) for a in game.log]


def test_json_round_trip_mid_hand() -> None:
    game = scripted_game(HAND_A)
    play_until(game, HAND_A, 0, "play AH")  # mid-trick, after a second marriage
    copy = Game.from_json(game.to_json())
    assert copy.to_json() == game.to_json()  # exactly, not just equivalent
    assert snapshot(copy) == snapshot(game)
    # the copy behaves the same for the rest of the hand
    rest = HAND_A.actions()[len(game.log) :]
    for seat, a in rest:
        act(game, seat, a)
        act(copy, seat, a)
        assert snapshot(copy) == snapshot(game)
    assert copy.scores == game.scores == [0, 100, 160]


def test_seed_deals_reproducibly() -> None:
    a, b = Game.new(seed=11), Game.new(seed=11)
    assert [a.view(s) for s in range(3)] == [b.view(s) for s in range(3)]
    hands = {tuple(sorted(Game.new(seed=s).view(0)["hand"])) for s in range(8)}
    assert len(hands) > 1, "different seeds should deal different hands"


def test_explicit_deal_then_seed() -> None:
    # After the explicit deal is used up, later hands come from the seed:
    # the next dealer is seat 1 and every hand is a fresh 7 cards.
    game = scripted_game(HAND_B)
    HAND_B.play(game)
    v = game.view(None)
    assert v["phase"] == "bidding"
    assert list(v["bids"][0]) == [2, 100]
    assert game.current_player == 0
    seen = [set(game.view(s)["hand"]) for s in range(3)]
    assert all(len(h) == 7 for h in seen)
    assert len(seen[0] | seen[1] | seen[2]) == 21


def test_bad_deals_are_rejected() -> None:
    good = HAND_B.deal()
    dup = json.loads(json.dumps(good))
    dup["hands"][0][0] = dup["hands"][1][0]
    short = json.loads(json.dumps(good))
    short["hands"][2] = short["hands"][2][:6]
    junk = json.loads(json.dumps(good))
    junk["talon"][0] = "XX"
    for bad in (dup, short, junk):
        with pytest.raises(ValueError):
            Game.new(deal=bad)


def test_start_scores() -> None:
    game = Game.new(seed=3, scores=[100, -40, 300])
    assert game.scores == [100, -40, 300]
    assert game.view(None)["scores"] == [100, -40, 300]


# --- bidding --------------------------------------------------------------------

# Seat 0: hearts and diamonds marriages (cap 120 + 100 + 80 = 300).
# Seat 1: spades marriage (cap 160). Seat 2: no marriage (cap 120).
# Hand points: seat 0 46, seat 1 22, seat 2 27; no four nines; talon KC TD AD
# (25 points, no nine) — so nobody may claim a redeal.
CAPS_DEAL = make_deal(
    0,
    [
        "KH QH KD QD AS AC TC",
        "QS KS TS JH 9C QC 9D",
        "AH TH 9S JS JC JD 9H",
    ],
    "KC TD AD",
)


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
    act(game, 1, "give KD 2")
    assert "KD" in hand(game, 2) and "KD" not in hand(game, 1)
    assert legal_set(game) - {"redeal", "writeoff"} == {f"give {c} 0" for c in ten - {"KD"}}
    assert_illegal(game, "give QD 2")  # seat 2 already has its card
    assert_illegal(game, "give QD 1")  # not to oneself
    assert_illegal(game, "give 9S 0")  # not the declarer's card
    act(game, 1, "give QD 0")
    assert game.view(None)["phase"] == "contract"
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


# --- play ---------------------------------------------------------------------------


def test_no_declaration_on_the_first_lead() -> None:
    game = scripted_game(HAND_A)
    play_until(game, HAND_A, 1, "play AS")
    assert game.view(None)["phase"] == "play"
    assert plays(game) == plays_of(hand(game, 1))  # no "declare" offered
    assert_illegal(game, "play KH declare")
    # Leading the K of a marriage on the first lead is a plain lead.
    act(game, 1, "play KH")
    v = game.view(None)
    assert v["trump"] is None
    assert not v["marriages"]


def test_must_follow_suit() -> None:
    game = scripted_game(HAND_A)
    play_until(game, HAND_A, 2, "play TD")
    # Seat 2 holds no spade: anything goes (no trump yet).
    assert plays(game) == plays_of(hand(game, 2))
    act(game, 2, "play TD")
    # Seat 0 holds 9S JS QS TS: it must play a spade, not its AH.
    assert plays(game) == plays_of("9S JS QS TS")
    assert_illegal(game, "play AH")
    act(game, 0, "play 9S")
    assert game.current_player == 1  # AS won


def test_declaration_after_taking_a_trick_sets_trump() -> None:
    game = scripted_game(HAND_A)
    play_until(game, HAND_A, 1, "play KH declare")
    assert {"play KH declare", "play QH declare"} <= plays(game)
    assert not any("KS" in a and "declare" in a for a in plays(game))  # QS is not its own
    assert_illegal(game, "play AS declare")
    act(game, 1, "play KH declare")
    for seat in (0, 1, 2, None):
        assert game.view(seat)["trump"] == "H"
    assert "H" in json.dumps(game.view(None)["marriages"])
    assert plays(game) == {"play JH"}  # seat 2's only heart
    act(game, 2, "play JH")
    assert plays(game) == plays_of("9H AH")
    act(game, 0, "play 9H")
    assert game.current_player == 1


def test_must_trump_when_void_and_only_the_new_trump() -> None:
    game = scripted_game(HAND_A)
    play_until(game, HAND_A, 2, "play KD declare")
    assert {"play KD declare", "play QD declare"} <= plays(game)
    act(game, 2, "play KD declare")
    assert game.view(None)["trump"] == "D"
    # Seat 0: no diamond, holds AH of the old trump — anything is legal.
    assert plays(game) == plays_of(hand(game, 0))
    act(game, 0, "play AH")
    assert plays(game) == plays_of("9D JD")
    act(game, 1, "play 9D")
    # §12.10: hearts are no longer trump, so KD beats AH.
    assert game.current_player == 2
    act(game, 2, "play TC")
    assert plays(game) == {"play QC"}
    act(game, 0, "play QC")
    # Seat 1 has no club; it holds TH (old trump) and JD (new trump).
    assert hand(game, 1) == {"KS", "QH", "TH", "JD"}
    assert plays(game) == {"play JD"}
    assert_illegal(game, "play TH")
    assert_illegal(game, "play KS")
    act(game, 1, "play JD")
    assert game.current_player == 1
    act(game, 1, "play TH")
    # Seat 2, void in hearts, must trump with a diamond.
    assert plays(game) == plays_of("QD AD")
    assert_illegal(game, "play KC")


def test_hand_a_full_result_and_next_deal() -> None:
    game = scripted_game(HAND_A)
    HAND_A.play(game)
    assert HAND_A.outcome().totals == [0, 142, 158]
    assert game.scores == [0, 100, 160]
    assert len(game.sheet) == 1
    v = game.view(None)
    assert v["phase"] == "bidding"
    assert list(v["bids"][0]) == [2, 100]  # dealer moved to seat 1
    assert game.current_player == 0
    assert v["trump"] is None and not v["marriages"]
    assert "last_hand" in v


def test_declared_marriage_counts_even_if_the_card_is_lost() -> None:
    # Hand A: seat 2 led KD (declared) and won it; the 80 counts once.
    # Hand B: seat 1's KS declaration gives 40 on top of 95 card points:
    # contract 135 is made, 140 is not.
    game = scripted_game(with_contract(HAND_B, 135))
    with_contract(HAND_B, 135).play(game)
    assert game.scores == [0, 135, 25]
    game = scripted_game(with_contract(HAND_B, 140))
    with_contract(HAND_B, 140).play(game)
    assert game.scores == [0, -140, 25]


def test_marriage_first_lead_option() -> None:
    game = new_game_or_skip(HAND_A.deal(), rules(marriage_first_lead=True), "marriage_first_lead")
    play_until(game, HAND_A, 1, "play AS")
    assert "play KH declare" in plays(game)


# --- write-off ----------------------------------------------------------------------


def test_write_off_the_bid_after_the_talon() -> None:
    game = scripted_game(HAND_B)
    run(game, "2 bid 105; 0 pass; 1 pass")
    assert game.view(None)["declarer"] == 2
    assert "writeoff" in legal(game)
    act(game, 2, "writeoff")
    # 105 / 2 = 52.5, rounded up to a multiple of 5: 55.
    assert game.scores == [55, 55, -105]
    v = game.view(None)
    assert v["phase"] == "bidding"
    assert list(v["bids"][0]) == [2, 100]  # next dealer
    assert len(game.sheet) == 1


def test_write_off_at_the_hidden_100() -> None:
    game = scripted_game(HAND_B)
    run(game, "2 pass; 0 pass; 1 writeoff")
    assert game.scores == [50, -100, 50]


def test_write_off_in_contract_phase_uses_the_bid() -> None:
    game = scripted_game(HAND_B)
    run(game, "2 pass; 0 bid 105; 1 bid 120; 0 pass; 1 give KD 2; 1 give QD 0")
    assert game.view(None)["phase"] == "contract"
    act(game, 1, "writeoff")
    assert game.scores == [60, -120, 60]


def test_write_off_after_naming_the_contract_uses_the_contract() -> None:
    # RULES.md §6.4: after naming the contract, before the first lead.
    game = scripted_game(HAND_B)
    run(game, "2 pass; 0 pass; 1 give KD 2; 1 give QD 0; 1 contract 130")
    assert game.view(None)["phase"] == "play"
    assert "writeoff" in legal(game)
    act(game, 1, "writeoff")
    assert game.scores == [65, -130, 65]


def test_no_write_off_after_the_first_lead_or_during_bidding() -> None:
    game = scripted_game(HAND_B)
    assert_illegal(game, "writeoff")
    run(game, "2 pass; 0 pass; 1 give KD 2; 1 give QD 0; 1 contract 120; 1 play AS")
    assert_illegal(game, "writeoff")


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


# --- barrel -----------------------------------------------------------------------


def _b(dealer: int, contract: int, bidding: str | None = None) -> ScriptedHand:
    """Hand B (seat 1: 135 with its marriage) at a dealer, with a contract."""
    barrel_bidding = {
        0: "2 pass; 0 pass",
        1: "0 pass; 1 bid 120; 2 pass",
        2: "1 bid 120; 2 pass; 0 pass",
    }
    return with_contract(with_dealer(HAND_B, dealer, bidding or barrel_bidding[dealer]), contract)


def test_barrel_player_must_bid_at_least_120() -> None:
    # Seat 2 on the barrel (no marriage: cap 120) after seat 1's raise to 105.
    s = _b(1, 120, "0 pass; 1 bid 105; 2 pass")
    game = new_game(s.deal(), scores=[0, 0, 880])
    run(game, "0 pass; 1 bid 105")
    assert game.current_player == 2
    assert bids(game) == {120}
    assert_illegal(game, "bid 110")


def test_barrel_declarer_contract_at_least_120_and_no_write_off() -> None:
    game = new_game(HAND_B.deal(), scores=[0, 880, 0])
    run(game, "2 pass; 0 pass")  # seat 1 sits on 100 and wins it
    assert "writeoff" not in legal(game)
    assert_illegal(game, "writeoff")
    run(game, "1 give KD 2; 1 give QD 0")
    assert contracts(game) == set(range(120, 161, 5))
    assert "writeoff" not in legal(game)
    assert_illegal(game, "contract 100")


def test_barrel_win_at_1000() -> None:
    s = _b(0, 120)
    game = new_game(s.deal(), scores=[0, 880, 0])
    s.play(game)
    assert game.winner == 1
    assert game.scores[1] == 1000
    assert game.current_player is None
    assert game.legal_actions() == [] or list(game.legal_actions()) == []
    v = game.view(None)
    assert v["phase"] == "over"
    assert_illegal(game, "pass")
    assert_illegal(game, "bid 105")


def test_barrel_win_keeps_the_whole_contract() -> None:
    s = _b(0, 135)
    game = new_game(s.deal(), scores=[0, 880, 0])
    s.play(game)
    assert game.winner == 1
    assert game.scores == [0, 1015, 25]


def test_scores_reaching_880_are_clamped_in_the_winning_hand_too() -> None:
    # Seat 1 wins from the barrel; seat 2 (870) takes 25 in the same hand.
    # "A player whose score reaches ≥ 880 after a hand is set to exactly
    # 880" (RULES.md §9.2) — the final sheet should not show 895.
    s = _b(0, 120)
    game = new_game(s.deal(), scores=[0, 880, 870])
    s.play(game)
    assert game.winner == 1
    assert game.scores == [0, 1000, 880]


def test_cannot_jump_past_the_barrel() -> None:
    # 870 + 135 = 1005, but the last points must be made on the barrel.
    s = _b(0, 135)
    game = new_game(s.deal(), scores=[0, 870, 0])
    s.play(game)
    assert game.winner is None
    assert game.scores == [0, 880, 25]
    assert game.current_player is not None


def test_failed_contract_on_the_barrel_falls_at_once() -> None:
    s = _b(0, 140)  # 135 < 140
    game = new_game(s.deal(), scores=[0, 880, 0])
    s.play(game)
    assert game.scores == [0, 760, 25]
    assert game.winner is None


def test_barrel_defender_scores_nothing_and_gets_no_bolts() -> None:
    # Seat 0 on the barrel takes no trick in three hands B: no bolt penalty
    # (that would be 640), only the fall after the third hand.
    scripts = [_b(d, 120, SEAT1_WINS[d]) for d in range(3)]
    game = new_game([s.deal() for s in scripts], scores=[880, 0, 0])
    after = play_hands(game, scripts)
    assert after == [[880, 120, 25], [880, 240, 50], [760, 360, 75]]


def test_arrival_knocks_the_barrel_player_off() -> None:
    # Seat 2 sits on the barrel; seat 1 arrives (760 + 120): seat 2 → 760.
    s = _b(0, 120)
    game = new_game([s.deal(), _b(1, 120).deal()], scores=[0, 760, 880])
    s.play(game)
    assert game.scores == [0, 880, 760]
    # Seat 1 is on the barrel now: its bids start at 120.
    act(game, 0, "pass")
    assert min(bids(game)) == 120


def test_two_arrivals_in_one_hand_both_fall() -> None:
    s = _b(0, 120)
    game = new_game(s.deal(), scores=[0, 860, 870])
    s.play(game)  # seat 1: 860 + 120 = 980, seat 2: 870 + 25 = 895
    assert game.scores == [0, 760, 760]


def test_third_fall_from_the_barrel_resets_to_zero() -> None:
    # Seat 1 climbs on (made 120) and falls off (failed 140) three times.
    contracts_ = [120, 140, 120, 140, 120, 140]
    scripts = [_b(i % 3, c) for i, c in enumerate(contracts_)]
    game = new_game([s.deal() for s in scripts], scores=[0, 760, 0])
    after = play_hands(game, scripts)
    assert [row[1] for row in after] == [880, 760, 880, 760, 880, 0]
    assert [row[2] for row in after] == [25, 50, 75, 100, 125, 150]
    assert [row[0] for row in after] == [0, 0, -120, -120, -120, -240]


def test_start_scores_at_or_above_880_put_a_player_on_the_barrel() -> None:
    game = new_game(HAND_B.deal(), scores=[0, 0, 950])
    assert game.scores[2] == 880
    HAND_B.play(game)  # seat 2 takes 25 as a defender on the barrel: nothing
    assert game.scores == [0, 120, 880]


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


# --- Rules -------------------------------------------------------------------------

ALL_OPTION_IDS = [
    # §12.1
    "bid_cap",
    "max_bid",
    "no_jump_bids",
    "silence_below",
    "hidden_talon_at_100",
    "pass_face_down",
    "barrel_min_bid",
    # §12.2
    "marriage_first_lead",
    "marriage_needs_capture",
    "ace_marriage",
    "ace_marriage_trump",
    "no_lead_foreign_trump",
    "must_lead_trump",
    # §12.3
    "redeal_talon_below",
    "redeal_two_nines_talon",
    "redeal_three_nines_talon",
    "redeal_three_jacks_talon",
    "redeal_hand_below",
    "redeal_four_nines",
    "redeal_four_nines_after_pass",
    "redeal_four_jacks",
    "redeal_only_at_100",
    "redeal_penalty_dealer",
    # §12.4
    "rounding",
    "declarer_rounding",
    "penalty",
    "bolt_rule",
    "bolt_mode",
    "no_bolt_on_own_game",
    "four_nines_bonus",
    # §12.5
    "write_off",
    "write_off_flat_60",
    "write_off_keeps_score",
    "write_off_limit",
    "write_off_third_penalty",
    "write_off_on_barrel",
    "cross",
    # §12.6
    "barrel_at",
    "barrel_attempts",
    "barrel_three_falls_zero",
    "one_on_barrel",
    "barrel_fall_to",
    "target_1001",
    "samosval",
    "samosval_negative",
    "reverse_barrel",
    "intermediate_barrel_380",
    # §12.7
    "dark",
    "golden",
    "players",
    "dealer_score",
    "two_player_second_talon",
    # §12.9
    "bid_step",
    "must_beat",
    "lock_at",
    "bomb",
]


def _on(v: object) -> bool:
    return v is True or v == "on"


def _off(v: object) -> bool:
    return v in (False, None, "off", "none", 0)


def test_classic_has_every_option_with_its_default() -> None:
    d = Rules.preset("classic").to_dict()
    missing = [k for k in ALL_OPTION_IDS if k not in d]
    assert not missing, f"options missing from Rules: {missing}"
    assert d["bid_cap"] == "hand_marriages"
    assert d["max_bid"] == 300
    assert d["barrel_min_bid"] == 120
    assert d["rounding"] == "nearest5"
    assert d["penalty"] == 120
    assert d["bolt_rule"] == "no_tricks"
    assert d["bolt_mode"] == "total"
    assert d["barrel_at"] == 880
    assert d["barrel_attempts"] == 3
    assert d["barrel_fall_to"] == "minus_penalty"
    assert d["players"] == 3
    assert d["dealer_score"] == "talon_points"
    assert d["two_player_second_talon"] == "dead"
    assert d["bid_step"] == 5
    assert d["redeal_hand_below"] == 13
    assert d["redeal_talon_below"] == 5
    for on in (
        "hidden_talon_at_100",
        "redeal_two_nines_talon",
        "redeal_four_nines",
        "redeal_four_nines_after_pass",
        "write_off",
        "barrel_three_falls_zero",
        "one_on_barrel",
    ):
        assert _on(d[on]), on
    for off in (
        "no_jump_bids",
        "silence_below",
        "pass_face_down",
        "marriage_first_lead",
        "marriage_needs_capture",
        "ace_marriage",
        "no_lead_foreign_trump",
        "must_lead_trump",
        "redeal_three_nines_talon",
        "redeal_three_jacks_talon",
        "redeal_four_jacks",
        "redeal_only_at_100",
        "redeal_penalty_dealer",
        "declarer_rounding",
        "no_bolt_on_own_game",
        "four_nines_bonus",
        "write_off_flat_60",
        "write_off_keeps_score",
        "write_off_limit",
        "write_off_third_penalty",
        "write_off_on_barrel",
        "cross",
        "target_1001",
        "samosval",
        "samosval_negative",
        "reverse_barrel",
        "intermediate_barrel_380",
        "dark",
        "golden",
        "must_beat",
        "lock_at",
        "bomb",
    ):
        assert _off(d[off]), off
    assert Rules.preset("classic") == Rules.preset("classic")
    assert Game.new().view(None)["rules"] == d


def test_rules_round_trip_and_replace() -> None:
    classic = Rules.preset("classic")
    assert Rules.from_dict(classic.to_dict()) == classic
    r = classic.replace(max_bid=200, rounding="by_last_digit")
    assert r != classic
    assert r.to_dict()["max_bid"] == 200
    assert r.to_dict()["rounding"] == "by_last_digit"
    assert classic.to_dict()["max_bid"] == 300, "replace must not mutate the original"
    assert Rules.from_dict(r.to_dict()) == r
    json.dumps(r.to_dict())


def test_strict_preset() -> None:
    d = Rules.preset("strict").to_dict()
    assert d["barrel_min_bid"] == 121
    assert d["write_off_limit"] == 3
    assert _on(d["write_off_third_penalty"])
    assert _on(d["samosval"])
    assert d["silence_below"] == -120


@pytest.mark.parametrize("option", ["nonsense_option", "maxbid"])
def test_unknown_option_is_a_value_error_naming_it(option: str) -> None:
    with pytest.raises(ValueError, match=option):
        Rules.preset("classic").replace(**{option: 1})
    d = Rules.preset("classic").to_dict()
    d[option] = 1
    with pytest.raises(ValueError, match=option):
        Rules.from_dict(d)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("max_bid", 302),
        ("max_bid", "lots"),
        ("rounding", "banana"),
        ("players", 5),
        ("bid_cap", "sky"),
        ("penalty", "x"),
        ("hidden_talon_at_100", "maybe"),
    ],
)
def test_bad_value_is_a_value_error_naming_the_option(option: str, value: object) -> None:
    with pytest.raises(ValueError, match=option):
        Rules.preset("classic").replace(**{option: value})
    d = Rules.preset("classic").to_dict()
    d[option] = value
    with pytest.raises(ValueError, match=option):
        Rules.from_dict(d)


def test_unknown_preset() -> None:
    with pytest.raises((ValueError, KeyError)):
        Rules.preset("no_such_preset")


# One non-default value per option, as RULES.md §12 lists them.
NON_DEFAULT = {
    "bid_cap": "none",
    "max_bid": 250,
    "no_jump_bids": True,
    "silence_below": -120,
    "hidden_talon_at_100": False,
    "pass_face_down": True,
    "barrel_min_bid": 121,
    "marriage_first_lead": True,
    "marriage_needs_capture": True,
    "ace_marriage": True,
    "ace_marriage_trump": "cancel",
    "no_lead_foreign_trump": True,
    "must_lead_trump": True,
    "redeal_talon_below": 10,
    "redeal_two_nines_talon": False,
    "redeal_three_nines_talon": True,
    "redeal_three_jacks_talon": True,
    "redeal_hand_below": 14,
    "redeal_four_nines": False,
    "redeal_four_nines_after_pass": False,
    "redeal_four_jacks": True,
    "redeal_only_at_100": True,
    "redeal_penalty_dealer": True,
    "rounding": "by_last_digit",
    "declarer_rounding": True,
    "penalty": 100,
    "bolt_rule": "zero_points",
    "bolt_mode": "consecutive",
    "no_bolt_on_own_game": True,
    "four_nines_bonus": True,
    "write_off": False,
    "write_off_flat_60": True,
    "write_off_keeps_score": True,
    "write_off_limit": 2,
    "write_off_third_penalty": True,
    "write_off_on_barrel": True,
    "cross": True,
    "barrel_at": 900,
    "barrel_three_falls_zero": False,
    "one_on_barrel": False,
    "barrel_fall_to": "minus_contract",
    "target_1001": True,
    "samosval": True,
    "samosval_negative": True,
    "reverse_barrel": True,
    "intermediate_barrel_380": True,
    "dark": True,
    "golden": True,
    "players": 4,
    "dealer_score": "flat_30",
    "two_player_second_talon": "last_trick",
    "bid_step": 10,
    "must_beat": True,
    "lock_at": 800,
    "bomb": 1,
}


@pytest.mark.parametrize(("option", "value"), sorted(NON_DEFAULT.items()), ids=sorted(NON_DEFAULT))
def test_every_option_value_is_accepted_or_not_implemented(option: str, value: object) -> None:
    # A value RULES.md lists must be a valid Rules value; Game.new either
    # plays with it or raises NotImplementedError naming the option.
    r = Rules.preset("classic").replace(**{option: value})
    assert r.to_dict()[option] == value
    assert Rules.from_dict(r.to_dict()) == r
    try:
        game = Game.new(rules=r, seed=5)
    except NotImplementedError as e:
        assert option in str(e), f"NotImplementedError does not name {option!r}: {e}"
        return
    # It plays: a few hundred first-legal-action steps must not crash.
    for _ in range(300):
        if game.current_player is None:
            break
        actions = game.legal_actions()
        assert actions, "a player to move must have a legal action"
        game.apply(actions[-1] if len(game.log) % 2 else actions[0])


def test_rules_travel_with_the_game() -> None:
    r = rules(max_bid=250)
    game = Game.new(rules=r, seed=4)
    assert game.view(0)["rules"]["max_bid"] == 250
    copy = Game.from_json(game.to_json())
    assert copy.view(0)["rules"] == r.to_dict()


def test_hidden_talon_card_stays_hidden_until_played() -> None:
    # Hand D: the talon QH JC JD is won at the hidden 100; JC and JD are
    # passed on, QH stays with seat 1 until it leads it in trick 5.
    game = scripted_game(HAND_D)
    qh = re.compile(r"\bQH\b")
    for seat, a in HAND_D.actions():
        if (seat, a) == (1, "play QH"):
            break
        for viewer in (0, 2, None):
            assert not qh.search(json.dumps(game.view(viewer))), (viewer, a)
        act(game, seat, a)
    act(game, 1, "play QH")
    for viewer in (0, 2, None):
        assert [str(x) for x in game.view(viewer)["trick"][0]] == ["1", "QH"]
