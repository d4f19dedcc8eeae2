"""Build the static site in dist/ and serve it.

This script owns dist/ and puts the steps of sitebuild/ together: it builds
the engine wheel, takes the Pyodide core files from the pinned npm package,
vendors the micropip wheel (rewriting its hash in the copied lock file so the
browser's integrity check accepts it), adds Pyodide's own bytecode to both
wheels and, in Pyodide's standard library, puts bytecode in place of the
source of every module a boot imports (compiled once in Node.js and cached,
so the browser imports without compiling), copies web/ and writes
build-manifest.json — the content hash and size of every file — which also
goes into the service worker, so a changed file gives a new precache list
and returning players get it. Downloads are cached in .cache/ (git-ignored).
Everything in dist/ is referenced by relative URL, so it works from any
static host under any sub-path.

    python build.py            build dist/
    python build.py serve      build, then serve dist/ and print the URL
    python build.py icons      redraw web/icons/*.png from icon.svg (needs Chromium)
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

# The tests and bench/ load this script by its path: sitebuild/ sits beside it.
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from sitebuild.compiled import compiled_stdlib, with_bytecode
from sitebuild.icons import draw_icons
from sitebuild.serve import free_port, make_server, serve_in_thread
from sitebuild.site_files import copy_web, preload_modules, stamp
from sitebuild.steps import DIST, WEB, BuildError
from sitebuild.vendor import (
    MICROPIP_VERSION,
    PYODIDE_FILES,
    PYODIDE_VERSION,
    fetch_micropip,
    fetch_pyodide,
    vendor_net,
    write_lock,
)
from sitebuild.wheel import build_engine_wheel

# What the tests and the bench scripts use of the build, beside build() itself.
__all__ = ["BuildError", "build", "fetch_pyodide", "make_server", "serve_in_thread", "stamp"]


def build(dist: Path = DIST, quiet: bool = False) -> dict[str, object]:
    """Build the whole site into dist (replaced only once the new one is complete)."""

    def say(text: str) -> None:
        if not quiet:
            print(text, flush=True)

    say(f"pyodide@{PYODIDE_VERSION} ...")
    pyodide = fetch_pyodide()
    say(f"micropip=={MICROPIP_VERSION} ...")
    micropip = fetch_micropip()
    staging = dist.with_name(dist.name + ".new")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    try:
        say("thousand wheel ...")
        wheel = build_engine_wheel(staging / "wheels")
        say("bytecode (Pyodide in Node.js) ...")
        engine_pyc, micropip = with_bytecode(pyodide, [wheel, micropip])
        shutil.copy2(engine_pyc, wheel)
        copy_web(staging)
        say("multiplayer libraries (npm) ...")
        vendor_net(staging)
        preload_modules(staging)
        (staging / "pyodide").mkdir()
        for name in PYODIDE_FILES:
            if name not in ("pyodide-lock.json", "python_stdlib.zip"):
                shutil.copy2(pyodide / name, staging / "pyodide" / name)
        shutil.copy2(micropip, staging / "pyodide" / micropip.name)
        say("standard library, compiled (Pyodide in Node.js) ...")
        stdlib = compiled_stdlib(pyodide, micropip, wheel, sorted(WEB.glob("*.py")))
        shutil.copy2(stdlib, staging / "pyodide" / "python_stdlib.zip")
        write_lock(
            pyodide / "pyodide-lock.json", micropip, staging / "pyodide" / "pyodide-lock.json"
        )
        manifest = stamp(staging, f"wheels/{wheel.name}")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if dist.exists():
        shutil.rmtree(dist)
    staging.rename(dist)
    files = manifest["files"]
    assert isinstance(files, dict)
    size = sum(int(info["size"]) for info in files.values())
    say(f"dist/ built: {len(files)} files, {size / 1e6:.1f} MB, version {manifest['version']}")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("command", nargs="?", default="build", choices=["build", "serve", "icons"])
    parser.add_argument("--host", default="127.0.0.1", help="serve: address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="serve: first port to try")
    parser.add_argument("--prefix", default="/", help="serve: URL path to serve the site under")
    args = parser.parse_args(argv)
    try:
        if args.command == "icons":
            draw_icons()
            return 0
        build()
        if args.command == "serve":
            port = free_port(args.host, args.port)
            server = make_server(DIST, args.host, port, args.prefix, quiet=False)
            # Loopback counts as a secure context, so the service worker runs here.
            print(
                f"Serving the game at http://{args.host}:{port}{args.prefix}  (Ctrl+C stops)",
                flush=True,
            )
            try:
                server.serve_forever()
            except KeyboardInterrupt:
                pass
            finally:
                server.server_close()
    except BuildError as e:
        print(f"build.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
