"""Page-load figures of the static site, measured in headless Chromium.

This script owns the site's load benchmark: it builds dist/ (into a
temporary folder) with build.py, serves it on loopback and prints

- the total size of dist/ and its gzipped transfer size (each file
  gzipped at level 6, as a static host would send it);
- time from navigation to first paint and to first contentful paint;
- time from navigation to "engine ready" (Pyodide booted, micropip
  loaded, the engine wheel installed) and to the first hand on the table,
  cold (a fresh browser profile: nothing cached, no service worker) and
  warm (a second visit, answered by the service worker);

each as the median of 5 runs (``--runs``). Loopback has no network delay,
so the cold figures are the browser's work on 13 MB, not a download time.

    python bench/page_load.py [--runs 5]
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-features=WebRtcHideLocalIpsWithMdns",
]
BOOT_TIMEOUT_MS = 120_000

# Milliseconds since navigation start, read from the page's own timeline.
TIMINGS = """() => {
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? null;
  return {
    first_paint: at("first-paint"),
    first_contentful_paint: at("first-contentful-paint"),
    engine_ready: at("thousand:engine-ready"),
    dealt: at("thousand:dealt"),
  };
}"""


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


def visit(context: Any, url: str) -> dict[str, float]:
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(
        "document.body.dataset.engine !== 'loading'", timeout=BOOT_TIMEOUT_MS, polling=50
    )
    if page.evaluate("document.body.dataset.engine") != "ready":
        raise RuntimeError(
            f"the engine did not start: {page.locator('#loading-text').text_content()}"
        )
    timings = page.evaluate(TIMINGS)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.close()
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    build = load_build()
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist, quiet=True)
        total, zipped, rows = sizes(dist)
        server, url = build.serve_in_thread(dist, "/")
        cold: list[dict[str, float]] = []
        warm: list[dict[str, float]] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=str(CHROMIUM) if CHROMIUM.exists() else None,
                args=CHROMIUM_ARGS,
            )
            for run in range(args.runs):
                # A new context is a new, empty profile: no HTTP cache, no
                # service worker, nothing compiled.
                context = browser.new_context()
                cold.append(visit(context, url + "?seed=1"))
                warm.append(visit(context, url + "?seed=1"))
                context.close()
                print(
                    f"run {run + 1}: cold ready {cold[-1]['engine_ready']:.0f} ms, "
                    f"warm ready {warm[-1]['engine_ready']:.0f} ms",
                    file=sys.stderr,
                )
            browser.close()
        server.shutdown()

    def median(runs: list[dict[str, float]], key: str) -> str:
        values = [r[key] for r in runs if r[key] is not None]
        return f"{statistics.median(values):7.0f} ms" if values else "    n/a"

    print(f"dist/ size:             {total / 1e6:6.2f} MB ({len(rows)} files)")
    print(f"dist/ gzipped:          {zipped / 1e6:6.2f} MB")
    for name, raw, gz in sorted(rows, key=lambda r: -r[1])[:4]:
        print(f"  {name:32} {raw / 1e6:6.2f} MB, gzipped {gz / 1e6:5.2f} MB")
    print(f"median of {args.runs} runs, headless Chromium, served on loopback:")
    print(f"                         {'cold':>10} {'warm (SW)':>10}")
    for key, label in [
        ("first_paint", "navigation → first paint"),
        ("first_contentful_paint", "navigation → first contentful paint"),
        ("engine_ready", "navigation → engine ready"),
        ("dealt", "navigation → hand dealt"),
    ]:
        print(f"{label:37} {median(cold, key)} {median(warm, key)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
