"""The ``strong`` level: determinization and perfect-information search.

This module owns the search bot's entry point and its card play. For each decision
it samples deals consistent with the seat's view (:mod:`.sampling`), plays them out
with the double-dummy solver (:mod:`.solver`) and picks the action with the best
average match value (:mod:`.value`); card play also weighs its samples by the cards
the other seats played (:mod:`.inference`). Card play asks, for each candidate card
and sample, whether the declarer still reaches its contract (a null-window search),
then refines the point totals while the node budget lasts.
One of two defenders then searches once more for its own points against the other
two seats: its partner in the defence is its rival on the score sheet, so a point it
takes itself is worth more than one it feeds to its partner. The decisions before
the first lead — bidding, the talon, laying away, the contract — are in
:mod:`.declaring`; every table size (two, three, four players) and every preset goes
through the search.

The contract counts as kept in a sample exactly when the solver's total reaches it.
Moving that line measured worse in paired runs against the normal level (1,200 deals
each, match points per hand): the declarer sparing 15 points at the first lead and
fewer later, as its bidding does, -2.26 ± 1.63 (187 changed, 10 fewer contracts
made); the declarer counting a sample as made 10 points short, for the opponents'
slips, -1.83 ± 1.54 (142 changed, 8 fewer made); the defenders counting it failed
until it is passed by 10, -0.84 ± 0.96 (243 changed).

A declarer lost in every sample keeps its marriages: the sampled defenders see every
card and keep it from the lead for ever, so a lead that breaks a marriage looked no
worse than one that keeps it, and the search led a queen of hearts from king and queen
at 100 and failed where the normal level made it. Counting half of each marriage a card
keeps (:data:`MARRIAGE_HOPE`) measured +0.31 ± 0.69 and +0.09 ± 0.23 match points per
hand in paired runs against the normal level (deals 0-1199 and 1200-3599, 17 and 40
changed: 5 contracts made against 1). In those hands, playing the counting heuristic's
card instead measured -0.44 ± 0.70 (1,200 deals, 87 changed, 1 made against 3), and
counting a lost sample as made with a chance of one half that falls e-fold for every 10
(or 30) points it is short +0.20 ± 0.37 (and +0.21 ± 0.37; 36 and 47 changed, 2 made
against 1).

A seat that may declare a marriage (марьяж) with its lead is free to lead another card
first, and the search does so in about one such lead in nine (7 of 62 in 40 hands). Making
it declare at once measured -4.47 ± 2.14 match points per hand in a paired run against
the normal level (1,200 deals, 123 changed, 14 fewer contracts made).

The work is fixed by sample and node counts, so a decision depends only on
the view and the seed; the time budget is only a safety net that cuts the
search short and keeps the best answer so far.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import CARD_POINTS, bit, marriage_points_in, points
from ..position import NO_TRUMP, trick_winner
from . import declaring
from .decision import DEFAULT_BUDGET, Budget, Clock, Decision
from .heuristic import _fallback, choose_heuristic, estimate
from .inference import play_likelihood
from .knowledge import Knowledge, legal_plays, play_text, read_view
from .sampling import Deal, sample_deals
from .solver import INF, SearchAborted, Solver
from .value import MatchContext

MARRIAGE_HOPE = 0.5
"""Share of a kept marriage's value a declarer lost in every sample counts on declaring."""


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
    declaring_phase = phase in ("bidding", "choose", "talon", "contract")
    clock = Clock(budget_s, budget.declare_cap if declaring_phase else budget.node_cap)
    decision = Decision(view, k, rules, ctx, rng, clock, budget)
    if budget.heuristic_in and _role(phase, k) in budget.heuristic_in.split("+"):
        return choose_heuristic(view, "normal", rng)
    try:
        if phase == "play" and k.declarer is not None and k.contract is not None:
            return _play(decision)
        if phase == "bidding":
            return declaring.bid(decision)
        if phase == "choose" and k.declarer == k.seat:
            return declaring.choose_talon(decision)
        if phase == "talon" and k.declarer == k.seat:
            return declaring.lay_away(decision)
        if phase == "contract" and k.declarer == k.seat:
            return declaring.contract(decision)
    except SearchAborted:
        pass
    # Dark play, a redeal claim, a search cut short: the counting heuristic.
    return choose_heuristic(view, "normal", rng)


def _role(phase: Any, k: Knowledge) -> str:
    """The role a decision belongs to, as :attr:`Budget.heuristic_in` names it."""
    if phase == "bidding":
        return "bid"
    if phase in ("choose", "talon", "contract"):
        return "declare"
    if phase == "play":
        return "play_declarer" if k.seat == k.declarer else "play_defender"
    return str(phase)


# --- card play -------------------------------------------------------------------------------


def _play(decision: Decision) -> str:
    view, k, rules, ctx, rng, clock, budget = decision
    moves = legal_plays(view["legal"])
    if not moves:
        return _fallback(view["legal"])
    if len(moves) == 1:
        return play_text(*moves[0])
    assert k.declarer is not None and k.contract is not None
    d = k.declarer
    # Two players: the declarer's discards count for it at the end.
    past = k.card_points[d] + k.marriage_points[d] + points(k.laid_away)
    need = k.contract - past
    must_beat = bool(rules.get("must_beat", False))

    def likelihood(deal: Deal) -> float:
        return play_likelihood(k, deal, budget.infer_follow, budget.infer_lead, must_beat)

    infers = budget.infer_follow < 1.0 or budget.infer_lead < 1.0
    deals = sample_deals(
        k,
        budget.play_samples,
        rng,
        rules,
        strength=estimate,
        oversample=budget.play_oversample,
        likelihood=likelihood if infers else None,
    )
    hi_guess = 400
    # values[i][j]: (low, high) bounds on the declarer's future points.
    bounds: list[list[tuple[int, int]]] = []
    play_cap = min(budget.play_nodes, budget.node_cap)
    for deal in deals:
        if clock.used >= play_cap or clock.out:
            break
        s = clock.solver(k, d, rules, _bonus(k, rules, deal.dead))
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
    reached = [lo >= need for row in bounds for lo, _ in row]
    lost = not any(reached)  # the declarer fails in every sample, whatever it plays
    decided = lost or all(reached)
    extra = budget.node_cap if decided else budget.refine_nodes
    refine_cap = min(clock.used + extra, budget.node_cap)
    for i, deal in enumerate(deals[: len(bounds)]):
        if clock.used >= refine_cap or clock.out:
            break
        s = clock.solver(k, d, rules, _bonus(k, rules, deal.dead))
        s.node_limit = max(1, refine_cap - clock.used)
        try:
            exact = [_value_after(s, k, deal.hands, c, dec) for c, dec in moves]
        except SearchAborted:
            clock.spend(s)
            break
        clock.spend(s)
        bounds[i] = [(v, v) for v in exact]
    own = _own_points(decision, deals[: len(bounds)], moves)
    partner = next((s for s in k.order if s not in (d, k.seat)), k.seat)
    utilities = []
    for j in range(len(moves)):
        total = 0.0
        for i, row in enumerate(bounds):
            lo, hi = row[j]
            if lo == hi:
                est = float(lo)
            elif lo >= need:
                est = float(need + 10)
            else:
                est = float(min(hi, need - 10))
            split = None
            if i < len(own):
                # The defenders' points split as this seat's own search says, not evenly.
                share = max(0.0, 120.0 - min(past + est, 120.0)) / 2
                mine = own[i][j]
                split = {k.seat: mine - share, partner: max(0.0, 2 * share - mine) - share}
            total += ctx.play_outcome(d, k.contract, past + est, split)
        utilities.append(total / len(bounds))
    if not own and k.seat != d and k.trick and len(k.trick) == len(k.order) - 1:
        # Last to a trick the declarer does not take: the defenders are paid
        # one by one, so a trick for this seat beats one for its partner.
        pts = sum(CARD_POINTS[c] for _, c in k.trick)
        for j, (c, _) in enumerate(moves):
            winner = trick_winner([*k.trick, (k.seat, c)], NO_TRUMP if k.trump is None else k.trump)
            if winner == k.seat:
                utilities[j] += pts + CARD_POINTS[c]
            elif winner != d:
                utilities[j] -= 0.5 * (pts + CARD_POINTS[c])
    if k.seat == d and lost:
        _keep_marriages(utilities, moves, k.hand)
    top = max(utilities)
    # Near-ties go to the counting heuristic's card: it knows about points and
    # partners where the samples cannot tell the cards apart.
    hint = choose_heuristic(view, "normal", rng)
    for j, (c, dec) in enumerate(moves):
        if play_text(c, dec) == hint and utilities[j] >= top - budget.hint_margin:
            return hint
    best_j = utilities.index(top)
    return play_text(*moves[best_j])


def _keep_marriages(utilities: list[float], moves: list[tuple[int, bool]], hand: int) -> None:
    """A declarer lost in every sample: count a share (:data:`MARRIAGE_HOPE`) of each
    marriage a move keeps in hand, or declares.

    The sampled defenders see every card and never let the declarer in to declare;
    real defenders may. Lost in every sample, the cards differ only by the points the
    samples give away, and a lead that breaks a marriage can look no worse than one
    that keeps it.
    """
    for j, (c, declare) in enumerate(moves):
        kept = hand if declare else hand & ~bit(c)
        utilities[j] += MARRIAGE_HOPE * marriage_points_in(kept)


def _own_points(
    decision: Decision, deals: list[Deal], moves: list[tuple[int, bool]]
) -> list[list[float]]:
    """For one of two defenders: its own points at the end of the hand after each move, per
    sample, while ``own_nodes`` lasts (the other two seats play against it)."""
    k, rules, clock, budget = decision.k, decision.rules, decision.clock, decision.budget
    if not budget.own_nodes or k.seat == k.declarer or len(k.order) != 3:
        return []
    now = k.card_points[k.seat] + k.marriage_points[k.seat]
    cap = clock.extend(budget.own_nodes)
    rows: list[list[float]] = []
    for deal in deals:
        if clock.used >= cap or clock.out:
            break
        s = clock.solver(k, k.seat, rules, limit=cap - clock.used)
        try:
            row = [float(now + _value_after(s, k, deal.hands, c, dec)) for c, dec in moves]
        except SearchAborted:
            clock.spend(s)
            break
        clock.spend(s)
        rows.append(row)
    return rows


def _bonus(k: Knowledge, rules: dict[str, Any], dead: int) -> int:
    """What the last trick carries: the other talon, seen as the declarer sees it."""
    if k.seat != k.declarer:
        return 0
    return declaring.last_trick_bonus(rules, k.players, dead)


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
