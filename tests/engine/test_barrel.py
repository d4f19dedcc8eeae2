"""Classic rules: the barrel (бочка), its attempts, falls and the win at 1000.

Seat numbering in every deal: seat 0 deals, seat 1 is first hand (sits on
100), seat 2 speaks first in the bidding — unless a test says otherwise.
"""

from __future__ import annotations

from hands import HAND_B
from helpers import (
    SEAT1_WINS,
    ScriptedHand,
    act,
    assert_illegal,
    bids,
    contracts,
    legal,
    new_game,
    play_hands,
    run,
    with_contract,
    with_dealer,
)

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
