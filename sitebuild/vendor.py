"""The third-party files the site ships, pinned and fetched once into the cache.

This module owns the pinned versions and their fetching: the Pyodide core files
from the npm package, the micropip wheel from PyPI (with Pyodide's lock file
rewritten to its hash, so the browser's integrity check accepts it), and the
multiplayer libraries from npm — Trystero, its strategies, secp256k1 and the QR
code generator — copied into dist/vendor/ with their imports made relative and the
small changes of patches/ applied.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

from .steps import CACHE, ROOT, BuildError, check_pip, run, sha256_hex

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
            f"sitebuild/vendor.py pins {MICROPIP_VERSION}: update MICROPIP_VERSION"
        )
    entry = {**entry, "file_name": micropip.name, "sha256": sha256_hex(micropip)}
    lock["packages"] = {"micropip": entry}
    dest.write_text(json.dumps(lock, indent=1, sort_keys=True) + "\n")
