"""Build the static site in dist/ and serve it.

This script owns dist/: it builds the engine wheel, takes the Pyodide core
files from the pinned npm package, vendors the micropip wheel (rewriting its
hash in the copied lock file so the browser's integrity check accepts it),
adds Pyodide's own bytecode to both wheels and, in Pyodide's standard
library, puts bytecode in place of the source of every module a boot
imports (compiled once in Node.js and cached, so the browser imports
without compiling), copies web/ and writes
build-manifest.json — the content hash and size of
every file — which also goes into the service worker, so a changed file
gives a new precache list and returning players get it. Downloads are
cached in .cache/ (git-ignored). Everything in dist/ is referenced by
relative URL, so it works from any static host under any sub-path.

    python build.py            build dist/
    python build.py serve      build, then serve dist/ and print the URL
    python build.py icons      redraw web/icons/*.png from icon.svg (needs Chromium)
"""

from __future__ import annotations

import argparse
import base64
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent
WEB = ROOT / "web"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"

PYODIDE_VERSION = "314.0.7"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
MICROPIP_VERSION = "0.11.1"
PYODIDE_PYTHON = "3.14"

# Multiplayer (web/net/) finds peers through two of Trystero's signalling
# strategies at once, BitTorrent trackers and Nostr relays; their ES modules
# (and Nostr's Schnorr signatures, @noble/secp256k1) are copied into
# dist/vendor/ so nothing loads from a CDN.
TRYSTERO_VERSION = "0.25.4"
SECP256K1_VERSION = "3.2.0"
QRCODE_VERSION = "2.0.4"

# A fixed timestamp inside the wheel makes it byte-identical between builds of
# the same source, so a rebuild does not change the site's version and make
# every returning player download the whole site again.
WHEEL_EPOCH = "315532800"  # 1980-01-01, the earliest a zip file can say

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}


class BuildError(Exception):
    """A build step that cannot go on; the message says what to install or fix."""


def run(cmd: list[str], what: str, hint: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    """Run a tool; on failure raise BuildError naming the step and the fix."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    except FileNotFoundError as e:
        raise BuildError(f"{what}: {cmd[0]} is not installed. {hint}") from e
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise BuildError(f"{what} failed ({' '.join(cmd)}):\n{tail}\n{hint}")
    return done  # type: ignore[no-any-return]


def check_pip() -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True)
    if done.returncode != 0:
        raise BuildError(
            f"pip is missing for {sys.executable}. Install it: "
            f"`{sys.executable} -m ensurepip` or `apt-get install python3-pip`."
        )


def fetch_pyodide() -> Path:
    """The unpacked npm package pyodide@PYODIDE_VERSION, from the cache or npm."""
    target = fetch_npm_package("pyodide", PYODIDE_VERSION)
    missing = [name for name in PYODIDE_FILES if not (target / name).is_file()]
    if missing:
        raise BuildError(f"pyodide@{PYODIDE_VERSION} lacks {', '.join(missing)}")
    return target


def fetch_npm_package(name: str, version: str) -> Path:
    """The unpacked npm package name@version (its package/ folder), from the cache or npm."""
    target = CACHE / "npm" / f"{name.replace('/', '+')}-{version}"
    if (target / "package.json").is_file():
        return target
    if shutil.which("npm") is None:
        raise BuildError(
            f"npm is not installed; it fetches {name}@{version} for the site. "
            f"Install Node.js with npm, e.g. `apt-get install nodejs npm`."
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        run(
            ["npm", "pack", f"{name}@{version}", "--pack-destination", tmp, "--loglevel=error"],
            f"fetching {name}@{version} from the npm registry",
            "Check that the npm registry is reachable and that this version exists "
            f"(`npm view {name}@{version} version`).",
            cwd=tmp,
        )
        tarballs = list(Path(tmp).glob("*.tgz"))
        if len(tarballs) != 1:
            raise BuildError(f"npm pack {name}@{version} produced no tarball in {tmp}")
        unpacked = Path(tmp) / "unpacked"
        with tarfile.open(tarballs[0]) as tar:
            # Plain files under package/ only: no links, no paths that climb out.
            for member in tar.getmembers():
                rel = Path(member.name)
                if not member.isfile() or rel.parts[:1] != ("package",) or ".." in rel.parts:
                    continue
                source = tar.extractfile(member)
                assert source is not None
                dest = unpacked / Path(*rel.parts[1:])
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(source.read())
        if not (unpacked / "package.json").is_file():
            raise BuildError(f"npm pack {name}@{version}: the tarball has no package.json")
        if target.exists():
            shutil.rmtree(target)
        unpacked.rename(target)
    return target


def vendor_net(dest: Path) -> None:
    """Copy Trystero, its strategies and the QR code generator into dest/vendor/ for web/net/.

    The strategies import their core (and Nostr its secp256k1) by package
    name, which a browser cannot resolve; those imports are rewritten to the
    relative paths of the copies, whose own imports are all relative already.
    Source-map comments are dropped: the maps are not shipped.

    Three small changes to Trystero make a friend's join fast; each is a
    unified diff in patches/ that says why (read by vendor_patch): the
    torrent strategy's lesser peer announces at once when it sets an offer
    aside (trystero-torrent-announce.patch), each strategy keeps three offers
    ready instead of twenty (trystero-core-offer-pool.patch), and a peer that
    hears a Nostr announce makes the offer itself
    (trystero-core-announce-lead.patch).
    """
    vendor = dest / "vendor"
    core = fetch_npm_package("@trystero-p2p/core", TRYSTERO_VERSION)
    torrent = fetch_npm_package("@trystero-p2p/torrent", TRYSTERO_VERSION)
    nostr = fetch_npm_package("@trystero-p2p/nostr", TRYSTERO_VERSION)
    secp = fetch_npm_package("@noble/secp256k1", SECP256K1_VERSION)
    qrcode = fetch_npm_package("qrcode-generator", QRCODE_VERSION)

    def copy_module(
        source: Path,
        target: Path,
        imports: dict[str, str] | None = None,
        patches: tuple[tuple[str, str], ...] = (),
    ) -> None:
        text = source.read_text()
        for bare, relative in (imports or {}).items():
            quoted = f'from "{bare}"'
            if quoted not in text:
                raise BuildError(f"{source.name} no longer imports {bare!r}: update vendor_net")
            text = text.replace(quoted, f'from "{relative}"')
        for before, after in patches:
            if text.count(before) != 1:
                raise BuildError(f"{source} changed where vendor_net patches it: {before[:60]!r}")
            text = text.replace(before, after)
        lines = [ln for ln in text.splitlines() if not ln.startswith("//# sourceMappingURL=")]
        bare_left = [ln for ln in lines if ln.startswith("import ") and 'from "./' not in ln]
        if bare_left:
            raise BuildError(f"{source} has imports a browser cannot resolve: {bare_left[0]}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(lines) + "\n")

    core_patches = vendor_patch(
        "trystero-core-offer-pool.patch", "trystero-core-announce-lead.patch"
    )
    for module in sorted((core / "dist").glob("*.mjs")):
        patches = core_patches.pop(f"dist/{module.name}", ())
        copy_module(module, vendor / "trystero" / "core" / module.name, patches=patches)
    if core_patches:
        raise BuildError(f"@trystero-p2p/core has no {', '.join(core_patches)} to patch")
    copy_module(
        torrent / "dist" / "index.mjs",
        vendor / "trystero" / "torrent.mjs",
        {"@trystero-p2p/core": "./core/index.mjs"},
        vendor_patch("trystero-torrent-announce.patch")["dist/index.mjs"],
    )
    copy_module(
        nostr / "dist" / "index.mjs",
        vendor / "trystero" / "nostr.mjs",
        {"@trystero-p2p/core": "./core/index.mjs", "@noble/secp256k1": "./secp256k1.mjs"},
    )
    copy_module(secp / "index.js", vendor / "trystero" / "secp256k1.mjs")
    shutil.copy2(core / "LICENSE", vendor / "trystero" / "LICENSE")
    shutil.copy2(secp / "LICENSE", vendor / "trystero" / "LICENSE.secp256k1")
    copy_module(qrcode / "dist" / "qrcode.mjs", vendor / "qrcode.mjs")


def vendor_patch(*names: str) -> dict[str, tuple[tuple[str, str], ...]]:
    """Unified diffs of patches/, as (before, after) texts per file they change.

    A hunk's context and removed lines are the text to find (copy_module
    checks that it occurs exactly once), its context and added lines what
    replaces it. Text before the first `--- ` line explains the patch."""
    changes: dict[str, list[tuple[str, str]]] = {}
    for name in names:
        _read_patch(name, changes)
    return {file: tuple(hunks) for file, hunks in changes.items()}


def _read_patch(name: str, changes: dict[str, list[tuple[str, str]]]) -> None:
    lines = iter((ROOT / "patches" / name).read_text().splitlines())
    path = None
    found = False
    for line in lines:
        if line.startswith("+++ b/"):
            path = line.removeprefix("+++ b/")
            changes.setdefault(path, [])
        counts = re.match(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@", line)
        if not counts or path is None:
            continue
        old, new = (int(n) if n is not None else 1 for n in counts.groups())
        before, after = [], []
        while old or new:
            body = next(lines, None)
            if body is None or body[:1] not in (" ", "-", "+"):
                raise BuildError(f"patches/{name}: a hunk of {path} ends early")
            if body[0] != "+":
                before.append(body[1:] + "\n")
                old -= 1
            if body[0] != "-":
                after.append(body[1:] + "\n")
                new -= 1
        changes[path].append(("".join(before), "".join(after)))
        found = True
    if not found:
        raise BuildError(f"patches/{name} has no hunk")


# A module's static imports: `import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"`.
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"'`;]*?["'](\.{1,2}/[^"']+)["']""", re.M)


def module_graph(dest: Path, entries: tuple[str, ...], known: tuple[str, ...] = ()) -> list[str]:
    """The modules `entries` import (statically, at any depth), themselves first, in the
    order a browser meets them; those in `known` are left out, with what only they import."""
    seen: list[str] = []
    todo = list(entries)
    while todo:
        rel = todo.pop(0)
        if rel in seen or rel in known:
            continue
        seen.append(rel)
        path = dest / rel
        for spec in IMPORT.findall(path.read_text()):
            todo.append((path.parent / spec).resolve().relative_to(dest.resolve()).as_posix())
    return seen


def preload_modules(
    dest: Path,
    entries: tuple[str, ...] = ("engine-start.js", "main.js"),
    later: tuple[str, ...] = ("net/lobby.js",),
) -> None:
    """List every module the page imports in index.html as a modulepreload link.

    The page's modules are many small files, and a browser learns of a
    module's imports only once it has fetched it: Trystero's core sits six
    imports below the lobby, so a friend opening a table's link waited for six
    round trips in turn before the page could join the table's rooms. With
    the whole graph listed up front, the browser fetches it all at once.

    Multiplayer's modules (`later`: the lobby and what only it imports, half
    of the page's script) are imported by main.js only when a table is played;
    their links go into a template (`#net-modules`) that the page puts in
    place when it imports them, at once for a table's link. On a first visit
    against the computer they would be fetched and compiled while the
    worker compiles Python.

    The page's own links are fetched at low priority: the engine's worker
    script and Pyodide's, which the page starts first, are not queued behind
    them (on a first visit the worker started about 85 ms sooner).
    """
    now = module_graph(dest, entries, later)
    net = module_graph(dest, later, tuple(now))
    index = dest / "index.html"
    marker = "  <!--MODULEPRELOAD-->\n"
    html = index.read_text()
    if html.count(marker) != 1:
        raise BuildError("index.html has no <!--MODULEPRELOAD--> line for the module list")
    low = 'fetchpriority="low"'
    links = "".join(f'  <link rel="modulepreload" href="{rel}" {low}>\n' for rel in now)
    later_links = "".join(f'    <link rel="modulepreload" href="{rel}">\n' for rel in net)
    template = f'  <template id="net-modules">\n{later_links}  </template>\n'
    index.write_text(html.replace(marker, links + template))


def fetch_micropip() -> Path:
    """The micropip wheel for Pyodide's Python, from the cache or PyPI."""
    wheels = CACHE / "wheels"
    found = list(wheels.glob(f"micropip-{MICROPIP_VERSION}-*.whl"))
    if found:
        return found[0]
    check_pip()
    wheels.mkdir(parents=True, exist_ok=True)
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--python-version",
            PYODIDE_PYTHON,
            "--dest",
            str(wheels),
            f"micropip=={MICROPIP_VERSION}",
        ],
        f"downloading micropip=={MICROPIP_VERSION} from PyPI",
        "Check that PyPI is reachable and that this version exists "
        "(`pip index versions micropip`).",
    )
    found = list(wheels.glob(f"micropip-{MICROPIP_VERSION}-*.whl"))
    if not found:
        raise BuildError(f"pip download micropip=={MICROPIP_VERSION} left no wheel in {wheels}")
    return found[0]


# Run inside Pyodide (Node.js): a copy of a wheel with each module's bytecode
# beside it, as unchecked hash-based .pyc files (valid whatever the files'
# times after unpacking), so the browser imports without compiling.
ADD_BYTECODE_PY = """
import base64, hashlib, importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

def add_bytecode(source, target):
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as dst:
        record = next(n for n in src.namelist() if n.endswith(".dist-info/RECORD"))
        rows = src.read(record).decode().splitlines()
        rows = [r for r in rows if r and not r.startswith(record + ",")]
        for info in src.infolist():
            if info.filename == record:
                continue
            data = src.read(info)
            dst.writestr(info, data)
            if not info.filename.endswith(".py") or ".dist-info/" in info.filename:
                continue
            code = compile(data, info.filename, "exec", dont_inherit=True)
            pyc = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
            folder, _, module = info.filename.rpartition("/")
            pyc_name = f"{module[:-3]}.{sys.implementation.cache_tag}.pyc"
            name = f"{folder}/__pycache__/{pyc_name}".lstrip("/")
            entry = zipfile.ZipInfo(name, info.date_time)
            entry.compress_type, entry.external_attr = zipfile.ZIP_DEFLATED, info.external_attr
            dst.writestr(entry, pyc)
            digest = base64.urlsafe_b64encode(hashlib.sha256(pyc).digest()).rstrip(b"=").decode()
            rows.append(f"{name},sha256={digest},{len(pyc)}")
        dst.writestr(src.getinfo(record), "\\n".join([*rows, record + ",,"]) + "\\n")
"""
ADD_BYTECODE_MJS = """
import { readFileSync, writeFileSync } from "node:fs";
const [pyodideDir, helper, ...pairs] = process.argv.slice(2);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + pyodideDir).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir });
pyodide.runPython(readFileSync(helper, "utf8"));
for (let i = 0; i < pairs.length; i += 2) {
  pyodide.FS.writeFile("/tmp/in.whl", new Uint8Array(readFileSync(pairs[i])));
  pyodide.runPython("add_bytecode('/tmp/in.whl', '/tmp/out.whl')");
  writeFileSync(pairs[i + 1], pyodide.FS.readFile("/tmp/out.whl"));
}
"""


def in_pyodide(pyodide: Path, python: str, script: str, args: list[str], what: str) -> None:
    """Run `script` (a Node.js module) on Pyodide in Node.js, given Pyodide's folder, a file
    holding `python` and `args`; `what` it compiles names it in an error."""
    if shutil.which("node") is None:
        raise BuildError(f"node is not installed; it compiles {what} with Pyodide")
    with tempfile.TemporaryDirectory() as tmp:
        helper = Path(tmp) / "helper.py"
        helper.write_text(python)
        module = Path(tmp) / "script.mjs"
        module.write_text(script)
        run(
            ["node", str(module), f"{pyodide}/", str(helper), *args],
            f"compiling {what} in Pyodide (Node.js)",
            "Install Node.js 18 or newer.",
        )


def with_bytecode(pyodide: Path, wheels: list[Path]) -> list[Path]:
    """Each wheel with Pyodide's own bytecode added (add_bytecode above), from the cache or
    made with Node.js; the copies keep the wheels' names. Bytecode is made once per
    wheel content and Pyodide version, so a rebuild of the same sources is byte-identical."""
    made = []
    todo: list[str] = []
    for wheel in wheels:
        key = f"{sha256_hex(wheel)[:16]}-pyodide{PYODIDE_VERSION}"
        target = CACHE / "bytecode" / key / wheel.name
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            todo += [str(wheel), str(target.with_suffix(".part"))]
        made.append(target)
    if todo:
        in_pyodide(pyodide, ADD_BYTECODE_PY, ADD_BYTECODE_MJS, todo, "the wheels' bytecode")
        for part in todo[1::2]:
            Path(part).rename(Path(part).with_suffix(".whl"))
    return made


def build_engine_wheel(out: Path) -> Path:
    """Build the thousand wheel from a clean copy of the sources.

    A copy keeps build/ and egg-info out of the work tree and cannot pick up
    stale modules that setuptools leaves in an in-tree build/lib.
    """
    check_pip()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        shutil.copy2(ROOT / "pyproject.toml", src)
        if (ROOT / "README.md").exists():
            shutil.copy2(ROOT / "README.md", src)
        shutil.copytree(
            ROOT / "engine",
            src / "engine",
            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"),
        )
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(out),
            str(src),
        ]
        if can_build_without_isolation():
            cmd.insert(4, "--no-build-isolation")
        run(
            cmd,
            "building the thousand wheel",
            "Install the build backend: `pip install 'setuptools>=70.1'` (or `pip install wheel`).",
            env={**os.environ, "SOURCE_DATE_EPOCH": WHEEL_EPOCH},
        )
    found = list(out.glob("thousand-*-py3-none-any.whl"))
    if len(found) != 1:
        raise BuildError(f"expected one pure-Python thousand wheel in {out}, found {found}")
    return found[0]


def can_build_without_isolation() -> bool:
    """Whether the installed setuptools can make a wheel by itself (no PyPI trip)."""
    probe = (
        "import setuptools, importlib.util as u, sys\n"
        "v = tuple(int(p) for p in setuptools.__version__.split('.')[:2])\n"
        "sys.exit(0 if v >= (70, 1) or u.find_spec('wheel') else 1)\n"
    )
    return subprocess.run([sys.executable, "-c", probe], capture_output=True).returncode == 0


def write_lock(source: Path, micropip: Path, dest: Path) -> None:
    """Copy Pyodide's lock file keeping only the packages dist/ ships.

    The browser checks each package against the lock's sha256, so the entry
    must describe the micropip wheel we vendor, not the one on the CDN.
    """
    lock = json.loads(source.read_text())
    entry = lock["packages"].get("micropip")
    if entry is None:
        raise BuildError(f"pyodide@{PYODIDE_VERSION}'s lock file names no micropip package")
    if entry["version"] != MICROPIP_VERSION:
        raise BuildError(
            f"pyodide@{PYODIDE_VERSION} expects micropip {entry['version']}, "
            f"build.py pins {MICROPIP_VERSION}: update MICROPIP_VERSION"
        )
    entry = {**entry, "file_name": micropip.name, "sha256": sha256_hex(micropip)}
    lock["packages"] = {"micropip": entry}
    dest.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")


def sha256_hex(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def copy_web(dest: Path) -> None:
    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n.startswith(".") or n == "__pycache__" or n.endswith(".pyc")}

    shutil.copytree(WEB, dest, ignore=ignore, dirs_exist_ok=True)


def write_manifest(dist: Path, wheel: str) -> dict[str, object]:
    """Hash every file of dist/ and write build-manifest.json.

    The service worker (sw.js) is left out: the browser fetches it itself,
    and it carries this list, so it changes whenever any listed file does.
    """
    files: dict[str, dict[str, object]] = {}
    for path in sorted(p for p in dist.rglob("*") if p.is_file()):
        rel = path.relative_to(dist).as_posix()
        if rel in ("sw.js", "build-manifest.json"):
            continue
        digest = hashlib.sha256(path.read_bytes()).digest()
        files[rel] = {
            "sha256": digest.hex(),
            "integrity": "sha256-" + base64.b64encode(digest).decode(),
            "size": path.stat().st_size,
        }
    version = hashlib.sha256(
        "".join(f"{rel} {info['sha256']}\n" for rel, info in files.items()).encode()
    ).hexdigest()[:16]
    manifest: dict[str, object] = {
        "version": version,
        "pyodide": PYODIDE_VERSION,
        "engine_wheel": wheel,
        "files": files,
    }
    (dist / "build-manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def write_service_worker(dist: Path, manifest: dict[str, object]) -> None:
    """Put the version and precache list into dist/sw.js in place of its placeholder."""
    sw = dist / "sw.js"
    text = sw.read_text()
    placeholder = "/*BUILD*/ null"
    if placeholder not in text:
        raise BuildError(f"web/sw.js has no {placeholder!r} placeholder for the precache list")
    files = manifest["files"]
    assert isinstance(files, dict)
    build = {
        "version": manifest["version"],
        # The manifest itself is read at boot, so it is precached too; its
        # content follows from the others, so it needs no hash of its own.
        "files": {"build-manifest.json": None}
        | {rel: info["integrity"] for rel, info in files.items()},
    }
    sw.write_text(text.replace(placeholder, json.dumps(build, indent=1)))


def stamp(dist: Path, wheel: str) -> dict[str, object]:
    """Hash the files of an assembled dist/ into its manifest and service worker.

    Also the way to re-stamp a dist/ whose files were changed by hand (the
    tests do, to check that returning players get the new version).
    """
    shutil.copy2(WEB / "sw.js", dist / "sw.js")
    manifest = write_manifest(dist, wheel)
    write_service_worker(dist, manifest)
    return manifest


# Run inside Pyodide (Node.js): Pyodide's standard library with the modules a
# boot imports compiled. Pyodide's python_stdlib.zip holds Python source only,
# which every boot compiles again (about a second of a first visit's start).
# The install is replayed (micropip loaded and imported, the engine wheel
# installed with it, every module of the engine and of the bridge beside it
# imported), and each module then loaded from the zip is stored in it as an
# unchecked hash-based .pyc instead of its source (zipimport prefers the .pyc).
# They are compiled as `python -OO` would (no docstrings, no asserts) and
# without column ranges (PYTHONNODEBUGRANGES, set by the script below): the
# zip stays about its original size, and tracebacks keep their line numbers.
COMPILED_STDLIB_PY = """
import importlib, importlib.util, pkgutil, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

async def compiled_stdlib(wheel, bridge, target):
    import micropip
    await micropip.install("emfs:" + wheel, deps=False)
    import thousand
    for found in pkgutil.walk_packages(thousand.__path__, "thousand."):
        importlib.import_module(found.name)
    sys.path.append(bridge)
    for found in pkgutil.iter_modules([bridge]):
        importlib.import_module(found.name)
    stdlib = next(p for p in sys.path if p.endswith(".zip") and "/python3" in p)
    used = {
        m.__spec__.origin[len(stdlib) + 1:]
        for m in list(sys.modules.values())
        if getattr(getattr(m, "__spec__", None), "origin", None)
        and m.__spec__.origin.startswith(stdlib + "/")
        and m.__spec__.origin.endswith(".py")
    }
    with zipfile.ZipFile(stdlib) as src, zipfile.ZipFile(target, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename not in used:
                dst.writestr(info, data)
                continue
            code = compile(data, f"{stdlib}/{info.filename}", "exec", dont_inherit=True, optimize=2)
            pyc = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False))
            entry = zipfile.ZipInfo(info.filename[:-3] + ".pyc", info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            dst.writestr(entry, pyc)
"""
COMPILED_STDLIB_MJS = """
import { readFileSync, writeFileSync } from "node:fs";
const [pyodideDir, helper, micropip, wheel, target, ...bridge] = process.argv.slice(2);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + pyodideDir).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir, env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.runPython(readFileSync(helper, "utf8"));
await pyodide.loadPackage(micropip);
const installed = `/tmp/${wheel.split("/").pop()}`;
pyodide.FS.writeFile(installed, new Uint8Array(readFileSync(wheel)));
pyodide.FS.mkdir("/tmp/bridge");
for (const path of bridge) {
  pyodide.FS.writeFile(`/tmp/bridge/${path.split("/").pop()}`, readFileSync(path, "utf8"));
}
const call = `await compiled_stdlib("${installed}", "/tmp/bridge", "/tmp/out.zip")`;
await pyodide.runPythonAsync(call);
writeFileSync(target, pyodide.FS.readFile("/tmp/out.zip"));
"""


def compiled_stdlib(pyodide: Path, micropip: Path, wheel: Path, bridge: list[Path]) -> Path:
    """Pyodide's python_stdlib.zip with the modules a boot imports compiled
    (COMPILED_STDLIB_PY above), from the cache or made with Node.js; made once per
    Pyodide version, micropip, engine wheel and bridge modules (`bridge`: web/*.py)."""
    digest = hashlib.sha256(f"{PYODIDE_VERSION} {sha256_hex(micropip)}".encode())
    digest.update(sha256_hex(wheel).encode())
    for path in bridge:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update((COMPILED_STDLIB_PY + COMPILED_STDLIB_MJS).encode())
    target = CACHE / "stdlib" / digest.hexdigest()[:16] / "python_stdlib.zip"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    part = target.with_suffix(".part")
    args = [str(micropip), str(wheel), str(part), *map(str, bridge)]
    in_pyodide(pyodide, COMPILED_STDLIB_PY, COMPILED_STDLIB_MJS, args, "the standard library")
    part.rename(target)
    return target


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


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves one folder under a URL prefix; anything outside the prefix is 404.

    The 404 outside the prefix is what lets the tests prove the site uses only
    relative URLs. no-cache makes the browser revalidate, so a rebuilt file
    shows up at once (offline play is the service worker's job, not HTTP's).
    """

    prefix = "/"
    quiet = True
    extensions_map = {  # noqa: RUF012 (the base class declares it so)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **MIME_TYPES,
    }

    def translate_path(self, path: str) -> str:
        return super().translate_path("/" + path[len(self.prefix) :])

    def send_head(self):  # type: ignore[no-untyped-def]
        self.server.served.append(self.path)  # type: ignore[attr-defined]
        if not self.path.startswith(self.prefix):
            if self.path == self.prefix.rstrip("/"):
                self.send_response(301)
                self.send_header("Location", self.prefix)
                self.end_headers()
                return None
            self.send_error(404, "outside the site's prefix")
            return None
        return super().send_head()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class SiteServer(http.server.ThreadingHTTPServer):
    """The threaded server, quiet about a browser that closed a connection mid-file
    (a page closed while it was still downloading)."""

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: object
    ) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(
    directory: Path = DIST,
    host: str = "127.0.0.1",
    port: int = 0,
    prefix: str = "/",
    quiet: bool = True,
) -> http.server.ThreadingHTTPServer:
    """An HTTP server for directory at http://host:port{prefix}; port 0 picks a free one."""
    if not (prefix.startswith("/") and prefix.endswith("/")):
        raise ValueError(f"prefix must start and end with '/': {prefix!r}")
    handler = type("Handler", (SiteHandler,), {"prefix": prefix, "quiet": quiet})
    server = SiteServer((host, port), functools.partial(handler, directory=str(directory)))
    server.daemon_threads = True
    # Every path asked for, in order: the tests read it to see what the
    # service worker fetched.
    server.served = []  # type: ignore[attr-defined]
    return server


def serve_in_thread(
    directory: Path = DIST, prefix: str = "/"
) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Start a quiet server on a free port in a daemon thread; returns it and its URL."""
    server = make_server(directory, prefix=prefix)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host!s}:{port}{prefix}"


def free_port(host: str, start: int) -> int:
    for port in range(start, start + 50):
        with socket.socket() as s:
            if s.connect_ex((host, port)) != 0:
                return port
    raise BuildError(f"no free port on {host} from {start} to {start + 49}")


def draw_icons() -> None:
    """Render web/icons/icon.svg (and its maskable variant) to the PNG sizes the manifest names."""
    from playwright.sync_api import sync_playwright

    icons = WEB / "icons"
    jobs = [
        ("icon.svg", "icon-192.png", 192),
        ("icon.svg", "icon-512.png", 512),
        ("icon-maskable.svg", "icon-maskable-512.png", 512),
    ]
    executable = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        page = browser.new_page()
        for svg, png, size in jobs:
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(
                "<style>html,body{margin:0;background:transparent}</style>"
                f"<img src='data:image/svg+xml;base64,"
                f"{base64.b64encode((icons / svg).read_bytes()).decode()}' "
                f"width='{size}' height='{size}' style='display:block'>"
            )
            page.screenshot(path=str(icons / png), omit_background=True)
            print(f"web/icons/{png}")
        browser.close()


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
