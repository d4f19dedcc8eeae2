"""The build's standard library (sitebuild/compiled.py: compiled_stdlib).

The build's python_stdlib.zip holds bytecode in place of the source of the
modules a boot imports, and Pyodide's source for the rest. A boot from it,
with the engine installed by micropip and the bridge imported, must find
every module it loads already compiled, and every other module of the
standard library must still import. This runs the built files in Pyodide
under Node.js, the way the build itself does.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from site_harness import build

BOOT = """
import { readFileSync } from "node:fs";
const [pyodideDir, wheel, bridge, names] = process.argv.slice(2);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + pyodideDir).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir, packages: ["micropip"] });
const installed = `/tmp/${wheel.split("/").pop()}`;
pyodide.FS.writeFile(installed, new Uint8Array(readFileSync(wheel)));
pyodide.FS.writeFile("/home/pyodide/engine_bridge.py", readFileSync(bridge, "utf8"));
try {
  await pyodide.runPythonAsync(`
import importlib, json, sys, micropip
await micropip.install("emfs:${installed}", deps=False)
import engine_bridge
stdlib = next(p for p in sys.path if p.endswith(".zip"))
booted = {
    name: m.__spec__.origin
    for name, m in list(sys.modules.items())
    if getattr(getattr(m, "__spec__", None), "origin", None)
    and m.__spec__.origin.startswith(stdlib + "/")
}
found = {}
for name in json.loads(${JSON.stringify(names)}):
    try:
        found[name] = importlib.import_module(name).__spec__.origin
    except ModuleNotFoundError as e:
        found[name] = "missing: " + str(e)
print("BOOTED " + json.dumps(booted))
print("FOUND " + json.dumps(found))
`);
} catch (e) {
  console.log("ERROR " + e.message.split("\\n").slice(-3).join(" "));
  process.exitCode = 1;
}
"""


def _modules(names: list[str]) -> set[str]:
    """The modules a zip of the standard library holds, source or bytecode alike."""
    return {n.rsplit(".", 1)[0] for n in names if n.endswith((".py", ".pyc"))}


def _boot(dist: Path, names: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    manifest = json.loads((dist / "build-manifest.json").read_text())
    script = dist.parent / "boot-compiled.mjs"
    script.write_text(BOOT)
    args = [f"{dist / 'pyodide'}/", str(dist / manifest["engine_wheel"])]
    args += [str(dist / "engine_bridge.py"), json.dumps(names)]
    out = subprocess.run(["node", str(script), *args], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, [x for x in out.stdout.splitlines() if x.startswith("ERROR")]
    lines = {x.split(" ", 1)[0]: x.split(" ", 1)[1] for x in out.stdout.splitlines() if " " in x}
    return json.loads(lines["BOOTED"]), json.loads(lines["FOUND"])


def test_a_boot_imports_the_standard_library_compiled_and_the_rest_still_imports(
    dist: Path,
) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    built = zipfile.ZipFile(dist / "pyodide" / "python_stdlib.zip").namelist()
    published = zipfile.ZipFile(build.fetch_pyodide() / "python_stdlib.zip").namelist()
    # Nothing is left out: each module is there, as source or as bytecode.
    assert _modules(built) == _modules(published)
    compiled = {n for n in built if n.endswith(".pyc")}
    assert len(compiled) > 100, len(compiled)
    # Modules of packages a boot imports only in part, which stay source.
    names = ["email.message", "email.utils", "urllib.request", "importlib.metadata._adapters"]
    assert {n.replace(".", "/") + ".py" for n in names} <= set(built)
    booted, found = _boot(dist, names)
    from_source = {name: o for name, o in booted.items() if not o.endswith(".pyc")}
    assert from_source == {}, "a boot compiles these from source"
    assert {"asyncio", "typing", "json"} <= set(booted)
    assert {n: o for n, o in found.items() if not o.endswith(".py")} == {}
