"""The work of one search decision: its budget, its clock and what it reads.

This module owns the bookkeeping the strong level's decisions share: the
fixed amount of work (:class:`Budget`), the node counter and the wall-clock
safety net (:class:`Clock`), and the bundle a decision works from
(:class:`Decision`) — the view, the knowledge read from it, the rules, the
match context and the seeded random generator.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..position import TrickRules
from .knowledge import Knowledge
from .solver import Solver
from .value import MatchContext


@dataclass(frozen=True)
class Budget:
    """The deterministic amount of work per decision, and the margins the declaring weighs by."""

    play_samples: int = 64
    """Card play: sampled deals per decision. With the node counts below, in paired runs
    against the normal level: 32 samples against 16 (and half the nodes) measured +1.28 ±
    0.95 match points per hand (4,500 deals), and 64 against 32 +1.22 ± 1.20 (2,400 deals),
    each for about twice card play's p95 time. 96 against 64, with half as many nodes again,
    measured -1.90 ± 1.71 (1,200 deals, 239 changed) and -0.29 ± 1.55 on deals 1200-2399
    (243 changed): no gain past 64."""
    play_nodes: int = 112_000
    """Nodes for the first pass (reach the contract or not); the rest refines points.
    80,000 here and 80,000 to refine, the same total, measured -0.54 ± 0.93 match points
    per hand in a paired run against the normal level (1,200 deals, 65 changed)."""
    refine_nodes: int = 40_000
    bid_samples: int = 12
    """Bidding: sampled talons and hands per decision. 24 here and in the contract (then 12),
    with the declaring cap at 180,000 against 90,000, measured +0.5 ± 1.5 match points per
    hand in paired runs against the normal level (1,800 deals, 218 changed)."""
    give_samples: int = 16
    """Laying away: sampled deals on which the candidate plans are compared. 16 samples and 6
    plans here and 24 samples for the contract, against 8, 4 and 12, measured +0.84 ± 0.75
    match points per hand in paired runs against the normal level (2,400 deals, 120
    changed); the declaring cap bounds their time. 32 samples against 16 measured -0.22 ±
    0.39, and -0.61 ± 1.88 with the declaring cap at 180,000 against 90,000."""
    give_plans: int = 6
    """Laying away with three or four players: candidate plans, the heuristic's best first,
    each pair of cards both ways round in turn. One plan per pair first, the swapped ones
    after, measured +0.38 ± 1.39 and -0.15 ± 1.35 match points per hand in paired runs
    against the normal level (two runs of 1,200 deals, 88 and 84 changed). Plans that give
    away a king or queen without its partner put last, -0.66 ± 1.34 (1,200 deals, 85
    changed). 10 plans against 6 measured +0.79 ± 1.17 (1,200 deals, 74 changed) and
    -0.19 ± 0.94 on deals 1200-3599 (147 changed): the declaring cap bounds the work, so
    more plans leave each fewer samples."""
    discard_plans: int = 6
    choose_samples: int = 8
    contract_samples: int = 24
    """The contract: sampled deals on which every legal value is weighed. 48 with the
    declaring cap at 180,000, against 24 at 90,000, measured -0.34 ± 1.84 match points per
    hand in a paired run against the normal level."""
    node_cap: int = 160_000
    """Hard cap on nodes for a decision in card play. It binds in the first two tricks
    (about 40 of the 64 samples solved at the first, 49 at the second). Half as many nodes
    again in every pass (168,000, 60,000 and 240,000) measured +0.50 ± 1.18 match points per
    hand in a paired run against the normal level (1,200 deals, 65 changed), and -0.51 ±
    1.04 on deals 1200-2399 (64 changed): the extra samples seldom change the card. Nor
    does spending the same nodes on the close cards: after 16 samples, dropping each card
    that serves the seat's side of the contract in at least 4 fewer samples than the best
    changed 5 of 1,200 paired deals (+0.03 ± 0.09)."""
    own_nodes: int = 40_000
    """Card play as one of two defenders: nodes for a second search per sample in which this
    seat maximises its own points against the other two (0: off), so its utility tells its
    own points from its partner's, who is an opponent on the score sheet; the first search
    still decides the contract. Paired runs against the normal level, at 16 samples: on
    against off +1.45 ± 1.10 match points per hand (1,500 deals); 40,000 nodes against
    20,000 +0.1 ± 1.0 (600 deals); 120,000 against 40,000 -0.04 ± 0.66."""
    hint_margin: float = 0.5
    """Card play: how far below the best card's utility the counting heuristic's card may be
    and still be played (a near-tie, where the samples cannot tell the cards apart). A paired
    run of 900 deals against the normal level, at 16 samples: 0 against 0.5 +0.1 ± 0.9 match
    points per hand; at 64 samples, 2 against 0.5 -1.29 ± 0.91 (1,200 deals, 243 changed)."""
    infer_follow: float = 0.5
    """Card play: a sample's weight for each card another seat played that did not take
    the trick while the sample gives it a cheaper one that would not have either (1: off).
    Both habits at 0.5 against off moved the margin over the normal level in duplicates
    (line-up strong, normal, easy, paired deal by deal on the same deals) by +0.19 ± 0.11
    points per hand over deals 32000-41999 (10,000 deals, 1,785 changed; each block of
    2,000 between +0.06 and +0.28), most of it where the strong level defends and the
    normal level declares (+0.15 of the +0.19), whose play keeps both habits. Both at
    0.25 measured +0.03 ± 0.24 against 0.5 on deals 38000-39999. Early paired runs against
    the normal level, at 16 samples, had found no gain beyond their noise."""
    infer_lead: float = 0.5
    """Card play: the same for each lead of a non-master while the sample gives the
    leader a master (1: off)."""
    play_oversample: int = 3
    """Card play: candidate deals drawn per sample, among which the evidence picks. 8
    against 3, so that the bids and passes can weigh more deals, measured -1.44 ± 2.19
    match points per hand in a paired run against the normal level (1,200 deals, 275
    changed)."""
    declare_cap: int = 180_000
    """Hard cap on nodes for a decision before the first lead (searches from the first trick).
    At 90,000 it often stopped a decision before its samples were done: in 60 deals with the
    strong level at every seat, 23 of 57 contracts were weighed on 5 samples or fewer of
    their 24, and more than half of the lay-away comparisons on fewer than their 16. This
    cap against 90,000, in paired runs against the normal level, measured -0.33 ± 1.84
    match points per hand on deals 0-1199 (159 changed), +0.57 ± 0.96 on deals 1200-5999
    (677 changed) and +0.99 ± 0.95 on deals 6000-10799 (597 changed): +0.66 ± 0.64 over
    the 10,800 deals, with 39 more contracts made in the deals it changed. With this cap, in
    duplicates (line-up strong, normal, easy), the strong level's margin over the normal
    level measured +9.67 ± 0.58 match points per hand on deals 20000-31999 (+9.46 at 90,000
    on deals 0-19999); in the same 300 whole matches to the end it won 63.3% ± 5.6% of
    them, 57.7% ± 5.3% at 90,000. 360,000 against this cap measured -0.51 ± 1.92 in a
    paired run against the normal level (1,200 deals, 146 changed)."""
    solve_share: int = 5
    """One first-trick search may use at most this fraction (1/n) of the declaring cap; a
    sample that needs more is left out, so one hard deal does not eat the whole budget. 3
    against 5 measured -0.5 ± 1.0 match points per hand in a paired run against the normal
    level (1,200 deals, 92 changed)."""
    shade: int = 15
    """Points a sampled double-dummy result must spare before a bid counts on it. In paired
    runs of 1,200 deals against the normal level, 22 measured -1.85 ± 1.84 match points per
    hand, 10 +0.38 ± 1.37 (73 changed) and 5 -0.17 ± 1.80 (111 changed: 102 contracts
    declared against 81, 83 made against 66) against 15. 10 again, on deals 1200-4799:
    +0.31 ± 0.84 (256 changed: 238 contracts declared against 192, 208 made against 164);
    yet in a duplicate (line-up strong, normal, easy, deals 38000-39999) it moved the
    margin over the normal level by -0.22 ± 0.57 points per hand (315 deals changed)."""
    contract_shade: int = 15
    """The same margin for the contract, named once the talon is in hand. Against 15, with
    every legal value weighed, paired runs of 1,200 deals against the normal level measured
    5: -0.64 ± 1.53 match points per hand (174 changed), 10: -0.92 ± 1.55 (154), 20: -0.87
    ± 1.21 (133) and 25: -1.03 ± 0.66 (136)."""
    defend_value: float = 5.0
    """Rough match value of defending a hand, against which declaring is weighed. 10
    against 5 changed 5 of 1,200 paired deals against the normal level (-0.04 ± 0.24): the
    bidding's choices are seldom that close; -20, bidding more, measured -0.55 ± 1.03 (38
    changed)."""
    learned_defend: int = 0
    """1: bidding weighs declaring against the match value of defending that
    :func:`.make_chance.defend_value` learned from hands passed, instead of ``defend_value``
    (0, the default: with ``make_chance`` 1, 600 paired deals against the normal level
    measured -0.6 ± 1.0 match points per hand, 12 deals changed)."""
    make_chance: int = 0
    """Where the declaring counts a sample as made with the chance its margin over the value
    gives (:mod:`.make_chance`, fitted on played-out hands) instead of when it reaches the
    value: 0 nowhere (the default), 1 in bidding, 2 also laying away and the contract. Paired
    runs of 600 deals against the normal level: 1 against 0 measured -0.0 ± 1.4 match points
    per hand (25 deals changed), 2 against 1 +0.2 ± 1.5 (63 changed: raised contracts gain 5
    to 25 points each, and the few they fail cost 200 to 300); 2 against 0 over 1,200 deals
    +0.25 ± 1.51 (167 changed). In duplicates (line-up strong, normal, easy), the strong
    level's margin over the normal level with 2 against 0 was +10.29 against +9.95 on deals
    8000-9999 and +8.85 against +9.99 on deals 10000-11999. Deal by deal over the 4,000
    deals the margin moved -0.40 ± 0.46 points per hand (1,437 deals changed): the strong
    level's own score rose by +0.33 ± 0.38, as it declared more, and the normal level's at
    the same table by +0.73 ± 0.21. Not a gain."""
    heuristic_in: str = ""
    """Roles, joined by ``+``, in which the level plays the normal level's counting heuristic
    instead of searching: ``bid``, ``declare`` (the talon, laying away, the contract),
    ``play_declarer``, ``play_defender``. Empty, the default: the search everywhere. It
    measures, by paired runs, which role the search gains in. The heuristic in one role,
    against the default, in paired runs of 1,200 deals against the normal level: ``bid``
    -0.60 ± 1.85 match points per hand (72 deals changed, in which the search declared 60
    and made 52, the heuristic declared 2), ``declare`` -2.61 ± 2.69 (327 changed),
    ``play_declarer`` -9.11 ± 3.22 (215 changed, in which the heuristic made 87 contracts
    and the search 121) and ``play_defender`` -3.78 ± 1.75 (409 changed)."""
    write_off_margin: float = 15.0
    """Match value by which writing off must beat the best contract: the samples see the
    defenders' cards, so a hand looks more hopeless to them than it is. 0 against 15
    measured -0.95 ± 0.79 match points per hand in paired runs against the normal level
    (1,200 deals, 25 changed: each written off, where playing out made 4 of them). Nor does
    the level play out hands it should write off, against the normal level: of its 399
    contracts in 1,200 calibration deals, 227 had no sample reaching the bid. Writing them
    off would have moved its match points by -46.1 ± 11.2 per contract (40 of them were
    made); the 187 that failed by -7.1 ± 2.7 each, as the defenders took less than the half
    contract a write-off pays them; the 45 with the lowest samples (exact double dummy 19
    points or fewer, 2 made) by -4.7 ± 13.9."""


DEFAULT_BUDGET = Budget()


class Clock:
    """Nodes spent so far against the cap, and the wall-clock deadline."""

    def __init__(self, budget_s: float | None, cap: int) -> None:
        self.deadline = time.perf_counter() + budget_s if budget_s is not None else None
        self.cap = cap
        self.used = 0

    def solver(
        self,
        k: Knowledge,
        declarer: int,
        rules: dict[str, Any],
        last_trick_bonus: int = 0,
        limit: int | None = None,
    ) -> Solver:
        left = max(1, self.cap - self.used)
        if limit is not None:
            left = min(left, limit)
        return Solver(
            k.order,
            declarer,
            node_limit=left,
            deadline=self.deadline,
            rules=TrickRules.of(rules),
            last_trick_bonus=last_trick_bonus,
        )

    def extend(self, nodes: int) -> int:
        """Allow ``nodes`` more from now on, past the cap if need be; where they end."""
        end = self.used + nodes
        self.cap = max(self.cap, end)
        return end

    def spend(self, s: Solver) -> None:
        self.used += s.nodes

    @property
    def out(self) -> bool:
        if self.used >= self.cap:
            return True
        return self.deadline is not None and time.perf_counter() > self.deadline


class Decision(NamedTuple):
    """Everything one decision works from: the view, what it tells, and the budget."""

    view: dict[str, Any]
    k: Knowledge
    rules: dict[str, Any]
    ctx: MatchContext
    rng: random.Random
    clock: Clock
    budget: Budget
