"""The private deal's cost: shuffle and deal time per hand, and bytes per hand.

This script owns the benchmark of the mental-poker deal (web/private_table.py).
Three peers, each with its own secret, play whole hands in one process with
random legal moves; every public message is delivered to every peer in the
host's order. It prints, per hand:

- shuffle + deal time: from the first shuffle until every seat has read its
  cards (3 × 24 locks, then 3 × 14 unlocks in turn, then each seat's own 7).
  In one process the three peers' work adds up; at a real table the shuffle
  and the dealing pass are sequential too (each seat waits for the one
  before), so this is the compute on the critical path plus the other
  peers' checks, without network latency;
- the whole hand's crypto and bookkeeping, the end-of-deal audit included;
- bytes per hand: the JSON of every public message, and what the host's
  relay sends (each message once to each of the two guests);

beside a reference measured in the same run: one full 2048-bit modular
exponentiation (what one lock cost in a 2048-bit group), and the cost of one
lock (a scalar multiply on P-256). ``--pyodide`` runs the same code in Pyodide under Node.js
(the npm package in .cache/npm), as the browser's worker would.

    python bench/private_deal.py [--hands 5] [--pyodide]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYODIDE = ROOT / ".cache" / "npm" / "pyodide-314.0.7"

RUN = r"""
import hashlib, json, random, time
import mental_poker as mp
from private_table import PrivatePeer
from thousand import Rules

def one_full_pow():
    m = (1 << 2048) - 1942289  # any 2048-bit modulus costs the same
    x, e = 3 ** 1291 % m, m - 12345
    t = time.perf_counter()
    for _ in range(5):
        pow(x, e, m)
    return (time.perf_counter() - t) / 5

def one_lock():
    key = mp.SeatSecret("ab" * 32).key
    t = time.perf_counter()
    mp.lock(key, mp.CODES[:10])
    return (time.perf_counter() - t) / 10

def hand(seed):
    rules = Rules.preset("classic")
    peers = [PrivatePeer(rules, seed % 3, [s], hashlib.sha256(f"{seed}/{s}".encode()).hexdigest())
             for s in range(3)]
    rng = random.Random(seed)
    sizes = []
    t0 = time.perf_counter()
    dealt = [None]
    def route(first):
        queue = list(first)
        while queue:
            msg = queue.pop(0)
            if msg["deal"] > 0:
                continue
            sizes.append(len(json.dumps(msg)))
            for p in peers:
                queue += p.receive(msg)
                if dealt[0] is None and all(q.follower.hands is not None for q in peers):
                    dealt[0] = time.perf_counter() - t0
    route([m for p in peers for m in p.start()])
    while 0 not in peers[0].verdicts and peers[0].follower.waiting is None:
        seat = next(s for s, p in enumerate(peers) if p.turn == s)
        view = peers[seat].follower.view(seat)
        legal = [a for a in view["legal"] if a != "redeal"] or view["legal"]
        route([peers[seat].act(seat, rng.choice(legal))])
    total = time.perf_counter() - t0
    assert all(p.verdicts.get(0) == [] for p in peers), [p.verdicts for p in peers]
    return {"deal": dealt[0], "total": total, "bytes": sum(sizes), "messages": len(sizes)}

def bench(hands):
    ref = one_full_pow()
    return {"ref": ref, "lock": one_lock(), "hands": [hand(seed) for seed in range(hands)]}
"""


def report(where: str, result: dict[str, object]) -> None:
    ref = float(result["ref"])  # type: ignore[arg-type]
    hands = result["hands"]
    assert isinstance(hands, list)
    deal = [h["deal"] for h in hands]
    total = [h["total"] for h in hands]
    size = [h["bytes"] for h in hands]
    msgs = [h["messages"] for h in hands]
    med = statistics.median
    print(f"{where}: {len(hands)} hands of 3 players")
    lock = float(result["lock"])  # type: ignore[arg-type]
    print(f"  reference: one 2048-bit modular exponentiation, {ref * 1000:.1f} ms")
    print(f"  one lock (a P-256 scalar multiply): {lock * 1000:.1f} ms, {lock / ref:.2f}×")
    print(
        f"  shuffle + deal: median {med(deal):.2f} s (range {min(deal):.2f}–{max(deal):.2f}), "
        f"{med(deal) / ref:.0f}× the reference"
    )
    print(f"  whole hand, audit included: median {med(total):.2f} s, {med(total) / ref:.0f}×")
    print(
        f"  bytes per hand: {med(size) / 1024:.0f} KiB in {med(msgs):.0f} public messages; "
        f"the host relays each to two guests: {2 * med(size) / 1024:.0f} KiB sent"
    )


def in_cpython(hands: int) -> dict[str, object]:
    sys.path[:0] = [str(ROOT / "engine"), str(ROOT / "web")]
    scope: dict[str, object] = {}
    exec(RUN, scope)  # the same text runs in Pyodide below
    return scope["bench"](hands)  # type: ignore[operator,no-any-return]


def in_pyodide(hands: int) -> dict[str, object]:
    files = {
        f"/home/pyodide/{p.relative_to(ROOT / 'engine')}": p.read_text()
        for p in (ROOT / "engine" / "thousand").rglob("*.py")
    }
    for name in ("p256.py", "mental_poker.py", "private_deal.py", "private_table.py"):
        files[f"/home/pyodide/{name}"] = (ROOT / "web" / name).read_text()
    script = f"""
import {{ loadPyodide }} from {json.dumps(str(PYODIDE / "pyodide.mjs"))};
const py = await loadPyodide({{ indexURL: {json.dumps(str(PYODIDE) + "/")} }});
const files = {json.dumps(files)};
for (const [path, text] of Object.entries(files)) {{
  py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
  py.FS.writeFile(path, text);
}}
py.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
py.runPython({json.dumps(RUN)});
console.log(py.runPython("import json; json.dumps(bench({hands}))"));
"""
    with tempfile.NamedTemporaryFile("w", suffix=".mjs", delete=False) as f:
        f.write(script)
    out = subprocess.run(["node", f.name], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--pyodide", action="store_true", help="also run in Pyodide under Node")
    args = parser.parse_args()
    start = time.monotonic()
    report("CPython", in_cpython(args.hands))
    if args.pyodide:
        report("Pyodide (Node.js)", in_pyodide(args.hands))
    print(f"({time.monotonic() - start:.0f} s)")


if __name__ == "__main__":
    main()
