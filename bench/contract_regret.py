"""What the declaring cap costs the strong level's contract, against its samples solved in full.

At the contract (заказ) the strong level weighs every legal value on sampled
deals, each solved double dummy until the declaring cap runs out, so a hand
whose samples are slow to solve is named on the few solved first. For each
deal this plays the hand with the normal level up to the contract, takes the
declarer's view, and names the contract twice from the same samples: with
the budget as given, and with the cap lifted so that every sample is solved.
It prints the match value (match points) the capped choice loses against
the uncapped one, both valued on the uncapped samples, with a 95% CI, and
how often the two choose the same. The scores before each hand are random,
0 to 700 per seat (as ``duplicate.py --scores random`` draws them), so the
match as it stands varies. A smaller loss here is closer to what the
samples say, not yet a gain in play: see
:func:`~thousand.bots.declaring.first_lead_reach` for a change that halved
it and measured flat in paired runs.

    python bench/contract_regret.py --deals 700 --compiled --workers 2
    python bench/contract_regret.py --deals 700 --variant shade:10 --compiled
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import random
import time
from typing import Any

import engine_path  # first: it puts the engine (or its compiled copy) on sys.path
from duplicate import ci, parse_variants
from thousand import Game, Rules
from thousand.bots import choose
from thousand.bots.decision import Budget, Clock, Decision
from thousand.bots.declaring import contract, contract_reach, weigh_contract
from thousand.bots.knowledge import read_view
from thousand.bots.value import MatchContext

UNCAPPED = 10**9
"""A declaring cap no contract decision reaches."""


def contract_view(index: int) -> dict[str, Any] | None:
    """The declarer's view at the contract of deal ``index``, played by the normal level."""
    rules = Rules.preset("classic")
    rng = random.Random(f"scores/{index}")
    scores = [rng.randrange(0, 141) * 5 for _ in range(rules.players)]
    game = Game.new(rules=rules, seed=f"dup/{index}", scores=scores)
    for _ in range(200):
        if game.sheet:
            return None
        view = game.view(game.current_player)
        if view["phase"] == "contract":
            return view
        game.apply(choose(view, level="normal", seed=index))
    return None


def decision(view: dict[str, Any], budget: Budget, index: int) -> Decision:
    """The strong level's contract decision, seeded by the deal so that every budget draws
    the same samples."""
    k = read_view(view)
    ctx = MatchContext.from_view(view, k.order)
    rng = random.Random(f"contract/{index}")
    rules = dict(view.get("rules") or {})
    return Decision(view, k, rules, ctx, rng, Clock(None, budget.declare_cap), budget)


def run_deal(args: tuple[int, list[str]]) -> dict[str, Any] | None:
    index, specs = args
    budget = parse_variants(specs)["strong"] if specs else Budget()
    view = contract_view(index)
    if view is None or len(view["legal"]) < 2:
        return None
    uncapped = decision(view, dataclasses.replace(budget, declare_cap=UNCAPPED), index)
    full = contract_reach(uncapped)
    if not full:
        return None
    full_action, worth = weigh_contract(uncapped, full)
    action = contract(decision(view, budget, index))
    return {
        "index": index,
        "action": action,
        "full_action": full_action,
        "short": len(contract_reach(decision(view, budget, index))) < len(full),
        "loss": worth[full_action] - worth[action],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--variant", default="", help="budget fields, as field:value,field:value")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--compiled", action="store_true", help=engine_path.COMPILED_HELP)
    args = ap.parse_args()
    specs = [f"strong={args.variant}"] if args.variant else []
    jobs = [(i, specs) for i in range(args.start, args.start + args.deals)]
    t = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        rows = [r for r in pool.imap(run_deal, jobs) if r is not None]
    mean, half = ci([r["loss"] for r in rows])
    same = sum(r["action"] == r["full_action"] for r in rows)
    short = sum(r["short"] for r in rows)
    print(f"{len(rows)} contracts in {args.deals} deals, {time.perf_counter() - t:.0f} s")
    print(f"  capped against uncapped: {mean:+.2f} ± {half:.2f} match points lost per contract")
    print(f"  the same choice in {same} of {len(rows)}; weighed on fewer samples in {short}")


if __name__ == "__main__":
    main()
