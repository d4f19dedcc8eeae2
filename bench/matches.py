"""Whole duplicate matches between bot levels: who wins the match to 1000.

It measures whether a level's strength per hand turns into matches won.
Each match is played once per seating of the bots (3! = 6 for three
players) from the same seed, so every seating is dealt the same sequence of
decks (a deal's cards depend only on the seed and the deal number); a match
runs from zero to its end under the preset's rules (the barrel, falls,
bolts, write-offs). It prints, for each bot, the share of matches won
(an even share is 1/3 for three bots) with a 95% confidence interval over
the matches, the mean number of hands per match, how often each bot
declared per match and how its contracts ended (made, failed, written
off), and for each pair of bots the difference of their shares with its
95% CI.

Whole matches take hours, so a run can be spread over several: each
match's result is tagged with the digest of the engine's code, a run
given a ``--json`` file it wrote before goes on from there, and ``--merge``
refuses results of different engines.

    python bench/matches.py --matches 300 --bots strong,normal,easy --workers 2
    python bench/matches.py --matches 100 --start 100 --compiled --json bench/results/m100.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import multiprocessing
import os
import sys
import time
from typing import Any

import engine_path  # first: it puts the engine (or its compiled copy) on sys.path
from duplicate import ci, load_runs
from thousand import Game, Rules
from thousand.bots import choose

MAX_HANDS = 400
"""A match still open after this many hands counts as won by nobody."""


RESULTS = ("made", "failed", "writeoff")
"""The ends of a hand someone declared, as the score sheet names them."""


def play_match(
    bots: list[str], seed: str, rules: Rules, bot_seed: int, budget_s: float | None = None
) -> tuple[int | None, int, list[dict[str, int]]]:
    """Play one whole match with ``bots[seat]`` at each seat: the winning seat, the hands,
    and per seat how many of its contracts ended in each of :data:`RESULTS`."""
    game = Game.new(rules=rules, seed=seed)
    while game.phase != "over" and game.hand_no < MAX_HANDS:
        seat = game.current_player
        assert seat is not None
        game.apply(choose(game.view(seat), level=bots[seat], seed=bot_seed, budget_s=budget_s))
    winner = game.winner if game.phase == "over" else None
    contracts = [dict.fromkeys(RESULTS, 0) for _ in bots]
    for row in game.sheet:
        if row.get("declarer") is not None and row.get("result") in RESULTS:
            contracts[row["declarer"]][row["result"]] += 1
    return winner, game.hand_no, contracts


def run_match(args: tuple[int, list[str], str, float | None]) -> dict[str, Any]:
    index, bots, preset, budget_s = args
    rules = Rules.preset(preset)
    wins = dict.fromkeys(bots, 0.0)
    contracts = {b: dict.fromkeys(RESULTS, 0) for b in bots}
    seatings = 0
    hands = 0
    started = time.perf_counter()
    for perm in itertools.permutations(range(len(bots))):
        seating = [bots[p] for p in perm]
        winner, n, ends = play_match(seating, f"match/{index}", rules, index, budget_s)
        seatings += 1
        hands += n
        if winner is not None:
            wins[seating[winner]] += 1
        for seat, counts in enumerate(ends):
            for result, count in counts.items():
                contracts[seating[seat]][result] += count
    return {
        "index": index,
        "share": {b: w / seatings for b, w in wins.items()},
        "hands": hands / seatings,
        "contracts": contracts,
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--matches", type=int, default=30, help="matches (each played 6 times)")
    ap.add_argument("--bots", default="strong,normal,easy", help="three levels, comma-separated")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--compiled", action="store_true", help=engine_path.COMPILED_HELP)
    ap.add_argument("--start", type=int, default=0, help="index of the first match")
    ap.add_argument("--budget-s", type=float, help=engine_path.BUDGET_S_HELP)
    ap.add_argument(
        "--json",
        help="also write the per-match results here; a run given a file it wrote before "
        "goes on from the matches it holds",
    )
    ap.add_argument("--merge", nargs="+", metavar="JSON", help="print earlier --json runs together")
    args = ap.parse_args()
    bots = args.bots.split(",")
    if len(set(bots)) != len(bots):
        raise SystemExit("give three different levels: a repeated one would share its wins")
    if args.merge:
        merged = load_runs(args.merge)
        check_engine(merged)
        summary(merged, bots, args, 0.0)
        return
    engine = engine_path.source_digest()
    results: list[dict[str, Any]] = []
    if args.json and os.path.exists(args.json):
        # Go on with a run that was stopped: keep the matches it finished.
        results = load_runs([args.json])
        check_engine(results, engine)
    done = {r["index"] for r in results}
    tasks = [
        (i, bots, args.preset, args.budget_s)
        for i in range(args.start, args.start + args.matches)
        if i not in done
    ]
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for k, r in enumerate(pool.imap_unordered(run_match, tasks, chunksize=1)):
            r["engine"] = engine
            results.append(r)
            print(
                f"  {k + 1}/{len(tasks)} matches, {time.perf_counter() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
            if args.json:
                with open(args.json, "w") as f:
                    json.dump(sorted(results, key=lambda r: r["index"]), f)
    results.sort(key=lambda r: r["index"])
    summary(results, bots, args, time.perf_counter() - started)


def check_engine(results: list[dict[str, Any]], engine: str | None = None) -> None:
    """Stop when the results come from more than one engine (or not from ``engine``)."""
    engines = {r.get("engine") for r in results}
    if engine is not None:
        engines.add(engine)
    if len(engines) > 1:
        raise SystemExit(
            f"these results come from different engines ({', '.join(map(str, engines))}): "
            "a changed bot is a new measurement"
        )


def summary(results: list[dict[str, Any]], bots: list[str], args: Any, seconds: float) -> None:
    n = len(results)
    if len({r["index"] for r in results}) != n:
        raise SystemExit("the same match appears twice")
    seatings = math.factorial(len(bots))
    hands = sum(r["hands"] for r in results) / max(1, n)
    print(
        f"whole matches: {n} matches x {seatings} seatings, preset {args.preset}, "
        f"bots {', '.join(bots)}; {hands:.1f} hands per match; {seconds:.0f} s"
    )
    print(f"share of matches won (95% CI; an even share is {1 / len(bots):.1%}):")
    for b in bots:
        m, h = ci([r["share"][b] for r in results])
        print(f"  {b:7s} {m:6.1%} ± {h:5.1%}   ({round(m * n * seatings)} of {n * seatings})")
    counted = [r for r in results if "contracts" in r]
    if counted:
        print(f"contracts per match, of {len(counted)} matches (made, failed, written off):")
        for b in bots:
            total = {x: sum(r["contracts"][b][x] for r in counted) for x in RESULTS}
            declared = sum(total.values())
            made, failed, written_off = (total[x] / max(1, declared) for x in RESULTS)
            print(
                f"  {b:7s} {declared / (len(counted) * seatings):5.1f} declared, "
                f"{made:6.1%} made, {failed:6.1%} failed, {written_off:6.1%} written off"
            )
    print("differences of the shares, per match (95% CI):")
    for a, b in itertools.combinations(bots, 2):
        m, h = ci([r["share"][a] - r["share"][b] for r in results])
        verdict = "excludes 0" if abs(m) > h else "includes 0"
        print(f"  {a} - {b}: {m:+6.1%} ± {h:5.1%}  ({verdict})")


if __name__ == "__main__":
    main()
