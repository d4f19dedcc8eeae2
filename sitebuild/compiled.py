"""Python compiled ahead, in Pyodide under Node.js, so the browser imports without compiling.

This module owns the two things compiled at build time and cached by content: each
wheel with Pyodide's own bytecode beside its modules, and Pyodide's standard library
with the modules a boot imports stored as bytecode in place of their source.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from pathlib import Path

from .steps import CACHE, BuildError, run, sha256_hex
from .vendor import PYODIDE_VERSION

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
