"""The site's own files in dist/: web/ copied, its modules listed, every file hashed.

This module owns what the build writes of the page itself: the copy of web/, the
modulepreload links index.html gets for the page's module graph, and
build-manifest.json — the content hash and size of every file — which also goes
into the service worker, so a changed file gives a new precache list and returning
players get it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import shutil
from pathlib import Path

from .steps import WEB, BuildError
from .vendor import PYODIDE_VERSION


def copy_web(dest: Path) -> None:
    """Copy web/ into dest, without hidden files and Python's bytecode."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n.startswith(".") or n == "__pycache__" or n.endswith(".pyc")}

    shutil.copytree(WEB, dest, ignore=ignore, dirs_exist_ok=True)


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
