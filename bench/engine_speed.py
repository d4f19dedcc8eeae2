"""Engine speed: random complete hands per second in this Python.

Plays hands with uniformly random legal actions through the public API
(legal_actions + apply), several runs, and prints each run and the median.

    python bench/engine_speed.py [--hands 2000] [--runs 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from thousand import Game, Rules


def random_hands(hands: int, seed: int, preset: str) -> float:
    """Hands per second over ``hands`` complete hands of random play."""
    rng = random.Random(seed)
    game = Game.new(rules=Rules.preset(preset), seed=seed)
    done = 0
    start = time.perf_counter()
    while done < hands:
        if game.current_player is None:
            game = Game.new(rules=Rules.preset(preset), seed=rng.randrange(1 << 30))
        before = game.hand_no
        game.apply(rng.choice(game.legal_actions()))
        done += game.hand_no - before
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--preset", default="classic")
    args = parser.parse_args()
    rates = []
    for run in range(args.runs):
        rate = random_hands(args.hands, run, args.preset)
        rates.append(rate)
        print(f"run {run + 1}: {rate:,.0f} hands/s")
    print(
        f"median: {statistics.median(rates):,.0f} random complete hands/s "
        f"({args.preset}, Python {sys.version.split()[0]})"
    )


if __name__ == "__main__":
    main()
