"""The ``strong`` level: determinization and perfect-information search.

This module owns the search bot's decisions. For each one it samples deals
consistent with the seat's view (:mod:`.sampling`), plays them out with the
double-dummy solver (:mod:`.solver`) and picks the action with the best
average match value (:mod:`.value`). Card play asks, for each candidate card
and sample, whether the declarer still reaches its contract (a null-window
search), then refines the point totals while the node budget lasts. Bidding
(торговля) asks whether the next bid is reachable after taking a sampled
talon (прикуп) and giving away two cards (снос); giving compares a few
candidate pairs of cards on common samples; the contract (заказ) is the
value with the best expected outcome, against writing off (роспись).

The work is fixed by sample and node counts, so a decision depends only on
the view and the seed; the time budget is only a safety net that cuts the
search short and keeps the best answer so far.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import CARD_POINTS, card_text
from ..position import NO_TRUMP, TrickRules, trick_winner
from .heuristic import (
    _fallback,
    _opponents_to_receive,
    choose_heuristic,
    estimate,
    give_plan,
)
from .knowledge import Knowledge, legal_plays, play_text, read_view
from .sampling import Deal, sample_deals
from .solver import INF, SearchAborted, Solver
from .value import MatchContext

DEFEND_VALUE = 5.0
"""Rough match value of defending a hand, against which declaring is weighed."""

SHADE = 15
"""Points a sampled double-dummy result must spare before a bid or contract counts on it."""


@dataclass(frozen=True)
class Budget:
    """The deterministic amount of work per decision."""

    play_samples: int = 16
    play_nodes: int = 28_000
    """Nodes for the first pass (reach the contract or not); the rest refines points."""
    refine_nodes: int = 10_000
    bid_samples: int = 12
    give_samples: int = 8
    give_plans: int = 4
    contract_samples: int = 12
    node_cap: int = 40_000
    """Hard cap on nodes for any decision."""


DEFAULT_BUDGET = Budget()


class _Clock:
    def __init__(self, budget_s: float | None, cap: int) -> None:
        self.deadline = time.perf_counter() + budget_s if budget_s is not None else None
        self.cap = cap
        self.used = 0

    def solver(self, k: Knowledge, declarer: int, rules: dict[str, Any]) -> Solver:
        left = max(1, self.cap - self.used)
        return Solver(
            k.order,
            declarer,
            node_limit=left,
            deadline=self.deadline,
            rules=TrickRules.of(rules),
        )

    def spend(self, s: Solver) -> None:
        self.used += s.nodes

    @property
    def out(self) -> bool:
        if self.used >= self.cap:
            return True
        return self.deadline is not None and time.perf_counter() > self.deadline


class _Decision(NamedTuple):
    """Everything one decision works from: the view, what it tells, and the budget."""

    view: dict[str, Any]
    k: Knowledge
    rules: dict[str, Any]
    ctx: MatchContext
    rng: random.Random
    clock: _Clock
    budget: Budget


def choose_strong(
    view: dict[str, Any],
    rng: random.Random,
    budget_s: float | None,
    budget: Budget = DEFAULT_BUDGET,
) -> str:
    legal: list[str] = view["legal"]
    if len(legal) == 1:
        return legal[0]
    phase = view.get("phase")
    k = read_view(view)
    rules = dict(view.get("rules") or {})
    ctx = MatchContext.from_view(view, k.order)
    clock = _Clock(budget_s, budget.node_cap)
    decision = _Decision(view, k, rules, ctx, rng, clock, budget)
    try:
        if phase == "play" and k.declarer is not None and k.contract is not None:
            return _play(decision)
        if phase == "bidding" and k.players == 3:
            return _bid(decision)
        if phase == "talon" and k.declarer == k.seat and k.players == 3:
            return _talon(decision)
        if phase == "contract" and k.declarer == k.seat and k.players == 3:
            return _contract(decision)
    except SearchAborted:
        pass
    # Phases and tables the search does not model yet: the counting heuristic.
    return choose_heuristic(view, "normal", rng)


# --- card play -------------------------------------------------------------------------------


def _play(decision: _Decision) -> str:
    view, k, rules, ctx, rng, clock, budget = decision
    moves = legal_plays(view["legal"])
    if not moves:
        return _fallback(view["legal"])
    if len(moves) == 1:
        return play_text(*moves[0])
    assert k.declarer is not None and k.contract is not None
    d = k.declarer
    past = k.card_points[d] + k.marriage_points[d]
    need = k.contract - past
    deals = sample_deals(k, budget.play_samples, rng, rules, strength=estimate)
    hi_guess = 400
    # values[i][j]: (low, high) bounds on the declarer's future points.
    bounds: list[list[tuple[int, int]]] = []
    play_cap = min(budget.play_nodes, budget.node_cap)
    for deal in deals:
        if clock.used >= play_cap or clock.out:
            break
        s = clock.solver(k, d, rules)
        row: list[tuple[int, int]] = []
        try:
            for c, dec in moves:
                v = _value_after(s, k, deal.hands, c, dec, need - 1, need)
                row.append((v, hi_guess) if v >= need else (0, v))
        except SearchAborted:
            clock.spend(s)
            break
        clock.spend(s)
        bounds.append(row)
    if not bounds:
        return choose_heuristic(view, "normal", rng)
    # Refine: exact totals, sample by sample, while the refine budget lasts. When
    # every sample already agrees on the contract for every card, the points are
    # all that is left to decide, so the whole budget goes to them.
    decided = len({lo >= need for row in bounds for lo, _ in row}) == 1
    extra = budget.node_cap if decided else budget.refine_nodes
    refine_cap = min(clock.used + extra, budget.node_cap)
    for i, deal in enumerate(deals[: len(bounds)]):
        if clock.used >= refine_cap or clock.out:
            break
        s = clock.solver(k, d, rules)
        s.node_limit = max(1, refine_cap - clock.used)
        try:
            exact = [_value_after(s, k, deal.hands, c, dec) for c, dec in moves]
        except SearchAborted:
            clock.spend(s)
            break
        clock.spend(s)
        bounds[i] = [(v, v) for v in exact]
    utilities = []
    for j in range(len(moves)):
        total = 0.0
        for row in bounds:
            lo, hi = row[j]
            if lo == hi:
                est = float(lo)
            elif lo >= need:
                est = float(need + 10)
            else:
                est = float(min(hi, need - 10))
            total += ctx.play_outcome(d, k.contract, past + est)
        utilities.append(total / len(bounds))
    if k.seat != d and k.trick and len(k.trick) == len(k.order) - 1:
        # Last to a trick the declarer does not take: the defenders are paid
        # one by one, so a trick for this seat beats one for its partner.
        pts = sum(CARD_POINTS[c] for _, c in k.trick)
        for j, (c, _) in enumerate(moves):
            winner = trick_winner([*k.trick, (k.seat, c)], NO_TRUMP if k.trump is None else k.trump)
            if winner == k.seat:
                utilities[j] += pts + CARD_POINTS[c]
            elif winner != d:
                utilities[j] -= 0.5 * (pts + CARD_POINTS[c])
    top = max(utilities)
    # Near-ties go to the counting heuristic's card: it knows about points and
    # partners where the samples cannot tell the cards apart.
    hint = choose_heuristic(view, "normal", rng)
    for j, (c, dec) in enumerate(moves):
        if play_text(c, dec) == hint and utilities[j] >= top - 0.5:
            return hint
    best_j = utilities.index(top)
    return play_text(*moves[best_j])


def _value_after(
    s: Solver,
    k: Knowledge,
    hands: list[int],
    c: int,
    declare: bool,
    alpha: int = -INF,
    beta: int = INF,
) -> int:
    """The solver's value of playing ``c`` in one sampled deal of the trick on the table."""
    return s.value_after(
        hands, k.trick, k.leader, k.trump, k.eligible, c, declare, alpha, beta, k.trump_by, k.ace_by
    )


# --- declaring: bidding, giving, the contract ------------------------------------------------


def _first_lead_values(
    k: Knowledge,
    rules: dict[str, Any],
    clock: _Clock,
    hands: list[int],
    declarer: int,
    thresholds: list[int],
) -> int:
    """The highest of ``thresholds`` (ascending) the declarer reaches from the first lead.

    Returns ``-1`` when it reaches none. A binary search of null-window tests,
    each asking for ``SHADE`` points more: a declarer who sees every card in
    a sample plays better than one who must guess (strategy fusion), so the
    raw double-dummy result flatters the contract.
    """
    s = clock.solver(k, declarer, rules)
    lo, hi = 0, len(thresholds) - 1
    best = -1
    try:
        while lo <= hi:
            mid = (lo + hi) // 2
            if s.reaches(hands, declarer, None, 0, thresholds[mid] + SHADE):
                best = mid
                lo = mid + 1
            else:
                hi = mid - 1
    finally:
        clock.spend(s)
    return thresholds[best] if best >= 0 else -1


def _declarer_hands(deal: Deal, declarer: int, plan: list[tuple[int, int]]) -> list[int]:
    hands = list(deal.hands)
    for c, to in plan:
        hands[declarer] &= ~(1 << c)
        hands[to] |= 1 << c
    return hands


def _contract_choice(
    ctx: MatchContext, declarer: int, reached: list[int], values: list[int]
) -> tuple[int, float]:
    """The contract of ``values`` with the best mean outcome, given what each sample reaches."""
    best_v, best_u = values[0], -INF * 1.0
    for v in values:
        u = 0.0
        for r in reached:
            u += ctx.play_outcome(declarer, v, float(max(r, 0)) if r >= v else float(v - 15))
        u /= max(1, len(reached))
        if u > best_u + 1e-9:
            best_v, best_u = v, u
    return best_v, best_u


def _bid(decision: _Decision) -> str:
    view, k, rules, ctx, rng, clock, budget = decision
    legal: list[str] = view["legal"]
    bids = sorted(int(a.split()[1]) for a in legal if a.startswith("bid "))
    me = k.seat
    if not bids:
        if "redeal" in legal:
            return "redeal"
        return "pass" if "pass" in legal else _fallback(legal)
    target = bids[0]
    deals = sample_deals(k, budget.bid_samples, rng, rules, strength=estimate)
    step = int(rules.get("bid_step", 5))
    others = [s for s in k.order if s != me]
    reached: list[int] = []
    for deal in deals:
        if clock.out:
            break
        ten = k.hand | deal.dead
        plan = give_plan(ten, others, 1)[0]
        hands = list(deal.hands)
        hands[me] = ten
        hands = _declarer_hands(Deal(hands, 0), me, plan)
        try:
            reached.append(
                _first_lead_values(k, rules, clock, hands, me, [target, target + 3 * step])
            )
        except SearchAborted:
            break
    if not reached:
        return choose_heuristic(view, "normal", rng)
    # Winning at `target` and naming the best contract afterwards.
    _, declare_u = _contract_choice(ctx, me, reached, [target, target + 3 * step])
    if "redeal" in legal and max(declare_u, DEFEND_VALUE) < 0:
        return "redeal"
    if declare_u > DEFEND_VALUE:
        return f"bid {target}"
    return "pass" if "pass" in legal else f"bid {target}"


def _plan_values(
    k: Knowledge,
    rules: dict[str, Any],
    ctx: MatchContext,
    clock: _Clock,
    deals: list[Deal],
    plans: list[list[tuple[int, int]]],
    thresholds: list[int],
) -> list[float]:
    """Mean match value of each giving plan, sample by sample so every plan sees the same deals."""
    me = k.seat
    reached: list[list[int]] = [[] for _ in plans]
    for deal in deals:
        if clock.out:
            break
        row = []
        try:
            for plan in plans:
                hands = _declarer_hands(deal, me, plan)
                row.append(_first_lead_values(k, rules, clock, hands, me, thresholds))
        except SearchAborted:
            break
        for i, r in enumerate(row):
            reached[i].append(r)
    if not reached[0]:
        return []
    return [_contract_choice(ctx, me, r, thresholds)[1] for r in reached]


def _talon(decision: _Decision) -> str:
    view, k, rules, ctx, rng, clock, budget = decision
    legal: list[str] = view["legal"]
    opponents = _opponents_to_receive(view)
    if not opponents:
        return choose_heuristic(view, "normal", rng)
    plans = give_plan(k.hand, opponents, budget.give_plans)
    bid = k.bid or 100
    deals = sample_deals(k, budget.give_samples, rng, rules)
    values = _plan_values(k, rules, ctx, clock, deals, plans, [bid])
    if not values:
        return choose_heuristic(view, "normal", rng)
    best = max(range(len(plans)), key=lambda i: (values[i], -i))
    if "redeal" in legal and values[best] < 0:
        return "redeal"
    for c, to in plans[best]:
        text = f"give {card_text(c)} {to}"
        if text in legal:
            return text
    return choose_heuristic(view, "normal", rng)


def _contract(decision: _Decision) -> str:
    view, k, rules, ctx, rng, clock, budget = decision
    legal: list[str] = view["legal"]
    me = k.seat
    values = sorted(int(a.split()[1]) for a in legal if a.startswith("contract "))
    if not values:
        return choose_heuristic(view, "normal", rng)
    deals = sample_deals(k, budget.contract_samples, rng, rules)
    reached = []
    for deal in deals:
        if clock.out:
            break
        try:
            reached.append(_first_lead_values(k, rules, clock, deal.hands, me, values[:8]))
        except SearchAborted:
            break
    if not reached:
        return choose_heuristic(view, "normal", rng)
    v, u = _contract_choice(ctx, me, reached, values[:8])
    if "writeoff" in legal:
        bid = k.bid or values[0]
        if ctx.write_off_outcome(me, bid) > u:
            return "writeoff"
    if "redeal" in legal and u < 0:
        return "redeal"
    return f"contract {v}"
