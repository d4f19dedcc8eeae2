"""Classic rules: trick play, marriages and trumps, and writing off (роспись).

Seat numbering in every deal: seat 0 deals, seat 1 is first hand (sits on
100), seat 2 speaks first in the bidding — unless a test says otherwise.
"""

from __future__ import annotations

import json

from hands import HAND_A, HAND_B
from helpers import (
    act,
    assert_illegal,
    hand,
    legal,
    new_game_or_skip,
    plays,
    rules,
    run,
    scripted_game,
    with_contract,
)


def plays_of(cards_: set[str] | str) -> set[str]:
    cs = cards_.split() if isinstance(cards_, str) else cards_
    return {f"play {c}" for c in cs}


# --- play ---------------------------------------------------------------------------


def test_no_declaration_on_the_first_lead() -> None:
    game = scripted_game(HAND_A)
    HAND_A.play_until(game, 1, "play AS")
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
    HAND_A.play_until(game, 2, "play TD")
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
    HAND_A.play_until(game, 1, "play KH declare")
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
    HAND_A.play_until(game, 2, "play KD declare")
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
    HAND_A.play_until(game, 1, "play AS")
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
