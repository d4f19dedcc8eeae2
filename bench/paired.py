"""Paired comparison of two settings of the strong level on the same deals.

It measures whether a change to the strong level's budget or margins pays,
at a fraction of a duplicate run's cost. Each deal is one hand with the
strong level at one seat (rotating with the deal) against two copies of
another level, played once with the base setting and once with the
variant, from the same cards. A hand in which the variant would take every
decision the base takes is the same hand, so it is not played again: its
difference is exactly zero. It prints the mean per-deal difference of the
seat's match points (its score change minus the mean of the others') with
a 95% CI, and how many deals the variant changed.

    python bench/paired.py --deals 300 --variant shade:0
    python bench/paired.py --deals 300 --base shade:15 --variant shade:0,defend_value:0
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from typing import Any

import engine_path  # first: it puts the engine (or its compiled copy) on sys.path
from duplicate import ci, decide, parse_variants
from thousand import Game, Rules
from thousand.bots.decision import Budget

PLAY_FIELDS = (
    "play_samples",
    "play_nodes",
    "refine_nodes",
    "node_cap",
    "infer_follow",
    "infer_lead",
    "play_oversample",
    "heuristic_in",
    "own_nodes",
    "hint_margin",
)
"""Budget fields card play reads; a variant that keeps them plays the same cards."""

DECLARING_PHASES = ("bidding", "choose", "talon", "contract")


def _margin(deltas: list[int], seat: int) -> float:
    others = [d for s, d in enumerate(deltas) if s != seat]
    return deltas[seat] - sum(others) / len(others)


def _play(
    bots: list[str],
    variants: dict[str, Budget],
    seed: str,
    rules: Rules,
    bot_seed: int,
    seat: int,
    other: str | None,
    budget_s: float | None,
) -> tuple[list[int] | None, bool, dict[str, Any]]:
    """Play one hand; with ``other``, also ask it at ``seat``'s decisions: deltas, differs, row."""
    game = Game.new(rules=rules, seed=seed)
    checks_play = other is not None and any(
        getattr(variants[other], f) != getattr(variants[bots[seat]], f) for f in PLAY_FIELDS
    )
    differs = False
    for _ in range(2000):
        s = game.current_player
        assert s is not None
        view = game.view(s)
        action = decide(view, bots[s], bot_seed, variants, budget_s)
        asks = view["phase"] in DECLARING_PHASES or checks_play
        if s == seat and other is not None and not differs and asks:
            differs = decide(view, other, bot_seed, variants, budget_s) != action
        game.apply(action)
        rows = [r for r in game.sheet if r["result"] != "redeal"]
        if rows:
            return list(rows[0]["deltas"]), differs, rows[0]
        if game.deal_no > 20:
            break
    return None, differs, {"result": "redeal"}


def run_deal(args: tuple[int, str, list[str], str, float | None]) -> dict[str, Any]:
    index, against, specs, preset, budget_s = args
    variants = parse_variants(specs)
    rules = Rules.preset(preset)
    seat = index % rules.players
    seed = f"dup/{index}"

    def lineup(bot: str) -> list[str]:
        return [bot if s == seat else against for s in range(rules.players)]

    base, differs, base_row = _play(
        lineup("base"), variants, seed, rules, index, seat, "variant", budget_s
    )
    if base is None:
        return {"index": index, "diff": 0.0, "changed": False, "base": 0.0}
    if not differs:
        m = _margin(base, seat)
        return {"index": index, "diff": 0.0, "changed": False, "base": m}
    var, _, var_row = _play(lineup("variant"), variants, seed, rules, index, seat, None, budget_s)
    if var is None:
        var = [0] * rules.players
    out = {
        "index": index,
        "diff": _margin(var, seat) - _margin(base, seat),
        "changed": True,
        "base": _margin(base, seat),
    }
    for name, row in (("base_row", base_row), ("variant_row", var_row)):
        declarer = row.get("declarer")
        out[name] = {
            "result": row.get("result"),
            "contract": row.get("contract"),
            "mine": declarer == seat,
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--start", type=int, default=0, help="index of the first deal")
    ap.add_argument("--against", default="normal", help="the level at the other seats")
    ap.add_argument("--base", default="", metavar="FIELD:VALUE,...", help="the base setting")
    ap.add_argument("--variant", required=True, metavar="FIELD:VALUE,...")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--budget-s", type=float, help=engine_path.BUDGET_S_HELP)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--compiled", action="store_true", help=engine_path.COMPILED_HELP)
    ap.add_argument("--json", help="also write the per-deal results here")
    args = ap.parse_args()
    specs = [f"base={args.base}", f"variant={args.variant}"]
    parse_variants(specs)
    tasks = [
        (i, args.against, specs, args.preset, args.budget_s)
        for i in range(args.start, args.start + args.deals)
    ]
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    with multiprocessing.Pool(args.workers) as pool:
        for k, r in enumerate(pool.imap_unordered(run_deal, tasks, chunksize=1)):
            results.append(r)
            if args.json and (k + 1) % 10 == 0:
                _save(results, args.json)
    if args.json:
        _save(results, args.json)
    summary(results, args, time.perf_counter() - started)


def _save(results: list[dict[str, Any]], path: str) -> None:
    with open(path, "w") as f:
        json.dump(sorted(results, key=lambda r: r["index"]), f)


def summary(results: list[dict[str, Any]], args: Any, seconds: float) -> None:
    n = len(results)
    changed = [r for r in results if r["changed"]]
    print(
        f"paired: {n} deals, strong at one seat against two {args.against}, preset "
        f"{args.preset}; base {args.base or 'the default budget'}, variant {args.variant}; "
        f"{seconds:.0f} s"
    )
    m, h = ci([r["diff"] for r in results])
    b, bh = ci([r["base"] for r in results])
    verdict = "excludes 0" if abs(m) > h else "includes 0"
    print(f"  base's match points per hand over the others' mean: {b:+.2f} ± {bh:.2f}")
    print(f"  variant - base, per deal: {m:+.2f} ± {h:.2f} ({verdict}); changed {len(changed)}")
    for name in ("base_row", "variant_row"):
        mine = [r[name] for r in changed if r[name]["mine"]]
        made = sum(x["result"] == "made" for x in mine)
        wo = sum(x["result"] == "writeoff" for x in mine)
        print(
            f"  in the changed deals, {name[:-4]}: declared {len(mine)}, made {made}, "
            f"written off {wo}"
        )


if __name__ == "__main__":
    main()
