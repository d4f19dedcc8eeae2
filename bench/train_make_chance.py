"""Fit the strong level's make-chance model on hands it declared and played out.

It writes ``engine/thousand/bots/make_chance.json``: the weights of the
logistic model of :mod:`thousand.bots.make_chance`, which turns one sampled
deal's margin over a contract into the chance of making it. The training
hands are those of ``bench/calibration.py`` (seeds ``calibration/<i>``; the
paired bench plays ``dup/<i>``), where the strong level at one seat named a
contract and played it: a hand's chance is the mean of its samples' chances,
and the weights maximise the likelihood of the contracts made and failed.
The fit is full-batch gradient ascent from zero, so the same hands give the
same weights. It prints the fit's log-loss beside the raw shaded share's, on
the even and the odd hands crosswise, and the calibration table of the fit.

    python bench/train_make_chance.py --deals 600            # plays the hands (about 20 min)
    python bench/train_make_chance.py --load /tmp/calibration.json
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "engine"))

from calibration import make_rate_table, run
from duplicate import load_runs
from thousand.bots.make_chance import defend_inputs, features, margin, sample_chance
from thousand.table import OBLIGATORY_BID

OUT = os.path.join(
    os.path.dirname(__file__), "..", "engine", "thousand", "bots", "make_chance.json"
)

Hand = tuple[list[list[float]], bool, float]
"""One training hand: its samples' inputs, whether it was made, the raw shaded share."""
Passed = tuple[list[float], float]
"""One hand the strong seat passed: the defence model's inputs, the match points it scored."""


def hands_of(results: list[dict[str, Any]]) -> list[Hand]:
    out: list[Hand] = []
    for r in sorted(results, key=lambda r: r["index"]):
        c = r.get("contract")
        if not c or r.get("declarer") != r["seat"] or r["result"] not in ("made", "failed"):
            continue
        v = int(r["final"])
        reached = [int(x) for x in c["reached"]]
        if not reached:
            continue
        xs = [features(margin(x, v)) for x in reached]
        raw = sum(x >= v for x in reached) / len(reached)
        out.append((xs, r["result"] == "made", raw))
    return out


def passes_of(results: list[dict[str, Any]], weights: tuple[float, ...]) -> list[Passed]:
    """The last pass of the strong seat in each scored hand, with the match points it scored."""
    out: list[Passed] = []
    for r in sorted(results, key=lambda r: r["index"]):
        passes = [b for b in r["bids"] if b["action"] == "pass" and b["reached"]]
        if not passes or "deltas" not in r:
            continue
        b, seat, deltas = passes[-1], r["seat"], r["deltas"]
        target = int(b["values"][0])
        chance = sum(sample_chance(x, target, weights) for x in b["reached"]) / len(b["reached"])
        others = [d for s, d in enumerate(deltas) if s != seat]
        # The classic preset bids by 5: a next bid above 105 is over a raised bid.
        inputs = defend_inputs(chance, target - 5 > OBLIGATORY_BID)
        out.append((inputs, deltas[seat] - sum(others) / len(others)))
    return out


def least_squares(rows: list[Passed]) -> list[float]:
    """Weights minimising the squared error (normal equations, Gauss-Jordan)."""
    n = len(rows[0][0])
    a = [
        [sum(x[i] * x[j] for x, _ in rows) + (1e-6 if i == j else 0.0) for j in range(n)]
        for i in range(n)
    ]
    b = [sum(x[i] * y for x, y in rows) for i in range(n)]
    for i in range(n):
        p = a[i][i]
        for j in range(n):
            if j != i:
                f = a[j][i] / p
                a[j] = [u - f * v for u, v in zip(a[j], a[i], strict=True)]
                b[j] -= f * b[i]
    return [b[i] / a[i][i] for i in range(n)]


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def chance(w: list[float], xs: list[list[float]]) -> float:
    return sum(_sigmoid(sum(a * b for a, b in zip(w, x, strict=True))) for x in xs) / len(xs)


def fit(hands: list[Hand], steps: int = 3000, rate: float = 0.05, l2: float = 1e-3) -> list[float]:
    """Weights maximising the hands' log-likelihood (Adam, full batch, from zero)."""
    n = len(hands[0][0][0])
    w = [0.0] * n
    m1, m2 = [0.0] * n, [0.0] * n
    for t in range(1, steps + 1):
        grad = [-l2 * len(hands) * wi for wi in w]
        for xs, made, _ in hands:
            qs = [_sigmoid(sum(a * b for a, b in zip(w, x, strict=True))) for x in xs]
            p = min(1 - 1e-6, max(1e-6, sum(qs) / len(qs)))
            coef = (1 / p if made else -1 / (1 - p)) / len(xs)
            for q, x in zip(qs, xs, strict=True):
                d = coef * q * (1 - q)
                for i in range(n):
                    grad[i] += d * x[i]
        for i in range(n):
            g = grad[i] / len(hands)
            m1[i] = 0.9 * m1[i] + 0.1 * g
            m2[i] = 0.999 * m2[i] + 0.001 * g * g
            w[i] += rate * (m1[i] / (1 - 0.9**t)) / (math.sqrt(m2[i] / (1 - 0.999**t)) + 1e-8)
    return w


def log_loss(ps: list[float], ys: list[bool]) -> float:
    total = 0.0
    for p, y in zip(ps, ys, strict=True):
        p = min(1 - 1e-3, max(1e-3, p))
        total -= math.log(p if y else 1 - p)
    return total / max(1, len(ps))


def table(title: str, ps: list[float], ys: list[bool]) -> None:
    rows = [{"chance": p, "made": y} for p, y in zip(ps, ys, strict=True)]
    make_rate_table(title, rows, lambda r: float(r["chance"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--load", nargs="*", help="calibration.py --json files instead of playing")
    ap.add_argument("--save", help="also keep the played hands here (calibration.py's format)")
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    started = time.perf_counter()
    if args.load:
        results = load_runs(args.load)
    else:
        # The hands are played by the uncalibrated declaring, whatever the default budget.
        specs = ["strong=make_chance:0,learned_defend:0"]
        tasks = [(i, "normal", specs, 60.0) for i in range(args.deals)]
        with multiprocessing.Pool(args.workers) as pool:
            results = list(pool.imap_unordered(run, tasks, chunksize=2))
        if args.save:
            with open(args.save, "w") as f:
                json.dump(sorted(results, key=lambda r: r["index"]), f)
    hands = hands_of(results)
    ys = [made for _, made, _ in hands]
    print(f"train_make_chance: {len(hands)} contracts played, made {sum(ys) / len(ys):.1%}")
    halves = [hands[0::2], hands[1::2]]
    cross_fit, cross_raw, cross_y = [], [], []
    for i in range(2):
        w = fit(halves[1 - i])
        cross_fit += [chance(w, xs) for xs, _, _ in halves[i]]
        cross_raw += [raw for _, _, raw in halves[i]]
        cross_y += [made for _, made, _ in halves[i]]
    print(
        f"  held out (each half fitted on the other): log-loss {log_loss(cross_fit, cross_y):.3f}"
        f", the raw shaded share's {log_loss(cross_raw, cross_y):.3f}"
    )
    table("  the fit, held out:", cross_fit, cross_y)
    table("  the raw shaded share:", cross_raw, cross_y)
    w = fit(hands)
    weights = tuple(round(x, 4) for x in w)
    print(f"  weights (bias, margin/10, reaches): {list(weights)}")
    margins = (-60, -50, -25, -10, 0, 10, 25)
    chances = ", ".join(f"{m:+d}: {sample_chance(100 + m, 100, weights):.1%}" for m in margins)
    print(f"    a sample's chance by its margin: {chances}")
    passed = passes_of(results, weights)
    defend = [round(x, 2) for x in least_squares(passed)]
    print(f"  defending, {len(passed)} hands passed: weights (bias, chance, raised) {defend}")
    for lo in range(5):
        group = [y for x, y in passed if min(4, int(x[1] * 5)) == lo and not x[2]]
        if group:
            print(
                f"    chance {lo * 20:3d}-{lo * 20 + 20:3d}%, over the obligatory bid: "
                f"n={len(group):4d}"
                f"  scored {sum(group) / len(group):+6.1f}"
            )
    with open(args.out, "w") as f:
        json.dump(
            {
                "inputs": ["bias", "margin/10", "reaches"],
                "weights": list(weights),
                "hands": len(hands),
                "defend_inputs": ["bias", "chance", "raised"],
                "defend": defend,
                "passed": len(passed),
            },
            f,
            indent=1,
        )
        f.write("\n")
    print(f"  wrote {os.path.relpath(args.out)}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
