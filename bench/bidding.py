"""Bidding sanity of the bots: who wins the bidding, who makes it, and absurd contracts.

It measures whether the bots bid sensibly. Each deal is one hand with
the tested level at one seat (rotating with the deal) against two copies of
another level. At the first lead it solves the true deal with perfect
information (the declarer's best possible result, double dummy), and it
prints per level: how often the level won the bidding (declarer (играющий)
at the obligatory 100 or above) and how often it then made its contract
(заказ), its write-off (роспись) rate, and how often its contract was above
what the hand could make even double dummy (by any margin, and by 30+).

    python bench/bidding.py --deals 1000 --level strong --against normal --compiled --budget-s 60
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from typing import Any

import engine_path  # first: it puts the engine (or its compiled copy) on sys.path
from thousand import Game
from thousand.bots import choose
from thousand.bots.solver import Solver


def run(args: tuple[int, str, str, float | None]) -> dict[str, Any]:
    index, level, against, budget_s = args
    seat_of_level = index % 3
    levels = [level if s == seat_of_level else against for s in range(3)]
    game = Game.new(seed=f"bidding/{index}")
    out: dict[str, Any] = {"levels": levels}
    for _ in range(500):
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        if view["phase"] == "play" and not game.tricks and not game.trick and "dd" not in out:
            d = game.declarer
            assert d is not None
            out["dd"] = Solver([0, 1, 2], d).solve(list(game.hands), d, None, 0)
            out["contract"] = game.contract
        game.apply(choose(view, levels[seat], seed=index, budget_s=budget_s))
        rows = [r for r in game.sheet if r["result"] != "redeal"]
        if rows:
            row = rows[0]
            out.update(
                declarer=row["declarer"],
                result=row["result"],
                bid=row["bid"],
                contract=row["contract"],
            )
            return out
    out["result"] = "none"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--level", default="strong")
    ap.add_argument("--against", default="normal")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--budget-s", type=float, help=engine_path.BUDGET_S_HELP)
    ap.add_argument("--compiled", action="store_true", help=engine_path.COMPILED_HELP)
    args = ap.parse_args()
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(
            run,
            [(i, args.level, args.against, args.budget_s) for i in range(args.deals)],
            chunksize=4,
        )
    print(
        f"bidding: {args.deals} deals, {args.level} at one seat against two {args.against}; "
        f"{time.perf_counter() - started:.0f} s"
    )
    for level in dict.fromkeys([args.level, args.against]):
        seats = sum(r["levels"].count(level) for r in results)
        declared = [
            r
            for r in results
            if r.get("declarer") is not None and r["levels"][r["declarer"]] == level
        ]
        played = [r for r in declared if r["result"] in ("made", "failed")]
        made = sum(r["result"] == "made" for r in played)
        wo = sum(r["result"] == "writeoff" for r in declared)
        above = [r for r in played if "dd" in r and r["contract"] > r["dd"]]
        absurd = [r for r in played if "dd" in r and r["contract"] > r["dd"] + 30]
        raised = [r for r in declared if (r["bid"] or 100) > 100]
        raised_played = [r for r in raised if r["result"] in ("made", "failed") and "dd" in r]
        raised_made = sum(r["result"] == "made" for r in raised_played)
        raised_above = sum(r["contract"] > r["dd"] for r in raised_played)
        raised_absurd = sum(r["contract"] > r["dd"] + 30 for r in raised_played)
        n = max(1, len(declared))
        print(
            f"  {level:7s} won the bidding {len(declared)}/{seats} seat-hands "
            f"({len(declared) / max(1, seats):.1%}; above 100: {len(raised)}); "
            f"made {made}/{len(played)} ({made / max(1, len(played)):.1%}); "
            f"written off {wo} ({wo / n:.1%}); "
            f"contract above the double-dummy result {len(above)} ({len(above) / n:.1%}), "
            f"by 30+ {len(absurd)} ({len(absurd) / n:.1%}); "
            f"mean contract {sum(r['contract'] for r in declared) / n:.1f}"
        )
        m = max(1, len(raised_played))
        print(
            f"          won with a bid above 100 and played: {len(raised_played)}, made "
            f"{raised_made / m:.1%}, contract above double dummy {raised_above / m:.1%}, "
            f"by 30+ {raised_absurd / m:.1%}"
        )


if __name__ == "__main__":
    main()
