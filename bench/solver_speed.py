"""Speed of the perfect-information solver the strong bot runs on every sample.

It measures how fast the solver searches: on random full deals (the
declarer with its 8 cards after the talon and the two given cards), the time
and nodes of a full-window solve and of a null-window test ("does the
declarer reach 100?") from the first trick and from the fifth (after four
tricks of random legal cards), and positions (nodes) per second, all under
the classic trick rules.

    python bench/solver_speed.py --deals 200
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "engine"))

from thousand.bots.heuristic import give_plan
from thousand.bots.solver import Solver


def deal(rng: random.Random) -> list[int]:
    cards = list(range(24))
    rng.shuffle(cards)
    hands = [0, 0, 0]
    for seat in range(3):
        for c in cards[seat * 7 : seat * 7 + 7]:
            hands[seat] |= 1 << c
    talon = sum(1 << c for c in cards[21:])
    ten = hands[0] | talon
    hands[0] = ten
    for c, to in give_plan(ten, [1, 2], 1)[0]:
        hands[0] &= ~(1 << c)
        hands[to] |= 1 << c
    return hands


def advance(hands: list[int], tricks: int, rng: random.Random) -> tuple[list[int], int, int]:
    """Play ``tricks`` tricks with random legal cards; the hands, the leader, eligibility."""
    from thousand.cards import SUIT_MASKS

    leader, eligible = 0, 0
    hands = list(hands)
    for _ in range(tricks):
        trick = []
        for k in range(3):
            seat = (leader + k) % 3
            hand = hands[seat]
            legal = hand & SUIT_MASKS[trick[0][1] // 6] if trick else hand
            legal = legal or hand
            cards = [c for c in range(24) if legal >> c & 1]
            c = rng.choice(cards)
            hands[seat] &= ~(1 << c)
            trick.append((seat, c))
        best_seat, best = trick[0]
        for s, c in trick[1:]:
            if c // 6 == best // 6 and c > best:
                best_seat, best = s, c
        leader = best_seat
        eligible |= 1 << leader
    return hands, leader, eligible


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    args = ap.parse_args()
    rng = random.Random(2024)
    for label, tricks in (("first trick", 0), ("fifth trick", 4)):
        full_t, full_n, null_t, null_n = [], [], [], []
        for _ in range(args.deals):
            hands, leader, eligible = advance(deal(rng), tricks, rng)
            s = Solver([0, 1, 2], 0)
            t = time.perf_counter()
            s.solve(hands, leader, None, eligible)
            full_t.append(time.perf_counter() - t)
            full_n.append(s.nodes)
            s = Solver([0, 1, 2], 0)
            t = time.perf_counter()
            s.reaches(hands, leader, None, eligible, 100 - 13 * tricks)
            null_t.append(time.perf_counter() - t)
            null_n.append(s.nodes)
        for name, ts, ns in (("full solve", full_t, full_n), ("null window", null_t, null_n)):
            ts_sorted = sorted(ts)
            print(
                f"{label:11s} {name:11s}: median {ts_sorted[len(ts) // 2] * 1000:7.2f} ms, "
                f"p95 {ts_sorted[int(len(ts) * 0.95)] * 1000:7.2f} ms, "
                f"mean nodes {sum(ns) / len(ns):8.0f}, "
                f"{sum(ns) / sum(ts):9.0f} positions/s"
            )


if __name__ == "__main__":
    main()
