"""Rules at the edges, each from an explicit deal: a write-off in the golden
round, explicit deals after a redeal with four players, and action values
out of range."""

from __future__ import annotations

import pytest
from helpers import make_deal, run, snapshot
from thousand import Game, IllegalAction, Rules
from thousand.actions import Bid, Contract, Discard, Give, Play, Take

# Seat 1 is first hand and so the golden declarer when seat 0 deals.
GOLDEN_DEAL = make_deal(
    0,
    ["AS TS KS QS JS 9S AC", "AH TH KH QH JH 9H AD", "TC KC QC JC 9C TD KD"],
    "QD JD 9D",
)


def test_a_golden_declarer_may_write_off_and_the_write_off_is_doubled() -> None:
    game = Game.new(rules=Rules.preset("classic").replace(golden=True), deal=GOLDEN_DEAL)
    assert game.golden and game.declarer == 1 and game.phase == "talon"
    assert "writeoff" in [str(a) for a in game.legal_actions()]
    run(game, "1 give 9D 2; 1 give JD 0")
    assert "writeoff" in [str(a) for a in game.legal_actions()]
    run(game, "1 writeoff")
    row = game.sheet[-1]
    assert (row["result"], row["contract"], row["golden"]) == ("writeoff", 120, True)
    assert row["deltas"] == [120, -240, 120]
    assert game.scores == [120, -240, 120]


def test_a_golden_write_off_of_two_players_is_minus_240_and_plus_120() -> None:
    """Seed 004: "Вы расписали - вам минус 240, соседу - плюс 120"."""
    rules = Rules.preset("two_players").replace(golden=True)
    game = Game.new(rules=rules, seed=4)
    assert game.golden and game.phase == "choose"
    declarer = game.turn
    run(game, f"{declarer} take 0")
    assert "writeoff" in [str(a) for a in game.legal_actions()]
    run(game, f"{declarer} writeoff")
    deltas = game.sheet[-1]["deltas"]
    assert deltas[declarer] == -240 and deltas[1 - declarer] == 120


FOUR = Rules.preset("four_players")
# Dealer 0 sits out; seat 1 (first hand) wins the 100 and finds two nines in the talon.
D0 = {
    "dealer": 0,
    "hands": [
        [],
        ["AH", "TH", "KH", "QH", "JH", "JD", "TD"],
        ["AS", "TS", "KS", "QS", "JS", "9S", "KD"],
        ["AC", "TC", "KC", "QC", "JC", "9C", "QD"],
    ],
    "talon": ["9H", "9D", "AD"],
}
# A deal for dealer 1, who sits out.
D1 = {
    "dealer": 1,
    "hands": [
        ["AH", "TH", "KH", "QH", "JH", "9H", "AD"],
        [],
        ["AS", "TS", "KS", "QS", "JS", "9S", "KD"],
        ["AC", "TC", "KC", "QC", "JC", "9C", "QD"],
    ],
    "talon": ["TD", "9D", "JD"],
}


def test_a_redeal_with_four_players_never_deals_cards_to_the_seat_sitting_out() -> None:
    game = Game.new(rules=FOUR, deal=[D0, D1])
    run(game, "2 pass; 3 pass")
    assert game.declarer == 1 and "redeal" in [str(a) for a in game.legal_actions()]
    run(game, "1 redeal")
    # The same dealer deals again, from the seed: D1 is written for dealer 1.
    assert game.dealer == 0 and game.sitting_out == 0
    assert game.view(None)["hand_sizes"] == [0, 7, 7, 7]
    assert game.sheet[-1]["reason_code"] == "talon_two_nines"
    assert game.view(1)["hand"] != sorted(D1["hands"][1])
    # D1 waits for its dealer, the next hand's.
    while game.dealer == 0:
        assert game.view(None)["hand_sizes"][0] == 0
        game.apply(game.legal_actions()[0])
    assert game.view(None)["hand_sizes"] == [7, 0, 7, 7]
    assert set(game.view(0)["hand"]) == set(D1["hands"][0])


def test_an_explicit_deal_written_for_the_dealer_is_taken_after_the_redeal() -> None:
    again = {**D1, "dealer": 0, "hands": [[], *D1["hands"][:1], *D1["hands"][2:]]}
    game = Game.new(rules=FOUR, deal=[D0, again])
    run(game, "2 pass; 3 pass; 1 redeal")
    assert game.dealer == 0
    assert set(game.view(1)["hand"]) == set(D1["hands"][0])
    assert game.view(None)["hand_sizes"] == [0, 7, 7, 7]


@pytest.mark.parametrize(
    "action",
    [Play(99), Play(-3), Give(99, 0), Give(0, 99), Give(-1, 1), Take(-1), Discard(40), Bid(True)],
)
def test_out_of_range_action_values_are_illegal_and_change_nothing(action: object) -> None:
    for game in (Game.new(seed=5), Game.new(rules=FOUR, deal=[D0])):
        for steps in range(12):
            before = snapshot(game) if game.players == 3 else game.to_json()
            with pytest.raises(IllegalAction) as raised:
                game.apply(action)  # type: ignore[arg-type]
            assert str(raised.value).strip()
            assert (snapshot(game) if game.players == 3 else game.to_json()) == before
            if game.current_player is None:
                break
            legal = game.legal_actions()
            game.apply(legal[steps % len(legal)])
    game = Game.new(seed=5)
    assert not game.is_legal(Contract(10**9))
