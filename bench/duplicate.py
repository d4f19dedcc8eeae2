"""Duplicate matches between bot levels: the same deals, the bots rotated through every seating.

It measures how strong the bots are against each other. Each deal is
played once per seating of the bots (3! = 6 for three players) from the same
starting scores, so card luck cancels out; a hand is played until it is
scored (a redeal deals again from the same seed, so every seating sees the
same cards). It prints, for each bot, the mean match points (score change
on the sheet) per hand with a 95% confidence interval over the deals, and
for each pair of bots the mean per-deal margin with its 95% CI, then that
margin split by which of the two declared in the seat they took in turn
(both, one, neither): where one level's edge over another comes from. Where
both declared, it is split again by whether each made its contract and whose
contract was higher: what the edge owes to the contract and what to the play.

A ``--variant`` is the strong level with other budget fields, under a name of
its own, so two settings of the search play the same deals side by side:

    python bench/duplicate.py --deals 2000 --bots strong,normal,easy --workers 2
    python bench/duplicate.py --bots strong,wide,normal --variant wide=shade:25
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import engine_path  # first: it puts the engine (or its compiled copy) on sys.path
from thousand import Game, Rules
from thousand.bots import DEFAULT_BUDGET_S, _rng, choose
from thousand.bots.decision import DEFAULT_BUDGET, Budget
from thousand.bots.strong import choose_strong

Variants = dict[str, Budget]


def parse_variants(specs: list[str]) -> Variants:
    """``name=field:value,field:value`` into budgets of the strong level."""
    out: Variants = {}
    for spec in specs:
        name, _, fields = spec.partition("=")
        changes: dict[str, Any] = {}
        for item in filter(None, fields.split(",")):
            key, _, text = item.partition(":")
            kind = type(getattr(DEFAULT_BUDGET, key))
            changes[key] = kind(text)
        out[name] = dataclasses.replace(DEFAULT_BUDGET, **changes)
    return out


def decide(
    view: dict[str, Any], bot: str, seed: int, variants: Variants, budget_s: float | None = None
) -> str:
    """The action of ``bot``: a level, or a variant of the strong level (seeded as strong)."""
    if bot not in variants:
        return choose(view, level=bot, seed=seed, budget_s=budget_s)
    legal: list[str] = view["legal"]
    if len(legal) == 1:
        return legal[0]
    wall = DEFAULT_BUDGET_S if budget_s is None else budget_s
    return choose_strong(view, _rng(view, "strong", seed), wall, variants[bot])


def play_hand(
    bots: list[str],
    seed: str,
    scores: list[int] | None,
    rules: Rules,
    bot_seed: int,
    variants: Variants | None = None,
    budget_s: float | None = None,
) -> tuple[list[int], dict[str, Any]]:
    """Play one scored hand with ``bots[seat]`` at each seat: score changes and sheet row."""
    game = Game.new(rules=rules, seed=seed, scores=scores)
    for _ in range(2000):
        seat = game.current_player
        assert seat is not None
        game.apply(decide(game.view(seat), bots[seat], bot_seed, variants or {}, budget_s))
        rows = [r for r in game.sheet if r["result"] != "redeal"]
        if rows:
            return list(rows[0]["deltas"]), rows[0]
        if game.deal_no > 20:
            break
    return [0] * len(bots), {"result": "redeal"}


def run_deal(
    args: tuple[int, list[str], str, str, list[str], float | None],
) -> dict[str, Any]:
    index, bots, preset, score_mode, variant_specs, budget_s = args
    variants = parse_variants(variant_specs)
    rules = Rules.preset(preset)
    n = rules.players
    rng = random.Random(f"scores/{index}")
    scores = None if score_mode == "zero" else [rng.randrange(0, 141) * 5 for _ in range(n)]
    per_bot: dict[str, list[float]] = {b: [] for b in bots}  # a repeated level pools its seats
    made = {b: [0, 0] for b in bots}  # hands declared, contracts made
    writeoffs = dict.fromkeys(bots, 0)
    seconds = 0.0
    hands: list[dict[str, Any]] = []
    for perm in itertools.permutations(range(len(bots))):
        seating = [bots[p] for p in perm]
        t = time.perf_counter()
        deltas, row = play_hand(
            seating,
            f"dup/{index}",
            scores,
            rules,
            bot_seed=index,
            variants=variants,
            budget_s=budget_s,
        )
        seconds += time.perf_counter() - t
        for seat, bot in enumerate(seating):
            per_bot[bot].append(deltas[seat])
        d = row.get("declarer")
        hands.append({"bots": seating, "deltas": deltas, "declarer": d})
        if d is not None and row["result"] in ("made", "failed", "writeoff"):
            made[seating[d]][0] += 1
            made[seating[d]][1] += row["result"] == "made"
            writeoffs[seating[d]] += row["result"] == "writeoff"
    return {
        "index": index,
        "mean": {b: sum(v) / len(v) for b, v in per_bot.items()},
        "made": made,
        "writeoffs": writeoffs,
        "seconds": seconds,
        "hands": hands,
    }


def load_runs(paths: list[str]) -> list[dict[str, Any]]:
    """The per-deal (or per-match) results of earlier ``--json`` runs, together."""
    merged: list[dict[str, Any]] = []
    for path in paths:
        with open(path) as f:
            merged.extend(json.load(f))
    return merged


def save(results: list[dict[str, Any]], path: str) -> None:
    with open(path, "w") as f:
        json.dump(sorted(results, key=lambda r: r["index"]), f)


def ci(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    var = sum((x - mean) ** 2 for x in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="number of deals (each played 6 times)")
    ap.add_argument("--bots", default="strong,normal,easy", help="three levels, comma-separated")
    ap.add_argument("--preset", default="classic")
    ap.add_argument(
        "--scores",
        choices=("zero", "random"),
        default="zero",
        help="starting scores of every deal: all zero, or random 0..700 per seat",
    )
    ap.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=FIELD:VALUE,...",
        help="a strong level with other budget fields, usable as a bot name",
    )
    ap.add_argument("--budget-s", type=float, help=engine_path.BUDGET_S_HELP)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--compiled", action="store_true", help=engine_path.COMPILED_HELP)
    ap.add_argument("--start", type=int, default=0, help="index of the first deal")
    ap.add_argument("--json", help="also write the per-deal results here")
    ap.add_argument(
        "--merge",
        nargs="+",
        metavar="JSON",
        help="print the figures of earlier --json runs together, playing nothing",
    )
    args = ap.parse_args()
    bots = args.bots.split(",")
    if args.merge:
        summary(load_runs(args.merge), bots, args, 0.0)
        return
    tasks = [
        (i, bots, args.preset, args.scores, args.variant, args.budget_s)
        for i in range(args.start, args.start + args.deals)
    ]
    parse_variants(args.variant)  # a misspelt field fails here, not in every worker
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    with multiprocessing.Pool(args.workers) as pool:
        for k, r in enumerate(pool.imap_unordered(run_deal, tasks, chunksize=1)):
            results.append(r)
            if (k + 1) % 10 == 0 and args.json:
                save(results, args.json)  # a run cut short still leaves its deals
            if (k + 1) % 50 == 0:
                print(
                    f"  {k + 1}/{len(tasks)} deals, {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
    results.sort(key=lambda r: r["index"])
    if args.json:
        save(results, args.json)
    summary(results, bots, args, time.perf_counter() - started)


def summary(results: list[dict[str, Any]], bots: list[str], args: Any, seconds: float) -> None:
    n = len(results)
    if len({r["index"] for r in results}) != n:
        raise SystemExit("the same deal appears twice")
    print(
        f"duplicate: {n} deals x {math.factorial(len(bots))} seatings, preset {args.preset}, "
        f"scores {args.scores}, bots {', '.join(bots)}; {seconds:.0f} s"
    )
    print("mean match points per hand (95% CI):")
    for b in dict.fromkeys(bots):
        m, h = ci([r["mean"][b] for r in results])
        declared = sum(r["made"][b][0] for r in results)
        made = sum(r["made"][b][1] for r in results)
        wo = sum(r["writeoffs"][b] for r in results)
        rate = made / declared if declared else float("nan")
        print(
            f"  {b:7s} {m:+7.2f} ± {h:5.2f}   declared {declared}, made {rate:.1%}, "
            f"written off {wo}"
        )
    print("margins, per deal (95% CI):")
    for a, b in itertools.combinations(dict.fromkeys(bots), 2):
        m, h = ci([r["mean"][a] - r["mean"][b] for r in results])
        verdict = "excludes 0" if abs(m) > h else "includes 0"
        print(f"  {a} - {b}: {m:+7.2f} ± {h:5.2f}  ({verdict})")
    if len(set(bots)) == len(bots) and all("hands" in r for r in results):
        print("margins by who declared, the two in turn in one seat (share of the margin, count):")
        _print_split(results, bots, margin_by_declarer)
        print(
            "where both declared, by made (M) or not (F) and whose contract was higher "
            "(share of the margin, count):"
        )
        _print_split(results, bots, margin_where_both_declared)


Split = dict[str, tuple[float, int]]
"""A margin's shares by kind of comparison: the share and the number of comparisons."""


class Comparison(NamedTuple):
    """``a`` and ``b`` in turn in one seat, the others staying: their score changes there."""

    mine: int
    theirs: int
    declared: tuple[bool, bool]
    """Whether ``a``, then ``b``, declared from that seat."""


def _print_split(
    results: list[dict[str, Any]],
    bots: list[str],
    split: Callable[[list[dict[str, Any]], str, str], Split],
) -> None:
    for a, b in itertools.combinations(bots, 2):
        parts = split(results, a, b)
        shares = ", ".join(f"{k} {v:+.2f} ({c})" for k, (v, c) in parts.items() if c)
        print(f"  {a} - {b}: {shares}")


def margin_by_declarer(results: list[dict[str, Any]], a: str, b: str) -> Split:
    """The margin of ``a`` over ``b``, split by which of them declared."""
    kind_of = {
        (True, True): "both declared",
        (True, False): f"{a} only",
        (False, True): f"{b} only",
        (False, False): "neither",
    }
    return _split(results, a, b, list(kind_of.values()), lambda c: kind_of[c.declared])


def margin_where_both_declared(results: list[dict[str, Any]], a: str, b: str) -> Split:
    """The share of ``a``'s margin over ``b`` where both declared, by whether each made
    its contract (a score change above zero) and whose contract was higher (the size of
    the score change: the contract, or the bid written off)."""
    ranks = ("higher", "same", "lower")
    kinds = [f"{x}{y} {a} {rank}" for x in "MF" for y in "MF" for rank in ranks]

    def kind(c: Comparison) -> str | None:
        if c.declared != (True, True):
            return None
        mine, theirs = abs(c.mine), abs(c.theirs)
        rank = "higher" if mine > theirs else "lower" if mine < theirs else "same"
        return f"{'M' if c.mine > 0 else 'F'}{'M' if c.theirs > 0 else 'F'} {a} {rank}"

    return _split(results, a, b, kinds, kind)


def _split(
    results: list[dict[str, Any]],
    a: str,
    b: str,
    kinds: list[str],
    kind_of: Callable[[Comparison], str | None],
) -> Split:
    """The margin of ``a`` over ``b``, split by ``kind_of`` each comparison (``None``: left out).

    Each seating of a deal is compared with the one where ``a`` and ``b`` have
    changed seats and the others stay: ``a``'s score change in its seat
    against ``b``'s in that same seat. The comparisons of a deal add up to its
    margin times the number of seatings, so each kind's share is its sum over
    that many per deal, with the number of comparisons of that kind.
    """
    sums = dict.fromkeys(kinds, 0.0)
    counts = dict.fromkeys(kinds, 0)
    for r in results:
        by_seating = {tuple(h["bots"]): h for h in r["hands"]}
        for seating, h in by_seating.items():
            p, q = seating.index(a), seating.index(b)
            swapped = list(seating)
            swapped[p], swapped[q] = b, a
            other = by_seating[tuple(swapped)]
            c = Comparison(
                h["deltas"][p], other["deltas"][p], (h["declarer"] == p, other["declarer"] == p)
            )
            kind = kind_of(c)
            if kind is not None:
                sums[kind] += c.mine - c.theirs
                counts[kind] += 1
    per = max(1, sum(len(r["hands"]) for r in results))
    return {k: (v / per, counts[k]) for k, v in sums.items()}


if __name__ == "__main__":
    main()
