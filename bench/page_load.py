"""Page-load figures of the static site, measured in headless Chromium.

This script owns the site's load benchmark: it builds dist/ (into a
temporary folder) with build.py, adds a bare-Pyodide reference page to it
(bare.html: a worker that only runs loadPyodide, unpacks the engine wheel
and deals one hand, no micropip, no page; its Pyodide is the published one,
whose standard library is source only), serves it on loopback and
prints

- the total size of dist/ and its gzipped transfer size (each file
  gzipped at level 6, as a static host would send it; the reference page
  is not counted);
- every named step of the boot (the page's ``thousand:*`` marks) and the
  first paints, in ms since navigation, for four paths:
  cold (a fresh browser profile: nothing cached, no service worker, no
  snapshot), warm (a second visit: the service worker and the engine
  snapshot in place), reload (that page reloaded mid-hand) and rejoin (a
  multiplayer guest reloading its page at a table, where "table-shown" is
  when the host's table is back; ``--no-rejoin`` skips it, it needs the
  local relays of the tests, a tracker and a Nostr relay; ``--rejoin-only``
  runs only it and the bare page), and the bare
  page's own steps (worker-started, pyodide-ready, engine-installed, dealt)
  to set them against;
- navigation to a hand on the table for each path, in seconds, and as a
  ratio to the bare page's boot in the same browser run (a fresh profile
  for each).

Profiles are in memory (Playwright's new context, like a private window)
unless ``--persistent`` puts cold, warm and reload in a fresh profile on
disk, as a player's browser has (its caches, the compiled wasm's among
them, are kept on disk); the bare page and the rejoin stay in memory.

Each figure is the median of ``--runs`` runs (5). Loopback has no network
delay, so the cold figures are the browser's work on 14 MB, not a
download time.

    python bench/page_load.py [--runs 5] [--no-rejoin | --rejoin-only] [--persistent]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "engine"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]
BOOT_TIMEOUT_MS = 120_000
PATHS = ("cold", "warm", "reload", "rejoin")

# The reference: Pyodide and the engine, nothing else (written into dist/ here only).
BARE_PAGE = """<!doctype html><meta charset="utf-8"><title>bare Pyodide</title>
<script type="module">
const worker = new Worker("./bare-worker.js", { type: "module" });
worker.onmessage = ({ data }) => {
  if (data.step) {
    performance.mark(`bare:${data.step}`, { startTime: data.at - performance.timeOrigin });
    return;
  }
  performance.mark("bare:dealt");
  document.body.dataset.hand = data.hand;
};
</script><body></body>
"""
BARE_WORKER = """import { loadPyodide } from "./pyodide/pyodide.mjs";
const step = (name) => postMessage({ step: name, at: performance.timeOrigin + performance.now() });
step("worker-started");
const manifest = await (await fetch("./build-manifest.json")).json();
const wheel = fetch(manifest.engine_wheel).then((r) => r.arrayBuffer());
const pyodide = await loadPyodide({ indexURL: new URL("./bare-pyodide/", import.meta.url).href });
step("pyodide-ready");
const purelib = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
pyodide.unpackArchive(new Uint8Array(await wheel), "wheel", { extractDir: purelib });
step("engine-installed");
postMessage({ hand: pyodide.runPython(
  "import json, thousand; json.dumps(thousand.Game.new(seed=1).view(0)['hand'])") });
"""


# Milliseconds since navigation start, read from the page's own timeline: the
# first paints and the marks named "<prefix>:<step>".
def timings(prefix: str) -> str:
    return f"""() => {{
  const out = {{}};
  for (const e of performance.getEntriesByType("paint")) out[e.name] = e.startTime;
  for (const e of performance.getEntriesByType("mark")) {{
    if (e.name.startsWith("{prefix}:")) out[e.name.slice({len(prefix) + 1})] ??= e.startTime;
  }}
  return out;
}}"""


TIMINGS = timings("thousand")
DEALT = "performance.getEntriesByName('thousand:dealt').length > 0"
SAVED = "performance.getEntriesByName('thousand:snapshot-saved').length > 0"


def load_build() -> Any:
    spec = importlib.util.spec_from_file_location("thousand_build", ROOT / "build.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def sizes(dist: Path) -> tuple[int, int, list[tuple[str, int, int]]]:
    rows = []
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        data = path.read_bytes()
        rows.append((path.relative_to(dist).as_posix(), len(data), len(gzip.compress(data, 6))))
    return sum(r[1] for r in rows), sum(r[2] for r in rows), rows


def wait_dealt(page: Any) -> dict[str, float]:
    page.wait_for_function(
        "document.body.dataset.engine !== 'loading'", timeout=BOOT_TIMEOUT_MS, polling=50
    )
    if page.evaluate("document.body.dataset.engine") != "ready":
        raise RuntimeError(
            f"the engine did not start: {page.locator('#loading-text').text_content()}"
        )
    page.wait_for_function(DEALT, timeout=BOOT_TIMEOUT_MS, polling=50)
    return dict(page.evaluate(TIMINGS))


def bare(browser: Any, url: str) -> dict[str, float]:
    """The bare page's steps in a fresh profile, in ms since navigation ("dealt": its hand)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "bare.html")
    page.wait_for_function("document.body.dataset.hand", timeout=BOOT_TIMEOUT_MS, polling=50)
    steps = dict(page.evaluate(timings("bare")))
    context.close()
    return steps


def site_paths(context: Any, url: str) -> dict[str, dict[str, float]]:
    """Cold, warm and reload in one fresh profile (`context`, closed here)."""
    page = context.new_page()
    page.goto(url + "?seed=1")
    cold = wait_dealt(page)
    page.wait_for_function(SAVED, timeout=BOOT_TIMEOUT_MS, polling=100)
    cold["snapshot-saved"] = page.evaluate(
        "performance.getEntriesByName('thousand:snapshot-saved')[0].startTime"
    )
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.close()
    page = context.new_page()
    page.goto(url + "?seed=1")
    warm = wait_dealt(page)
    # Mid-hand: the computer seats have bid by now, and every move is saved.
    page.wait_for_timeout(1500)
    page.reload()
    reload = wait_dealt(page)
    context.close()
    return {"cold": cold, "warm": warm, "reload": reload}


def rejoins(browser: Any, url: str, runs: int) -> list[dict[str, float]]:
    """A guest at a table (the host, the guest and a computer) reloads its page, `runs` times."""
    from net_harness import Table, relay

    out = []
    with relay("torrent") as tracker, relay("nostr") as nostr:
        table = Table(browser, url, [tracker, nostr], guests=1)
        try:
            table.open_host()
            guest = table.guests[0]
            table.join(guest)
            # The third seat goes to a computer player, through the lobby.
            table.host.click("#net-seats li[data-status=empty] .net-seat-bot", timeout=30_000)
            table.start()
            guest.wait_for_function(SAVED, timeout=BOOT_TIMEOUT_MS, polling=100)
            for _ in range(runs):
                guest.reload()
                # The host's table is back on the page (the network's part of a rejoin).
                shown = guest.wait_for_function(
                    "globalThis.thousand?.view != null && performance.now()",
                    timeout=BOOT_TIMEOUT_MS,
                    polling=50,
                ).json_value()
                out.append({**wait_dealt(guest), "table-shown": float(shown)})
        finally:
            table.close()
    return out


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-rejoin", action="store_true", help="skip the multiplayer guest")
    parser.add_argument(
        "--rejoin-only", action="store_true", help="only the bare page and the guest's rejoin"
    )
    parser.add_argument(
        "--persistent",
        action="store_true",
        help="cold, warm and reload in a profile on disk, as a player has (default: in memory)",
    )
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    build = load_build()
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist, quiet=True)
        total, zipped, rows = sizes(dist)
        (dist / "bare.html").write_text(BARE_PAGE)
        (dist / "bare-worker.js").write_text(BARE_WORKER)
        # The reference boots Pyodide as published: the site's copy of its files
        # with the published standard library (the site's has modules compiled).
        shutil.copytree(dist / "pyodide", dist / "bare-pyodide")
        shutil.copy2(build.fetch_pyodide() / "python_stdlib.zip", dist / "bare-pyodide")
        server, url = build.serve_in_thread(dist, "/")
        bares: list[float] = []
        bare_steps: list[dict[str, float]] = []
        runs: dict[str, list[dict[str, float]]] = {path: [] for path in PATHS}
        with sync_playwright() as p:
            browser_path = str(CHROMIUM) if CHROMIUM.exists() else None
            browser = p.chromium.launch(executable_path=browser_path, args=CHROMIUM_ARGS)
            for run in range(args.runs):
                bare_steps.append(bare(browser, url))
                bares.append(bare_steps[-1]["dealt"])
                if args.rejoin_only:
                    continue
                if args.persistent:
                    profile = tempfile.TemporaryDirectory()
                    context = p.chromium.launch_persistent_context(
                        profile.name, executable_path=browser_path, args=CHROMIUM_ARGS
                    )
                else:
                    context = browser.new_context()
                for path, timings in site_paths(context, url).items():
                    runs[path].append(timings)
                if args.persistent:
                    profile.cleanup()
                print(
                    f"run {run + 1}: bare {bares[-1]:.0f} ms, "
                    + ", ".join(f"{k} {runs[k][-1]['dealt']:.0f} ms" for k in PATHS if runs[k]),
                    file=sys.stderr,
                )
            if not args.no_rejoin:
                runs["rejoin"] = rejoins(browser, url, args.runs)
            browser.close()
        server.shutdown()

    runs["bare"] = bare_steps
    shown = [path for path in PATHS if runs[path]]
    print(f"dist/ size:     {total / 1e6:6.2f} MB ({len(rows)} files)")
    print(f"dist/ gzipped:  {zipped / 1e6:6.2f} MB")
    for name, raw, gz in sorted(rows, key=lambda r: -r[1])[:4]:
        print(f"  {name:40} {raw / 1e6:6.2f} MB, gzipped {gz / 1e6:5.2f} MB")
    where = "on disk" if args.persistent else "in memory"
    print(f"median of {args.runs} runs, headless Chromium, served on loopback, profiles {where}")
    for path in ["bare", *shown]:
        # Each step: ms since navigation, and since the step before.
        steps = {k: median([t[k] for t in runs[path] if k in t]) or 0.0 for k in runs[path][0]}
        print(f"{path}: step{'ms':>31}{'+ms':>8}")
        before = 0.0
        for key, at in sorted(steps.items(), key=lambda kv: kv[1]):
            print(f"  {key:32}{at:7.0f}{at - before:8.0f}")
            before = at
    bare_median = median(bares) or 0.0
    print(f"navigation to a dealt hand (bare Pyodide page: {bare_median / 1000:.2f} s):")
    for path in shown:
        dealt = [t["dealt"] for t in runs[path]]
        # Each run's time over the bare page of the same run; rejoin has one table, so
        # its runs are set against the bare median.
        ratios = [d / (bares[i] if path != "rejoin" else bare_median) for i, d in enumerate(dealt)]
        print(f"  {path:7} {median(dealt) / 1000:6.2f} s   {median(ratios):5.2f}x bare")
    return 0


if __name__ == "__main__":
    sys.exit(main())
