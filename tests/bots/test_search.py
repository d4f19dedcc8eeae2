"""Tests of the search parts of the strong bot: the solver against brute force, the
view reader, and the match value."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from thousand import Game
from thousand.bots import choose
from thousand.bots.decision import DEFAULT_BUDGET, Clock, Decision
from thousand.bots.declaring import (
    contract,
    contract_reach,
    first_lead_reach,
    passing_shift,
    weigh_contract,
)
from thousand.bots.knowledge import Knowledge, read_view
from thousand.bots.sampling import Deal, sample_deals
from thousand.bots.solver import Solver
from thousand.bots.strong import _own_points, choose_strong
from thousand.bots.value import WIN_VALUE, MatchContext
from thousand.cards import MARRIAGE_VALUES, RANK_POINTS, SUIT_MASKS, mask_of, parse_card


def brute(hands: list[int], leader: int, trump: int, eligible: int, declarer: int) -> int:
    """Minimax over every card, no pruning; marriages declared when possible, as the solver."""

    def lead(h: list[int], who: int, t: int, elig: int) -> int:
        if not h[who]:
            return 0
        values = []
        for c in range(24):
            if not h[who] >> c & 1:
                continue
            tt, gain, suit = t, 0, c // 6
            pair = h[who] >> (suit * 6 + 2) & 1 and h[who] >> (suit * 6 + 3) & 1
            if elig >> who & 1 and c % 6 in (2, 3) and pair:
                tt = suit
                gain = MARRIAGE_VALUES[suit] if who == declarer else 0
            h2 = list(h)
            h2[who] ^= 1 << c
            values.append(gain + follow(h2, [(who, c)], tt, elig))
        return max(values) if who == declarer else min(values)

    def follow(h: list[int], trick: list[tuple[int, int]], t: int, elig: int) -> int:
        seat = (trick[-1][0] + 1) % 3
        hand = h[seat]
        legal = hand & SUIT_MASKS[trick[0][1] // 6]
        if not legal and t >= 0:
            legal = hand & SUIT_MASKS[t]
        legal = legal or hand
        values = []
        for c in range(24):
            if not legal >> c & 1:
                continue
            h2 = list(h)
            h2[seat] ^= 1 << c
            now = [*trick, (seat, c)]
            if len(now) < 3:
                values.append(follow(h2, now, t, elig))
                continue
            best_seat, best = now[0]
            for s, x in now[1:]:
                if (x // 6 == best // 6 and x > best) or (x // 6 == t and best // 6 != t):
                    best_seat, best = s, x
            pts = sum(RANK_POINTS[x % 6] for _, x in now)
            gain = pts if best_seat == declarer else 0
            values.append(gain + lead(h2, best_seat, t, elig | 1 << best_seat))
        return max(values) if seat == declarer else min(values)

    return lead(list(hands), leader, trump, eligible)


def test_solver_matches_brute_force_on_small_endings() -> None:
    rng = random.Random(5)
    close = 0
    for _ in range(120):
        cards = list(range(24))
        rng.shuffle(cards)
        size = rng.choice([2, 3, 4])
        hands = [sum(1 << c for c in cards[s * size : (s + 1) * size]) for s in range(3)]
        trump = rng.choice([-1, 0, 1, 2, 3])
        eligible, declarer, leader = rng.randrange(8), rng.randrange(3), rng.randrange(3)
        exact = brute(hands, leader, trump, eligible, declarer)
        t = None if trump < 0 else trump
        value = Solver([0, 1, 2], declarer).solve(hands, leader, t, eligible)
        # Runs of equivalent cards are searched at their ends only, which can
        # cost a point or two of card value, never a trick.
        assert abs(value - exact) <= 4
        close += value == exact
        target = rng.randrange(0, 50)
        reaches = Solver([0, 1, 2], declarer).reaches(hands, leader, t, eligible, target)
        assert reaches == (value >= target)
    assert close >= 115


def _after_the_talon(hands: list[list[str]], *plays: str) -> Game:
    """Seat 1 wins the bidding at 110, so the talon (9C 9D JD) is shown to everybody,
    gives JD to seat 0 and 9C to seat 2, names 110, and ``plays`` follow."""
    game = Game.new(deal={"dealer": 0, "hands": hands, "talon": ["9C", "9D", "JD"]}, seed=1)
    moves = ("pass", "bid 105", "bid 110", "pass", "give JD 0", "give 9C 2", "contract 110")
    for action in (*moves, *plays):
        game.apply(action)
    return game


def test_view_reader_sees_voids_and_known_cards() -> None:
    hands = [
        ["TC", "KC", "QC", "JC", "TD", "KD", "QD"],
        ["AS", "AC", "KH", "QH", "AH", "TH", "AD"],
        ["9H", "JH", "TS", "KS", "QS", "JS", "9S"],
    ]
    game = _after_the_talon(hands, "play AS", "play 9S", "play JC")
    k = read_view(game.view(2))
    # Seat 0 showed no spade; seat 1 holds the rest of the shown talon.
    assert k.void[0] & SUIT_MASKS[0] == SUIT_MASKS[0]
    assert k.known[1] & mask_of(["9D"]) and k.known[0] & mask_of(["JD"])
    assert not k.pool & (k.hand | k.played)
    for d in sample_deals(k, 20, random.Random(1), game.rules.to_dict()):
        assert not d.hands[0] & SUIT_MASKS[0]
        assert d.hands[1] & mask_of(["9D"])
        assert d.hands[0] | d.hands[1] | d.hands[2] | k.played == (1 << 24) - 1


def test_a_king_led_without_its_marriage_keeps_the_queen_out_of_that_hand() -> None:
    hands = [
        ["TC", "KC", "QC", "JC", "TD", "KD", "QH"],
        ["AS", "AC", "KH", "QD", "AH", "TH", "AD"],
        ["9H", "JH", "TS", "KS", "QS", "JS", "9S"],
    ]
    # Seat 1 leads its king of hearts once it may declare, and declares nothing.
    game = _after_the_talon(hands, "play AS", "play 9S", "play JC", "play KH")
    k = read_view(game.view(2))
    queen = mask_of(["QH"])
    assert k.unheld[1] == queen and not k.unheld[0]
    for d in sample_deals(k, 20, random.Random(1), game.rules.to_dict()):
        assert d.hands[0] & queen
    # Before it has taken a trick, a lead says nothing of the other half.
    game = _after_the_talon(hands, "play KH")
    assert not any(read_view(game.view(2)).unheld)


def test_a_declarer_lost_in_every_sample_keeps_its_marriages() -> None:
    # Seat 2 plays the obligatory 100 with two marriages and no ace: defenders who see
    # every card never let it in to declare, so every first lead fails in every sample.
    hands = [
        ["AS", "TS", "AC", "KC", "AD", "QD", "TH"],
        ["9C", "TD", "KD", "JD", "AH", "JH", "9H"],
        ["KS", "JS", "TC", "QC", "JC", "9D", "QH"],
    ]
    game = Game.new(deal={"dealer": 1, "hands": hands, "talon": ["QS", "9S", "KH"]}, seed=1)
    for action in ("pass", "pass", "give 9D 0", "give JC 1", "contract 100"):
        game.apply(action)
    view = game.view(2)
    halves = {"play KS", "play QS", "play KH", "play QH"}
    for seed in range(3):
        assert choose_strong(view, random.Random(seed), None) not in halves


def test_match_value_knows_the_barrel_and_samosval() -> None:
    rules = {"barrel_at": 880, "penalty": 120, "samosval": True}
    ctx = MatchContext(0, [0, 1, 2], [880, 500, 500], [True, False, False], rules)
    win = ctx.play_outcome(0, 120, 130.0)
    fall = ctx.play_outcome(0, 120, 100.0)
    # Winning the match dwarfs everything; a failure drops the barrel player to 760.
    assert win > WIN_VALUE / 2 and fall < 880 - 500
    ctx = MatchContext(1, [0, 1, 2], [300, 535, 300], [False] * 3, rules)
    # Seat 1 at 535 taking 20 as a defender lands on 555 and falls to 0.
    assert ctx.play_outcome(0, 100, 80.0) < ctx.play_outcome(0, 100, 70.0)


def test_the_declaring_margins_of_the_budget_decide_the_bid() -> None:
    # Declaring is weighed against the match value of defending: a defence worth
    # more than any contract makes the bot pass, one worth less makes it bid.
    game = Game.new(seed=5)
    view = game.view(game.current_player)
    assert "pass" in view["legal"] and "bid 105" in view["legal"]

    def answer(**margins: float) -> str:
        budget = replace(DEFAULT_BUDGET, **margins)  # type: ignore[arg-type]
        return choose_strong(view, random.Random(1), None, budget)

    assert answer(defend_value=1e6) == "pass"
    assert answer(defend_value=-1e6) == "bid 105"
    # A margin no sample can spare leaves no contract worth bidding for.
    assert answer(shade=200) == "pass"


def test_the_bid_does_not_hang_on_who_leads_the_match() -> None:
    # Declaring and passing are weighed on the same scale, the match as it
    # stands included, so a lead or a deficit far from the barrel moves
    # neither: the bot does not bid every hand when ahead, nor none when behind.
    answers = set()
    for seed in range(6):
        game = Game.new(seed=seed)
        view = game.view(game.current_player)
        at_zero = choose_strong(view, random.Random(1), None)
        answers.add(at_zero.split()[0])
        for scores in ([600, 100, 100], [100, 600, 600]):
            moved = {**view, "scores": scores}
            assert choose_strong(moved, random.Random(1), None) == at_zero, (seed, scores)
    assert answers == {"bid", "pass"}


def test_passing_is_valued_in_the_match_as_it_stands() -> None:
    rules = {"barrel_at": 880, "penalty": 120, "barrel_attempts": 3}
    ahead = MatchContext(0, [0, 1, 2], [600, 100, 100], [False] * 3, rules)
    assert ahead.standing() == 500
    assert passing_shift(ahead, set(), 100) == 500
    # On the barrel at its last attempt, a defender falls: passing costs the penalty.
    barrel = MatchContext(
        0, [0, 1, 2], [880, 300, 300], [True, False, False], rules, barrel_hands=[2, 0, 0]
    )
    assert passing_shift(barrel, set(), 100) < barrel.standing() - 100
    # With nobody else left to declare, passing leaves the match as it stands.
    assert ahead.defend_outcome([], 100) == ahead.standing()


def _at_the_contract() -> dict[str, Any]:
    """The declarer's view of ``Game.new(seed=2)`` at its contract, the normal level bidding."""
    game = Game.new(seed=2)
    view = game.view(game.current_player)
    while view["phase"] != "contract":
        game.apply(choose(view, "normal", seed=0))
        view = game.view(game.current_player)
    return view


def test_the_contract_margin_of_the_budget_decides_the_contract() -> None:
    # The contract is raised as far as the samples, spared the margin, still reach.
    view = _at_the_contract()
    values = sorted(int(a.split()[1]) for a in view["legal"] if a.startswith("contract "))

    def answer(margin: int) -> str:
        budget = replace(DEFAULT_BUDGET, contract_shade=margin)
        return choose_strong(view, random.Random(1), None, budget)

    lowest, highest = f"contract {values[0]}", f"contract {values[-1]}"
    assert answer(-300) == highest
    assert answer(300) in (lowest, "writeoff")


def _contract_decision() -> Decision:
    """The contract decision of :func:`_at_the_contract`, with a cap it never reaches."""
    view = _at_the_contract()
    k = read_view(view)
    ctx = MatchContext.from_view(view, k.order)
    budget = replace(DEFAULT_BUDGET, declare_cap=10**9)
    clock = Clock(None, budget.declare_cap)
    return Decision(view, k, view["rules"], ctx, random.Random(1), clock, budget)


def test_the_contract_names_the_value_worth_most_on_its_samples() -> None:
    reached = contract_reach(_contract_decision())
    action, worth = weigh_contract(_contract_decision(), reached)
    assert action == contract(_contract_decision())
    assert set(worth) == set(_at_the_contract()["legal"])
    named = max(w for a, w in worth.items() if a.startswith("contract "))
    assert action != "writeoff" or worth["writeoff"] > named
    if action.startswith("contract "):
        assert worth[action] == named and worth.get("writeoff", named) <= named


def test_a_first_lead_search_finds_the_highest_threshold_the_declarer_reaches() -> None:
    free = _contract_decision()
    k, shade = free.k, free.budget.shade
    deal = sample_deals(k, 1, random.Random(1), free.rules)[0]
    exact = free.clock.solver(k, k.seat, free.rules).solve(deal.hands, k.seat, None, 0)
    thresholds = list(range(50, 260, 5))
    reached = max(t for t in thresholds if exact >= t + shade)
    assert first_lead_reach(free, deal.hands, thresholds) == reached
    assert first_lead_reach(free, deal.hands, [t for t in thresholds if t > reached]) == -1


def _defender_decision(budget_nodes: int) -> Decision:
    """Seat 2 defends against seat 0, two cards each: seat 0 led the king of spades and
    seat 1, its partner, took it with the ace."""
    k = Knowledge(
        seat=2,
        players=3,
        phase="play",
        turn=2,
        hand=mask_of(["TS", "9S"]),
        sizes=[1, 1, 2],
        declarer=0,
        bid=100,
        contract=100,
        trump=None,
        trick=[(0, parse_card("KS")), (1, parse_card("AS"))],
        leader=0,
        card_points=[80, 10, 5],
        marriage_points=[0, 0, 0],
        order=[0, 1, 2],
    )
    view = {"seat": 2, "players": 3, "legal": ["play TS", "play 9S"], "rules": {}}
    budget = replace(DEFAULT_BUDGET, own_nodes=budget_nodes)
    ctx = MatchContext.from_view(view, k.order)
    clock = Clock(None, budget.node_cap)
    return Decision(view, k, {}, ctx, random.Random(1), clock, budget)


def test_a_defender_counts_its_own_points_apart_from_its_partners() -> None:
    # Left: seat 0 the nine of hearts, seat 1 the jack of spades, which it must lead.
    deal = Deal([mask_of(["9H"]), mask_of(["JS"]), mask_of(["TS", "9S"])], 0)
    moves = [(parse_card("TS"), False), (parse_card("9S"), False)]
    # The ten on the partner's trick: 25 points to the partner, then its jack takes the
    # nine. The nine now: the ten takes the jack later, 12 points for this seat.
    assert _own_points(_defender_decision(20_000), [deal], moves) == [[5.0, 17.0]]
    # For the defence as a team the two are the same: the declarer takes nothing either way.
    s = Solver([0, 1, 2], 0)
    k = _defender_decision(0).k
    after = [s.value_after(deal.hands, k.trick, k.leader, None, 0, c, False) for c, _ in moves]
    assert after == [0, 0]
    # Off: no second search.
    assert _own_points(_defender_decision(0), [deal], moves) == []
