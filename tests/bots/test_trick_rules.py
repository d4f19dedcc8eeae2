"""The solver plays the game's own trick rules: legal moves and values on random positions.

On random play-phase positions of real games under every preset, and under
each trick rule turned on by itself (``must_beat``, ``must_lead_trump``,
``no_lead_foreign_trump``, the ace marriage in its three trump modes, the
second talon to the last trick), the moves the solver searches from equal
the engine's legal plays, and a :class:`Position` played along the game stays
the game's. Then the solver's values match a plain minimax over the
engine's own moves on small endings under those rules.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from thousand import Game, Rules
from thousand.bots.solver import Solver
from thousand.cards import ACES_MASK, card_text, iter_cards
from thousand.position import Position, TrickRules

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in Rules.presets()),
    ("classic", {"must_beat": True}),
    ("classic", {"must_lead_trump": True}),
    ("classic", {"no_lead_foreign_trump": True}),
    ("classic", {"marriage_first_lead": True, "must_beat": True}),
    ("classic", {"ace_marriage": True, "ace_marriage_trump": "none"}),
    ("classic", {"ace_marriage": True, "ace_marriage_trump": "cancel"}),
    ("classic", {"ace_marriage": True, "ace_marriage_trump": "last_ace", "must_beat": True}),
    ("two_players", {"two_player_second_talon": "last_trick", "must_beat": True}),
    ("four_players", {"must_beat": True, "ace_marriage": True}),
]


def aces_deal(rules: Rules, rng: random.Random) -> dict[str, Any] | None:
    """A deal giving first hand (seat 1, dealer 0) all four aces, half the time."""
    if rules.players != 3 or not rules.ace_marriage or rng.random() < 0.5:
        return None
    others = [c for c in range(24) if not ACES_MASK >> c & 1]
    rng.shuffle(others)
    first = [*iter_cards(ACES_MASK), *others[:3]]
    rest = others[3:]
    return {
        "dealer": 0,
        "hands": [
            [card_text(c) for c in rest[:7]],
            [card_text(c) for c in first],
            [card_text(c) for c in rest[7:14]],
        ],
        "talon": [card_text(c) for c in rest[14:]],
    }


def engine_plays(game: Game) -> list[tuple[int, bool]]:
    return sorted((a.card, a.declare) for a in game.legal_actions() if hasattr(a, "declare"))


def same_state(p: Position, q: Position) -> bool:
    return (p.hands, p.trick, p.turn, p.trump, p.trump_by, p.ace_by, p.eligible) == (
        q.hands,
        q.trick,
        q.turn,
        q.trump,
        q.trump_by,
        q.ace_by,
        q.eligible,
    )


@pytest.mark.parametrize(("preset", "changes"), VARIANTS)
def test_solver_moves_are_the_engine_legal_plays(preset: str, changes: dict[str, Any]) -> None:
    rules = Rules.preset(preset).replace(**changes)
    rng = random.Random(f"{preset}{changes}")
    checked = 0
    for seed in range(10):
        game = Game.new(rules=rules, seed=seed, deal=aces_deal(rules, rng))
        pos: Position | None = None
        while game.current_player is not None and game.hand_no < 2:
            if game.phase != "play":
                pos = None
                game.apply(rng.choice(game.legal_actions()))
                continue
            here = game.trick_position()
            if pos is not None:
                assert same_state(pos, here), "the position played along left the game"
                if not rules.marriage_needs_capture:
                    assert pos.points == here.points
            pos = here
            solver = Solver(list(game.active), game.declarer or 0, rules=TrickRules.of(rules))
            plays = engine_plays(game)
            assert pos.legal_moves() == plays
            assert solver.legal_moves(pos) == plays
            checked += 1
            declaring = [m for m in plays if m[1]]
            card, declare = rng.choice(declaring if declaring and rng.random() < 0.7 else plays)
            tricks = len(game.tricks)
            game.apply(f"play {card_text(card)}" + (" declare" if declare else ""))
            winner = pos.play(card, declare)
            if len(game.tricks) > tricks:
                assert winner == game.tricks[-1][2]
            elif game.phase != "play":
                pos = None
    assert checked > 50


def brute(p: Position, declarer: int) -> int:
    """Minimax over the position's own legal moves; a card that may declare always does,
    as in the solver. The declarer's future points."""
    if p.over:
        return 0
    moves = p.legal_moves()
    declares = {c for c, d in moves if d}
    values = []
    for c, d in moves:
        if c in declares and not d:
            continue
        q = p.copy()
        before = q.points[declarer]
        q.play(c, d)
        values.append(q.points[declarer] - before + brute(q, declarer))
    return max(values) if p.turn == declarer else min(values)


@pytest.mark.parametrize(("preset", "changes"), VARIANTS[len(Rules.presets()) :])
def test_solver_values_match_brute_force_under_the_rules(
    preset: str, changes: dict[str, Any]
) -> None:
    rules = TrickRules.of(Rules.preset(preset).replace(**changes))
    players = Rules.preset(preset).players
    order = [0, 1] if players == 2 else [0, 1, 2]
    bonus = 14 if players == 2 else 0
    rng = random.Random(str(changes))
    close = 0
    for _ in range(40):
        cards = list(range(24))
        rng.shuffle(cards)
        # Three hands in play (a four-player table's dealer sits out) get the
        # three-player sizes: brute force over three hands of five takes minutes.
        size = rng.choice([2, 3, 4]) if len(order) == 3 else rng.choice([3, 4, 5])
        if rules.ace_marriage and rng.random() < 0.5:
            cards = [*iter_cards(ACES_MASK), *(c for c in cards if not ACES_MASK >> c & 1)]
            size = 4
        hands = [sum(1 << c for c in cards[s * size : (s + 1) * size]) for s in order]
        rng.shuffle(hands)
        trump = rng.choice([-1, 0, 1, 2, 3])
        trump_by = rng.choice(order) if trump >= 0 else -1
        declarer, leader = rng.choice(order), rng.choice(order)
        eligible = rng.randrange(1 << len(order))
        p = Position(rules, order, hands, leader, (), trump, trump_by, -1, eligible, None, bonus)
        exact = brute(p, declarer)
        solver = Solver(order, declarer, rules=rules)
        value = solver.solve_position(p)
        # Runs of equivalent cards are searched at their ends only, which can
        # cost a point or two of card value, never a trick.
        assert abs(value - exact) <= 4, (value, exact)
        close += value == exact
    assert close >= 30
