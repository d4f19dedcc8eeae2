"""Decision latency of every bot level, in CPython and (if it can be loaded) in Pyodide.

It measures how long each level takes to decide. It builds a fixed set of
positions — every decision of the first hands of seeded matches played by
the ``normal`` bot — and times ``choose(view, level)`` on each, printing p50,
p95 and max per level (and per phase with ``--phases``). With ``--pyodide``
it runs the same positions inside Pyodide under Node, from the Pyodide core
files that ``build.py`` caches in ``.cache/npm/pyodide-*`` (or ``--pyodide-dir``);
Pyodide in Node runs the same WebAssembly as in the browser's worker. With
``--chromium`` it builds the site, opens it in headless Chromium and asks
the page's engine worker for the strong player's move on every position
(the hint a player asks for: ``hint_for_view``), timing each call from the
page, so the figure is what a player waits for, messages included.

    python bench/bot_latency.py --games 20
    python bench/bot_latency.py --games 20 --pyodide
    python bench/bot_latency.py --games 20 --levels strong --phases --chromium
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "engine"))

from thousand import Game  # noqa: E402
from thousand.bots import LEVELS, choose  # noqa: E402


def positions(games: int, hands: int = 1) -> list[dict[str, Any]]:
    out = []
    for seed in range(games):
        game = Game.new(seed=f"latency/{seed}")
        while game.phase != "over" and game.hand_no < hands:
            seat = game.current_player
            assert seat is not None
            view = game.view(seat)
            out.append(view)
            game.apply(choose(view, "normal", seed=seed))
    return out


def quantile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def report(title: str, times: dict[str, list[tuple[str, float]]], phases: bool) -> None:
    print(title)
    for level, rows in times.items():
        ts = [t for _, t in rows]
        p50, p95 = quantile(ts, 0.5) * 1000, quantile(ts, 0.95) * 1000
        print(
            f"  {level:7s} n={len(ts):4d}  p50 {p50:7.1f} ms  p95 {p95:7.1f} ms  "
            f"max {max(ts) * 1000:7.1f} ms"
        )
        if phases:
            for phase in sorted({p for p, _ in rows}):
                pt = [t for p, t in rows if p == phase]
                p50, p95 = quantile(pt, 0.5) * 1000, quantile(pt, 0.95) * 1000
                print(f"      {phase:9s} n={len(pt):4d}  p50 {p50:7.1f} ms  p95 {p95:7.1f} ms")


PYODIDE_RUNNER = r"""
import json, time
from thousand.bots import choose
views = json.loads(open("/positions.json").read())
levels = json.loads(LEVELS_JSON)
out = {}
for level in levels:
    rows = []
    for v in views:
        t = time.perf_counter()
        choose(v, level, seed=0)
        rows.append([v["phase"], time.perf_counter() - t])
    out[level] = rows
json.dumps(out)
"""

NODE_SCRIPT = r"""
const path = require("path");
const fs = require("fs");
(async () => {
  const [pyodideDir, engineDir, positionsFile, code] = process.argv.slice(2);
  const { loadPyodide } = await import(path.join(pyodideDir, "pyodide.mjs"));
  const py = await loadPyodide({ indexURL: pyodideDir + "/" });
  const walk = (dir, rel) => {
    py.FS.mkdirTree("/engine/" + rel);
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      const target = "/engine/" + rel + "/" + name;
      if (fs.statSync(full).isDirectory()) {
        if (name !== "__pycache__") walk(full, rel + "/" + name);
      } else if (name.endsWith(".py") || name === "py.typed") {
        py.FS.writeFile(target, fs.readFileSync(full));
      }
    }
  };
  walk(path.join(engineDir, "thousand"), "thousand");
  py.FS.writeFile("/positions.json", fs.readFileSync(positionsFile));
  py.runPython("import sys; sys.path.insert(0, '/engine')");
  const result = py.runPython(fs.readFileSync(code, "utf8"));
  process.stdout.write(result);
})().catch((e) => { console.error(e); process.exit(1); });
"""


CHROMIUM_TIMER = """async (views) => {
  const out = [];
  for (const v of views) {
    const t = performance.now();
    await thousand.engine.call("hint_for_view", v, 0);
    out.push([v.phase, (performance.now() - t) / 1000]);
  }
  return out;
}"""


def run_chromium(views: list[dict[str, Any]]) -> tuple[list[tuple[str, float]], str]:
    """The strong player's decision times in the engine worker of the built site in Chromium."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "browser"))
    from playwright.sync_api import sync_playwright
    from site_harness import BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, build

    with tempfile.TemporaryDirectory() as tmp:
        dist = os.path.join(tmp, "dist")
        build.build(Path(dist), quiet=True)
        server, url = build.serve_in_thread(Path(dist), "/")
        try:
            with sync_playwright() as p:
                executable = str(CHROMIUM) if CHROMIUM.exists() else None
                browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
                page = browser.new_page()
                page.set_default_timeout(0)
                page.goto(url + "?delay=0&bots=random&lang=en")
                page.wait_for_function(
                    "document.body.dataset.engine === 'ready'", timeout=BOOT_TIMEOUT_MS
                )
                rows = page.evaluate(CHROMIUM_TIMER, views)
                version = browser.version
                browser.close()
        finally:
            server.shutdown()
    return [(str(phase), float(t)) for phase, t in rows], version


def run_pyodide(views: list[dict[str, Any]], levels: list[str], pyodide_dir: str) -> Any:
    with tempfile.TemporaryDirectory() as tmp:
        pos = os.path.join(tmp, "positions.json")
        with open(pos, "w") as f:
            json.dump(views, f)
        code = os.path.join(tmp, "runner.py")
        with open(code, "w") as f:
            f.write(PYODIDE_RUNNER.replace("LEVELS_JSON", repr(json.dumps(levels))))
        script = os.path.join(tmp, "run.cjs")
        with open(script, "w") as f:
            f.write(NODE_SCRIPT)
        done = subprocess.run(
            ["node", script, os.path.abspath(pyodide_dir), os.path.join(ROOT, "engine"), pos, code],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip()[-2000:])
        return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--games",
        type=int,
        default=20,
        help="seeded matches; every decision of their first hand is a position",
    )
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--phases", action="store_true", help="also print figures per phase")
    ap.add_argument("--pyodide", action="store_true", help="also time inside Pyodide (Node)")
    ap.add_argument("--pyodide-dir", help="folder with pyodide.mjs (default: .cache/npm/pyodide-*)")
    ap.add_argument(
        "--chromium",
        action="store_true",
        help="also time the strong level in the built site's engine worker in headless Chromium",
    )
    args = ap.parse_args()
    levels = args.levels.split(",")
    views = positions(args.games)
    times: dict[str, list[tuple[str, float]]] = {}
    for level in levels:
        rows = []
        for v in views:
            t = time.perf_counter()
            choose(v, level, seed=0)
            rows.append((v["phase"], time.perf_counter() - t))
        times[level] = rows
    report(f"CPython {sys.version.split()[0]}: {len(views)} positions", times, args.phases)
    if args.chromium:
        t = time.perf_counter()
        rows, version = run_chromium(views)
        title = (
            f"Chromium {version}, engine worker (page round trip): {len(views)} positions, "
            f"{time.perf_counter() - t:.0f} s in all with the build"
        )
        report(title, {"strong": rows}, args.phases)
    if args.pyodide:
        found = sorted(glob.glob(os.path.join(ROOT, ".cache", "npm", "pyodide-*")))
        pdir = args.pyodide_dir or (found[-1] if found else None)
        if not pdir or not os.path.exists(os.path.join(pdir, "pyodide.mjs")):
            print("Pyodide: no pyodide.mjs found (run python build.py first, or --pyodide-dir)")
            return
        t = time.perf_counter()
        result = run_pyodide(views, levels, pdir)
        pt = {lv: [(p, x) for p, x in rows] for lv, rows in result.items()}
        node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
        title = (
            f"Pyodide ({os.path.basename(pdir)}, Node {node}): {len(views)} positions, "
            f"{time.perf_counter() - t:.0f} s in all"
        )
        report(title, pt, args.phases)


if __name__ == "__main__":
    main()
