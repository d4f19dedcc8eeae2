"""The strong level's declaring decisions: bidding, the talon, laying away, the contract.

This module owns what the search bot does before the first lead. Bidding
(торговля) asks whether the next bid is reachable after taking a sampled
talon (прикуп) and laying two cards away; with two players, choosing one of
two shown talons compares them on common samples; laying away — giving a
card to each opponent (снос) with three or four players, discarding two
face down with two — compares a few candidate plans on common samples; the
contract (заказ) is the value with the best expected match value, against
writing off (роспись). Every comparison is in match value (:mod:`.value`):
the opponents' marriages, the barrel, falls and bolts count, not only the
declarer's points, and passing is valued in the match as it stands, as
declaring is (:func:`passing_shift`). A sample counts as made when its
shaded double-dummy result reaches the value; the budget can instead weigh
it by the chance a model fitted on played-out hands gives its margin
(:mod:`.make_chance`), and weigh a bid against a learned value of defending
(both off: measured flat against the normal level). Once the bidding is over, the
declarer's samples are drawn without weighing the others' bids and passes: weighing
them as the bidding does measured -0.18 ± 1.78 match points per hand in a paired run
against the normal level (1,200 deals, 181 changed), and again with the declaring cap at
180,000 +2.15 ± 1.96 (deals 0-1199, 199 changed) and -0.71 ± 1.52 (deals 1200-3599, 367
changed): +0.24 over the 3,600 deals. A redeal claim is taken when playing
on is worth less than the match as it stands; valuing the redeal 10 points higher or 15
lower changed 5 and 1 of 1,200 paired deals against the normal level (flat).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

from ..cards import CARD_POINTS, bit, card_text, cards_of, marriage_points_in, mask_of, points
from ..table import OBLIGATORY_BID
from .decision import Decision
from .heuristic import (
    _fallback,
    _keep_score,
    choose_heuristic,
    estimate,
    give_plan,
)
from .make_chance import defend_value, hand_chance, sample_chance
from .sampling import Deal, sample_deals
from .solver import INF, SearchAborted
from .value import MatchContext

DEFENDER_MARRIAGE = 0.5
"""Share of a defender's marriage it is expected to declare (it needs the lead). 0.25
measured +0.24 ± 0.62 match points per hand in a paired run against the normal level
(1,200 deals, 15 changed): the declaring's choices are seldom that close."""

LAID_AWAY = -1
"""The receiver of a card laid away face down (two players)."""

Plan = list[tuple[int, int]]
"""Cards leaving the declarer's hand: ``(card, receiver)``, ``LAID_AWAY`` for a discard."""


class Reach(NamedTuple):
    """What one sample tells of a declarer's hand: the points it reaches and the others' extra."""

    points: int
    """The highest probed total the declarer reaches (``-1``: none)."""
    extra: dict[int, float]
    """Points each defender is expected to add by its own marriages."""


# --- laying away and sampling helpers --------------------------------------------------------


def lay_away_plans(hand: int, receivers: list[int], count: int, players: int) -> list[Plan]:
    """Up to ``count`` candidate plans for the cards the declarer must part with."""
    if players != 2:
        return give_plan(hand, receivers, count)
    left = len(receivers)
    # A discard keeps its points for the declarer, so only the card's use in play counts.
    ranked = sorted(cards_of(hand), key=lambda c: (_keep_score(hand, c) - CARD_POINTS[c], c))
    pool = ranked[: left + 3]
    if left == 1:
        return [[(c, LAID_AWAY)] for c in pool][:count]
    pairs = [(a, b) for i, a in enumerate(pool) for b in pool[i + 1 :]]
    pairs.sort(key=lambda p: _keep_score(hand, p[0]) + _keep_score(hand, p[1]) - _banked_pair(p))
    return [[(a, LAID_AWAY), (b, LAID_AWAY)] for a, b in pairs[:count]]


def _banked_pair(pair: tuple[int, int]) -> int:
    return points(bit(pair[0]) | bit(pair[1]))


def declarer_hands(hands: list[int], declarer: int, plan: Plan) -> list[int]:
    """The hands once the declarer has given or laid away the cards of ``plan``."""
    out = list(hands)
    for c, to in plan:
        out[declarer] &= ~(1 << c)
        if to != LAID_AWAY:
            out[to] |= 1 << c
    return out


def _banked(plan: Plan) -> int:
    return sum(CARD_POINTS[c] for c, to in plan if to == LAID_AWAY)


def last_trick_bonus(rules: dict[str, object], players: int, dead: int) -> int:
    """Two players: the points of the other talon, when it goes to the last trick."""
    if players == 2 and rules.get("two_player_second_talon") == "last_trick":
        return points(dead)
    return 0


def _extra(hands: list[int], declarer: int, order: list[int]) -> dict[int, float]:
    return {s: DEFENDER_MARRIAGE * marriage_points_in(hands[s]) for s in order if s != declarer}


def first_lead_reach(
    decision: Decision,
    hands: list[int],
    thresholds: list[int],
    banked: int = 0,
    bonus: int = 0,
    shade: int | None = None,
) -> int:
    """The highest of ``thresholds`` (ascending) the declarer reaches from the first lead.

    Returns ``-1`` when it reaches none. A binary search of null-window tests,
    each asking for the budget's ``shade`` points more: a declarer who sees every card in
    a sample plays better than one who must guess (strategy fusion), so the
    raw double-dummy result flatters the contract. ``banked`` points are the
    declarer's already (two players: its discards).

    A search that runs out of its share of the cap raises :class:`SearchAborted`
    and its sample is left out, so a decision is weighed on the samples solved
    first; with a strong hand at the contract that is often a few of the 24.
    Keeping such a sample at the highest threshold shown before the cut brought
    the contract closer to what the same samples solved in full name (it lost
    3.97 ± 0.90 match points per contract against them, against 8.10 ± 2.41, on
    644 contracts of ``bench/contract_regret.py``), yet measured -0.63 ± 1.10
    and -0.47 ± 0.66 match points per hand in paired runs against the normal
    level (deals 0-1199 and 1200-3599, 89 and 176 changed): it named lower
    contracts in 202 hands made either way (-1.12 per hand) and saved 7 that
    failed (+0.55). With the contract's shade at 10 as well, against the
    default, it measured -0.42 ± 1.28 and -0.39 ± 0.70 on the same deals (190
    and 346 changed).
    """
    k, me = decision.k, decision.k.seat
    share = decision.budget.declare_cap // decision.budget.solve_share
    if shade is None:
        shade = decision.budget.shade
    s = decision.clock.solver(k, me, decision.rules, bonus, share)
    lo, hi = 0, len(thresholds) - 1
    best = -1
    try:
        while lo <= hi:
            mid = (lo + hi) // 2
            if s.reaches(hands, me, None, 0, thresholds[mid] + shade - banked):
                best = mid
                lo = mid + 1
            else:
                hi = mid - 1
    finally:
        decision.clock.spend(s)
    return thresholds[best] if best >= 0 else -1


def _failed_total(reached: int, contract: int, shade: int) -> float:
    """The declarer's expected total in a sample that does not reach ``contract``."""
    if reached >= 0:
        return float(reached + shade)
    return float(contract - 40)


def contract_choice(
    ctx: MatchContext,
    declarer: int,
    reached: list[Reach],
    values: list[int],
    shade: int,
    calibrated: bool = False,
) -> tuple[int, float]:
    """The contract of ``values`` with the best mean outcome, given what each sample reaches.

    A sample counts as made when it reaches the value; ``calibrated``, it is
    made with the chance :func:`.make_chance.sample_chance` gives its margin.
    """
    best_v, best_u = values[0], -INF * 1.0
    for v in values:
        u = sum(_outcome(ctx, declarer, r, v, shade, calibrated) for r in reached)
        u /= max(1, len(reached))
        if u > best_u + 1e-9:
            best_v, best_u = v, u
    return best_v, best_u


def _outcome(
    ctx: MatchContext, declarer: int, r: Reach, v: int, shade: int, calibrated: bool
) -> float:
    """One sample's match value for contract ``v``: made or failed, or weighed by the chance
    of making it that its margin gives (``calibrated``)."""
    q = sample_chance(r.points, v) if calibrated else float(r.points >= v)
    made = failed = 0.0
    if q > 0:
        made = ctx.play_outcome(declarer, v, float(max(r.points, v)), r.extra)
    if q < 1:
        failed = ctx.play_outcome(
            declarer, v, min(_failed_total(r.points, v, shade), v - 5), r.extra
        )
    return q * made + (1 - q) * failed


def _probes(values: list[int]) -> list[int]:
    """The contract values to test, with two lower ones that tell how badly a hand fails."""
    low = values[0]
    return [low - 50, low - 25, *values]


# --- the decisions ---------------------------------------------------------------------------


def bid(decision: Decision) -> str:
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
    i = k.order.index(me)
    receivers = [k.order[(i + j) % len(k.order)] for j in range(1, len(k.order))]
    if k.players == 2:
        receivers = [LAID_AWAY, LAID_AWAY]
    thresholds = [target - 25, target, target + 3 * step]
    reached: list[Reach] = []
    for deal in deals:
        if clock.out:
            break
        dead = cards_of(deal.dead)
        if k.players == 2:
            rng.shuffle(dead)
            talon = sum(1 << c for c in dead[:2])
            rest = deal.dead & ~talon
        else:
            talon, rest = deal.dead, 0
        hands = list(deal.hands)
        hands[me] = k.hand | talon
        plan = lay_away_plans(hands[me], receivers, 1, k.players)[0]
        hands = declarer_hands(hands, me, plan)
        bonus = last_trick_bonus(rules, k.players, rest)
        try:
            r = first_lead_reach(decision, hands, thresholds, _banked(plan), bonus)
        except SearchAborted:
            if clock.out:
                break
            continue
        reached.append(Reach(r, _extra(hands, me, k.order)))
    if not reached:
        return choose_heuristic(view, "normal", rng)
    # Winning at `target` and naming the best contract afterwards. Probing up to 60 points
    # above the bid for that contract, not 15, measured -0.32 ± 0.95 match points per hand
    # in a paired run against the normal level (1,200 deals, 28 changed).
    values = [target, target + 3 * step]
    calibrated = budget.make_chance > 0
    _, declare_u = contract_choice(ctx, me, reached, values, budget.shade, calibrated)
    high = int(view.get("high_bid") or OBLIGATORY_BID)
    defend = budget.defend_value
    if budget.learned_defend:
        chance = hand_chance([r.points for r in reached], target)
        defend = defend_value(chance, high > OBLIGATORY_BID)
    passed = {int(s) for s in view.get("passed") or []}
    defend += passing_shift(ctx, passed, high)
    if "redeal" in legal and max(declare_u, defend) < ctx.standing():
        return "redeal"
    if declare_u > defend:
        return f"bid {target}"
    return "pass" if "pass" in legal else f"bid {target}"


def passing_shift(ctx: MatchContext, passed: set[int], high: int) -> float:
    """How far the match as it stands moves the value of passing from a fresh match's.

    The budget's value of defending is measured at the start of a match, so
    this adds the standing and what the barrel and the score cap do to a
    defended hand. The declarer is one of the others still bidding (not in
    ``passed``), at the bid so far ``high``; one on the barrel is left out
    while another could declare, since bidding low does not stop it from
    declaring.
    """
    others = [s for s in ctx.order if s != ctx.seat and s not in passed]
    free = [s for s in others if not ctx.on_barrel[s]] or others
    return ctx.defend_outcome(free, high) - ctx.fresh().defend_outcome(free, high)


def _plan_values(
    decision: Decision,
    deals: list[Deal],
    hand_of: list[int],
    plans: list[Plan],
    thresholds: list[int],
    banked: int = 0,
    bonuses: list[int] | None = None,
) -> list[float]:
    """Mean match value of each plan, sample by sample so every plan sees the same deals.

    ``hand_of[i]`` is the declarer's hand before plan ``i`` and ``bonuses[i]``
    what its last trick carries (they differ when choosing between two talons).
    """
    k, rules, ctx, clock = decision.k, decision.rules, decision.ctx, decision.clock
    me = k.seat
    reached: list[list[Reach]] = [[] for _ in plans]
    for deal in deals:
        if clock.out:
            break
        row = []
        try:
            for i, (plan, hand) in enumerate(zip(plans, hand_of, strict=True)):
                hands = list(deal.hands)
                hands[me] = hand
                hands = declarer_hands(hands, me, plan)
                if bonuses is not None:
                    bonus = bonuses[i]
                else:
                    bonus = last_trick_bonus(rules, k.players, deal.dead)
                r = first_lead_reach(decision, hands, thresholds, banked + _banked(plan), bonus)
                row.append(Reach(r, _extra(hands, me, k.order)))
        except SearchAborted:
            if clock.out:
                break
            continue
        for i, one in enumerate(row):
            reached[i].append(one)
    if not reached[0]:
        return []
    shade, calibrated = decision.budget.shade, decision.budget.make_chance >= 2
    return [contract_choice(ctx, me, r, thresholds, shade, calibrated)[1] for r in reached]


def choose_talon(decision: Decision) -> str:
    """Two players: which of the two talons to take, when both are shown."""
    view, k, rules, _, rng, _, budget = decision
    legal: list[str] = view["legal"]
    shown = view.get("talons")
    if not shown or len(shown) != 2:
        # Taken blind: the talons are alike, and the seed picks one.
        takes = [a for a in legal if a.startswith("take ")]
        return takes[rng.randrange(len(takes))] if takes else _fallback(legal)
    talons = [mask_of(list(t)) for t in shown]
    seen = talons[0] | talons[1]
    known = replace(k, pool=k.pool & ~seen, dead=max(0, k.dead - seen.bit_count()))
    deals = sample_deals(known, budget.choose_samples, rng, rules)
    hands = [k.hand | t for t in talons]
    plans = [lay_away_plans(h, [LAID_AWAY, LAID_AWAY], 1, 2)[0] for h in hands]
    bonuses = [last_trick_bonus(rules, 2, talons[1 - i]) for i in range(2)]
    bid_value = k.bid or 100
    values = _plan_values(decision, deals, hands, plans, [bid_value], 0, bonuses)
    if not values:
        return legal[0]
    best = max(range(2), key=lambda i: (values[i], -i))
    return f"take {best}" if f"take {best}" in legal else legal[0]


def lay_away(decision: Decision) -> str:
    """The talon phase: give a card to each opponent, or discard (two players).

    The plans are compared at the bid. Weighing them at up to 20 bid steps above it as
    well, so that a plan is worth the best contract it allows, measured -1.37 ± 1.67 match
    points per hand in a paired run against the normal level (1,200 deals, 122 changed),
    and +0.20 ± 1.69 (139 changed) with the declaring cap at 180,000 in both. Weighing them
    below it too, at 15, 30 and 45 points under the bid with each sample made by the
    chance :mod:`.make_chance` gives its margin, so that ties between plans are fewer,
    measured -0.49 ± 1.67 (1,200 deals, 124 changed, 4 fewer contracts made). Keeping
    the counting heuristic's plan unless another reaches the bid in at least two more
    samples than it does measured -1.57 ± 2.13 (1,200 deals, 239 changed, 8 fewer contracts
    made): the samples' choice of cards pays, close as it often is.
    """
    view, k, rules, ctx, rng, _, budget = decision
    legal: list[str] = view["legal"]
    receivers = [LAID_AWAY if to is None else to for to in view.get("parting") or []]
    count = budget.discard_plans if k.players == 2 else budget.give_plans
    if not receivers:
        return choose_heuristic(view, "normal", rng)
    plans = lay_away_plans(k.hand, receivers, count, k.players)
    bid_value = k.bid or 100
    deals = sample_deals(k, budget.give_samples, rng, rules)
    banked = points(k.laid_away)
    values = _plan_values(decision, deals, [k.hand] * len(plans), plans, [bid_value], banked)
    if not values:
        return choose_heuristic(view, "normal", rng)
    best = max(range(len(plans)), key=lambda i: (values[i], -i))
    if "redeal" in legal and values[best] < ctx.standing():
        return "redeal"
    for c, to in plans[best]:
        text = f"discard {card_text(c)}" if to == LAID_AWAY else f"give {card_text(c)} {to}"
        if text in legal:
            return text
    return choose_heuristic(view, "normal", rng)


def contract(decision: Decision) -> str:
    """The contract (заказ) once the talon is in hand: a value, writing off, or a redeal."""
    reached = contract_reach(decision)
    if not reached:
        return choose_heuristic(decision.view, "normal", decision.rng)
    return weigh_contract(decision, reached)[0]


def _contract_values(view: dict[str, Any]) -> list[int]:
    return sorted(int(a.split()[1]) for a in view["legal"] if a.startswith("contract "))


def contract_reach(decision: Decision) -> list[Reach]:
    """What each sampled deal reaches at the contract, as many as the cap lets it solve."""
    _, k, rules, _, rng, clock, budget = decision
    # Every legal value is weighed: a binary search finds each sample's highest, so a
    # long list costs one or two more tests. Against the lowest eight only, paired runs
    # against the normal level measured +1.34 ± 1.12 and +1.38 ± 1.21 match points per
    # hand (two runs of 1,200 deals): a hand that takes 220 no longer names 135.
    values = _contract_values(decision.view)
    if not values:
        return []
    deals = sample_deals(k, budget.contract_samples, rng, rules)
    banked = points(k.laid_away)
    probes = _probes(values)
    reached: list[Reach] = []
    for deal in deals:
        if clock.out:
            break
        bonus = last_trick_bonus(rules, k.players, deal.dead)
        try:
            r = first_lead_reach(decision, deal.hands, probes, banked, bonus, budget.contract_shade)
        except SearchAborted:
            if clock.out:
                break
            continue
        reached.append(Reach(r, _extra(deal.hands, k.seat, k.order)))
    return reached


def weigh_contract(decision: Decision, reached: list[Reach]) -> tuple[str, dict[str, float]]:
    """The contract named from the samples ``reached``, and the match value of every legal
    choice on them: each contract value, writing off (less the budget's margin, which it
    must beat) and a redeal."""
    view, k, _, ctx, _, _, budget = decision
    legal: list[str] = view["legal"]
    values = _contract_values(view)
    shade, calibrated = budget.contract_shade, budget.make_chance >= 2
    worth = {
        f"contract {v}": contract_choice(ctx, k.seat, reached, [v], shade, calibrated)[1]
        for v in values
    }
    v, u = contract_choice(ctx, k.seat, reached, values, shade, calibrated)
    if "writeoff" in legal:
        worth["writeoff"] = ctx.write_off_outcome(k.seat, k.bid or values[0])
        worth["writeoff"] -= budget.write_off_margin
    if "redeal" in legal:
        worth["redeal"] = ctx.standing()
    if worth.get("writeoff", -INF) > u:
        return "writeoff", worth
    if worth.get("redeal", -INF) > u:
        return "redeal", worth
    return f"contract {v}", worth


__all__ = ["bid", "choose_talon", "contract", "contract_reach", "lay_away", "weigh_contract"]
