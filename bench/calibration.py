"""Calibration of the strong level's declaring: what the samples promise against what happens.

It measures whether the double-dummy samples the strong level bids and names
its contract by are too optimistic or too pessimistic. Each deal is one
hand with the strong level at one seat (rotating with the deal) against two
copies of another level. At each of the strong seat's bids and at its
contract (заказ) it records what every sample reached (the shaded
double-dummy result of :func:`~thousand.bots.declaring.first_lead_reach`),
and at the contract also the exact double-dummy total of every sample and
of the true deal; the hand is then played out. It prints the make rate
against the predicted share of samples reaching the contract, bucketed, and
the over- or under-estimate by hand type; ``--json`` keeps every record
(the training data of :mod:`train_make_rate`).

    python bench/calibration.py --deals 300 --json /tmp/calibration.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "engine"))

from duplicate import load_runs, parse_variants
from thousand import Game, Rules
from thousand.bots import _rng, choose
from thousand.bots import declaring as declaring_module
from thousand.bots.decision import Budget
from thousand.bots.make_chance import hand_chance
from thousand.bots.solver import Solver
from thousand.bots.strong import choose_strong
from thousand.position import TrickRules

Record = dict[str, Any]


class Recorder:
    """Wraps the declaring's sample functions in this process to keep what they saw."""

    def __init__(self) -> None:
        self.phase = ""
        self.calls: list[Record] = []
        self.exact: list[int] = []
        self.want_exact = False
        self._choice = declaring_module.contract_choice
        self._reach = declaring_module.first_lead_reach

    def install(self) -> None:
        declaring_module.contract_choice = self.contract_choice  # type: ignore[assignment]
        declaring_module.first_lead_reach = self.first_lead_reach  # type: ignore[assignment]

    def contract_choice(
        self, ctx: Any, me: int, reached: list[Any], values: list[int], *a: Any
    ) -> tuple[int, float]:
        v, u = self._choice(ctx, me, reached, values, *a)
        self.calls.append(
            {
                "phase": self.phase,
                "values": list(values),
                "reached": [r.points for r in reached],
                "extra": [sum(r.extra.values()) for r in reached],
                "exact": list(self.exact) if self.want_exact else None,
                "choice": v,
                "utility": u,
            }
        )
        return v, u

    def first_lead_reach(
        self,
        decision: Any,
        hands: list[int],
        thresholds: list[int],
        banked: int = 0,
        bonus: int = 0,
        shade: int | None = None,
    ) -> int:
        r: int = self._reach(decision, hands, thresholds, banked, bonus, shade)
        if self.want_exact:
            k = decision.k
            s = Solver(k.order, k.seat, rules=TrickRules.of(decision.rules), last_trick_bonus=bonus)
            self.exact.append(banked + s.solve(hands, k.seat, None, 0))
        return r


RECORDER: Recorder | None = None


def run(args: tuple[int, str, list[str], float]) -> Record:
    index, against, specs, budget_s = args
    global RECORDER
    if RECORDER is None:
        RECORDER = Recorder()
        RECORDER.install()
    rec = RECORDER
    budget: Budget = parse_variants(specs)["strong"]
    rules = Rules.preset("classic")
    seat = index % rules.players
    game = Game.new(rules=rules, seed=f"calibration/{index}")
    out: Record = {"index": index, "seat": seat, "bids": [], "contract": None}
    for _ in range(2000):
        s = game.current_player
        assert s is not None
        view = game.view(s)
        phase = view["phase"]
        if phase == "play" and not game.tricks and not game.trick and "dd" not in out:
            d = game.declarer
            assert d is not None
            solver = Solver([0, 1, 2], d)
            out["dd"] = solver.solve(list(game.hands), d, None, 0)
        if s != seat:
            action = choose(view, level=against, seed=index)
        else:
            rec.phase, rec.calls, rec.exact = phase, [], []
            rec.want_exact = phase == "contract"
            legal: list[str] = view["legal"]
            if len(legal) == 1:
                action = legal[0]
            else:
                action = choose_strong(view, _rng(view, "strong", index), budget_s, budget)
            if phase == "bidding" and rec.calls:
                out["bids"].append({**rec.calls[-1], "action": action})
            if phase == "contract" and rec.calls:
                hand = view["hand"]
                out["contract"] = {**rec.calls[-1], "action": action, "hand": hand}
            rec.want_exact = False
        game.apply(action)
        rows = [r for r in game.sheet if r["result"] != "redeal"]
        if rows:
            row = rows[0]
            out.update(
                declarer=row["declarer"],
                result=row["result"],
                bid=row["bid"],
                final=row["contract"],
                totals=row.get("totals"),
                deltas=row["deltas"],
            )
            return out
        if game.deal_no > 20:
            break
    out["result"] = "none"
    return out


# --- the report ----------------------------------------------------------------------------


def share(reached: list[int], value: int) -> float:
    return sum(r >= value for r in reached) / max(1, len(reached))


def make_rate_table(title: str, rows: list[Record], key: Callable[[Record], float]) -> None:
    """Make rate against ``key`` (a predicted chance), in buckets of 20%."""
    print(title)
    buckets: dict[int, list[Record]] = defaultdict(list)
    for r in rows:
        buckets[min(4, int(key(r) * 5))].append(r)
    for lo, group in sorted(buckets.items()):
        made = sum(r["made"] for r in group) / len(group)
        pred = sum(key(r) for r in group) / len(group)
        print(
            f"  {lo * 20:3d}-{lo * 20 + 20:3d}%  n={len(group):4d}  "
            f"predicted {pred:5.1%}  made {made:5.1%}"
        )


def margin_of(r: Record) -> float:
    """The strong seat's match points: its score change minus the others' mean."""
    d, seat = r["deltas"], r["seat"]
    others = [x for s, x in enumerate(d) if s != seat]
    return float(d[seat] - sum(others) / len(others))


def contracts(results: list[Record]) -> list[Record]:
    """One record per contract the strong seat named and played (not written off)."""
    out = []
    for r in results:
        c = r.get("contract")
        if not c or r.get("declarer") != r["seat"] or r["result"] not in ("made", "failed"):
            continue
        v = r["final"]
        hand = c["hand"]
        out.append(
            {
                "value": v,
                "bid": r["bid"],
                "made": r["result"] == "made",
                "total": r["totals"][r["seat"]],
                "share": share(c["reached"], v),
                "share_low": share(c["reached"], v - 25),
                "exact": c["exact"],
                "dd": r.get("dd"),
                "hand": hand,
            }
        )
    return out


def report(results: list[Record]) -> None:
    rows = contracts(results)
    n = max(1, len(rows))
    print(f"  contracts played: {len(rows)}, made {sum(r['made'] for r in rows) / n:.1%}")
    for r in rows:
        ex = r["exact"] or [0]
        r["exact_mean"] = sum(ex) / len(ex)
        r["exact_share"] = sum(x >= r["value"] for x in ex) / len(ex)
        r["exact_share15"] = sum(x >= r["value"] + 15 for x in ex) / len(ex)
    make_rate_table(
        "make rate against the share of samples reaching the contract (with the shade)",
        rows,
        lambda r: r["share"],
    )
    make_rate_table(
        "make rate against the share of samples whose exact double dummy reaches it (no shade)",
        rows,
        lambda r: r["exact_share"],
    )
    print("mean points: samples' exact double dummy, the true deal's, taken in play (by type)")
    types: dict[str, list[Record]] = defaultdict(list)
    for r in rows:
        cards = r["hand"]
        suits = {c[1] for c in cards if c[0] == "K"} & {c[1] for c in cards if c[0] == "Q"}
        aces = sum(c[0] == "A" for c in cards)
        types[f"marriages {min(2, len(suits))}"].append(r)
        types[f"aces {min(3, aces)}"].append(r)
        types[
            f"contract {'100' if r['value'] <= 100 else '105-115' if r['value'] < 120 else '120+'}"
        ].append(r)
        types["all"].append(r)
    for name in sorted(types):
        g = types[name]
        sm = sum(r["exact_mean"] for r in g) / len(g)
        dd = sum(r["dd"] for r in g if r["dd"] is not None) / len(g)
        taken = sum(r["total"] for r in g) / len(g)
        made = sum(r["made"] for r in g) / len(g)
        pred = sum(r["share"] for r in g) / len(g)
        print(
            f"  {name:16s} n={len(g):4d}  samples {sm:6.1f}  true dd {dd:6.1f}  taken {taken:6.1f}"
            f"  (samples - taken {sm - taken:+5.1f})  predicted {pred:5.1%} made {made:5.1%}"
        )
    bids = [b for r in results for b in r["bids"]]
    bid_made = []
    for r in results:
        if r.get("declarer") != r["seat"] or r["result"] not in ("made", "failed"):
            continue
        last = [b for b in r["bids"] if b["action"] == f"bid {r['bid']}"]
        if last:
            b = last[-1]
            bid_made.append(
                {"share": share(b["reached"], b["values"][0]), "made": r["result"] == "made"}
            )
    print(f"  bid decisions: {len(bids)}, bid {sum(b['action'].startswith('bid') for b in bids)}")
    make_rate_table(
        "the winning bid: make rate against the share of bid samples reaching it (with the shade)",
        bid_made,
        lambda r: r["share"],
    )
    declared = [r for r in results if r.get("declarer") == r["seat"]]
    wo = sum(r["result"] == "writeoff" for r in declared)
    print(f"  declared {len(declared)}, written off {wo}")
    print("the strong seat's match points per hand, declaring and defending")
    scored = [r for r in results if r.get("declarer") is not None and "deltas" in r]
    for name, test in (
        ("declared, bid 100", lambda r: r["declarer"] == r["seat"] and r["bid"] == 100),
        ("declared, bid above", lambda r: r["declarer"] == r["seat"] and r["bid"] > 100),
        ("defended, bid 100", lambda r: r["declarer"] != r["seat"] and r["bid"] == 100),
        ("defended, bid above", lambda r: r["declarer"] != r["seat"] and r["bid"] > 100),
    ):
        g = [r for r in scored if test(r)]
        if g:
            made = sum(r["result"] == "made" for r in g) / len(g)
            mean = sum(map(margin_of, g)) / len(g)
            print(f"  {name:20s} n={len(g):4d}  {mean:+6.1f}  declarer made {made:5.1%}")
    print("after the strong seat's last pass: match points by its hand's make chance (the model)")
    passed: dict[tuple[int, int], list[float]] = defaultdict(list)
    for r in scored:
        passes = [b for b in r["bids"] if b["action"] == "pass" and b["reached"]]
        if passes:
            target = passes[-1]["values"][0]
            chance = hand_chance(passes[-1]["reached"], target)
            passed[(target, min(4, int(chance * 5)))].append(margin_of(r))
    for (target, lo), g in sorted(passed.items()):
        print(
            f"  next bid {target}, chance {lo * 20:3d}-{lo * 20 + 20:3d}%  n={len(g):4d}  "
            f"{sum(g) / len(g):+6.1f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--start", type=int, default=0, help="index of the first deal")
    ap.add_argument("--against", default="normal")
    ap.add_argument("--budget", default="", metavar="FIELD:VALUE,...", help="the strong setting")
    ap.add_argument("--budget-s", type=float, default=60.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", help="write the per-deal records here")
    ap.add_argument("--load", nargs="*", help="report on earlier --json files instead")
    args = ap.parse_args()
    if args.load:
        results = load_runs(args.load)
        report(results)
        return
    specs = [f"strong={args.budget}"]
    tasks = [
        (i, args.against, specs, args.budget_s) for i in range(args.start, args.start + args.deals)
    ]
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = list(pool.imap_unordered(run, tasks, chunksize=2))
    results.sort(key=lambda r: r["index"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f)
    print(
        f"calibration: {args.deals} deals, strong at one seat against two {args.against}; "
        f"{time.perf_counter() - started:.0f} s"
    )
    report(results)


if __name__ == "__main__":
    main()
