"""Why the engine refuses an action: stable codes, the suit, and asking without applying.

A front end translates ``IllegalAction.code`` (and shows ``suit``) instead
of the English message, and asks :meth:`Game.why_illegal` when a player
clicks a card it may not play. These tests pin the codes on explicit deals,
check on random positions that the code of every refused card says why by
the rules of trick play, and that asking never changes the game.
"""

from __future__ import annotations

import random

import pytest
from helpers import make_deal, new_game, run, snapshot
from thousand import Game, IllegalAction, Rules
from thousand.actions import REFUSAL_CODES, Bid, Give, Play, Take
from thousand.cards import parse_card

# Seat 1 (first hand) wins the obligatory 100 and takes the talon QD JD 9D.
DEAL = make_deal(
    0,
    ["AS TS KS QS JS 9S AC", "AH TH KH QH JH 9H AD", "TC KC QC JC 9C TD KD"],
    "QD JD 9D",
)


def in_play() -> Game:
    """Seat 1 declarer at 100 has led AD; seat 2 (TD KD 9D and clubs) is to follow."""
    game = new_game(DEAL)
    run(game, "2 pass; 0 pass; 1 give 9D 2; 1 give JD 0; 1 contract 100; 1 play AD")
    return game


def refusal(game: Game, action: str) -> IllegalAction:
    """``apply`` refuses ``action``, ``why_illegal`` gives the same answer, nothing changes."""
    before = snapshot(game)
    asked = game.why_illegal(action)
    assert asked is not None, f"{action!r} is legal"
    with pytest.raises(IllegalAction) as raised:
        game.apply(action)
    assert snapshot(game) == before
    assert (raised.value.code, str(raised.value), raised.value.detail) == (
        asked.code,
        str(asked),
        asked.detail,
    )
    return raised.value


def test_illegal_action_keeps_its_message_and_gains_a_code() -> None:
    e = IllegalAction("play a card of H", "must_follow", suit="H")
    assert isinstance(e, ValueError)
    assert (str(e), e.code, e.suit) == ("play a card of H", "must_follow", "H")
    assert e.to_dict() == {"code": "must_follow", "message": "play a card of H", "suit": "H"}
    assert IllegalAction("anything").code == "not_allowed"
    assert IllegalAction("anything").suit is None
    with pytest.raises(ValueError, match="unknown refusal code"):
        IllegalAction("x", "no_such_code")
    assert {"not_your_turn", "must_follow", "must_trump", "must_beat", "not_in_hand"} <= set(
        REFUSAL_CODES
    )


def test_a_card_not_followed_says_which_suit_to_follow() -> None:
    game = in_play()
    e = refusal(game, "play TC")
    assert (e.code, e.suit) == ("must_follow", "D")
    assert "D" in str(e)
    assert refusal(game, "play AH").code == "not_in_hand"
    assert game.why_illegal("play KD") is None
    assert game.why_illegal("play 9D") is None


def test_a_seat_that_is_not_to_move_is_told_so_for_any_card() -> None:
    game = in_play()
    before = snapshot(game)
    for seat, card in [(0, "AS"), (0, "JD"), (1, "AH")]:
        e = game.why_illegal(f"play {card}", seat)
        assert e is not None and e.code == "not_your_turn", (seat, card)
    assert game.why_illegal("play KD", 2) is None
    e = game.why_illegal("play TC", 2)
    assert e is not None and e.code == "must_follow"
    assert snapshot(game) == before


def test_bids_and_contracts_say_too_low_too_high_or_off_the_step() -> None:
    game = new_game(DEAL)  # seat 2 to bid; its hand has the club marriage: up to 180
    assert refusal(game, "bid 100").code == "bid_too_low"
    assert refusal(game, "bid 185").code == "bid_too_high"
    e = refusal(game, "bid 107")
    assert (e.code, e.detail) == ("bid_step", {"low": 105, "high": 180})
    assert refusal(game, "play KD").code == "wrong_phase"
    assert refusal(game, "contract 120").code == "wrong_phase"
    assert refusal(game, "redeal").code == "no_redeal"
    run(game, "2 pass; 0 pass")
    assert refusal(game, "give 9D 1").code == "not_opponent"
    run(game, "1 give 9D 2")
    assert refusal(game, "give JD 2").code == "already_given"
    assert refusal(game, "give 9D 0").code == "not_in_hand"
    run(game, "1 give JD 0")
    assert refusal(game, "contract 95").code == "bid_too_low"
    run(game, "1 contract 100; 1 play AD; 2 play KD; 0 play JD")
    assert refusal(game, "writeoff").code == "too_late"


@pytest.mark.parametrize(
    "action",
    ["bid x", "", "fly away", "play ZZ", "give AS", Play(99), Play(-3), Give(99, 0), Take(7)],
)
def test_malformed_actions_are_refused_with_their_code(action: object) -> None:
    game = new_game(DEAL)
    before = snapshot(game)
    with pytest.raises(IllegalAction) as raised:
        game.apply(action)  # type: ignore[arg-type]
    assert raised.value.code == "malformed"
    assert str(raised.value).strip()
    assert snapshot(game) == before
    asked = game.why_illegal(action)  # type: ignore[arg-type]
    assert asked is not None and asked.code == "malformed"


def test_out_of_range_values_in_every_phase_change_nothing() -> None:
    game = in_play()
    for action in [Play(99), Play(-3), Play(24), Give(99, 0), Give(parse_card("KD"), 9), Bid(True)]:
        before = snapshot(game)
        with pytest.raises(IllegalAction) as raised:
            game.apply(action)
        assert raised.value.code == "malformed", action
        assert snapshot(game) == before


def test_the_match_over_refuses_everything_as_game_over() -> None:
    game = Game.new(seed=3, scores=[995, 0, 0])
    rng = random.Random(3)
    while game.current_player is not None:
        game.apply(rng.choice(game.legal_actions()))
    e = game.why_illegal("pass")
    assert e is not None and e.code == "game_over"
    with pytest.raises(IllegalAction) as raised:
        game.apply("pass")
    assert raised.value.code == "game_over"


LEAD_CODES = {"must_lead_trump", "no_foreign_trump", "cannot_declare", "not_in_hand"}
FOLLOW_CODES = {"must_follow", "must_trump", "must_beat", "not_in_hand"}


@pytest.mark.parametrize("preset", Rules.presets())
def test_every_refused_card_on_random_positions_says_why(preset: str) -> None:
    rng = random.Random(preset)
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(6):
        game = Game.new(rules=rules, seed=seed)
        while game.current_player is not None and game.hand_no < 2:
            legal = {str(a) for a in game.legal_actions()}
            if game.phase == "play":
                view = game.view(game.turn)
                led = view["trick"][0][1][1] if view["trick"] else None
                for card in view["hand"]:
                    for text in (f"play {card}", f"play {card} declare"):
                        e = game.why_illegal(text)
                        assert (e is None) == (text in legal), text
                        if e is None or text.endswith("declare"):
                            continue
                        checked += 1
                        if led is None:
                            assert e.code in LEAD_CODES, (text, e.code)
                            continue
                        assert e.code in FOLLOW_CODES, (text, e.code)
                        has_led = any(c[1] == led for c in view["hand"])
                        if e.code == "must_follow":
                            assert has_led and card[1] != led and e.suit == led
                        elif e.code == "must_trump":
                            assert not has_led and e.suit == view["trump"] != card[1]
                        elif e.code == "must_beat":
                            assert rules.must_beat and card[1] == e.suit
                    other = (game.turn + 1) % game.players
                    e = game.why_illegal(f"play {card}", other)
                    assert e is not None and e.code == "not_your_turn"
            game.apply(rng.choice(sorted(legal)))
    assert checked > 0


@pytest.mark.parametrize(
    ("hands", "talon", "reason"),
    [
        (
            ["AS TS KS AC TC KC AD", "AH TH KH QH JH 9H TD", "9S 9C 9D JS JC QS QC"],
            "KD QD JD",
            ("hand worth less than 13", "hand_below", 13),
        ),
        (
            ["KS QS JS AC TC KC QC", "AH TH KH QH JH TD KD", "9S 9C 9D 9H AS TS AD"],
            "JC QD JD",
            ("four nines in hand", "four_nines", None),
        ),
    ],
)
def test_a_redeal_row_names_its_reason_by_code_and_threshold(
    hands: list[str], talon: str, reason: tuple[str, str, int | None]
) -> None:
    game = new_game([make_deal(0, hands, talon)])
    run(game, "2 redeal")
    row = game.sheet[-1]
    assert row["result"] == "redeal"
    assert (row["reason"], row["reason_code"], row["reason_value"]) == reason
    assert game.view(0)["sheet"][-1]["reason_code"] == reason[1]
