"""The first visit's compiled standard library (build.py: python_stdlib_bytecode.zip).

A first visit puts the build's zip of standard-library bytecode in front of
Pyodide's standard library, as the engine worker does (engine-install.js).
That zip holds only the modules the engine's install imports, so of some
packages (email, urllib, importlib.metadata) it has a few modules only; the
others must still import from the standard library. This runs the built
files in Pyodide under Node.js, the way the build itself does.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

BYTECODE = "python_stdlib_bytecode.zip"

IMPORT_ALL = """
import { readFileSync } from "node:fs";
const [pyodideDir, wheel, names] = process.argv.slice(2);
const { loadPyodide } = await import(new URL("pyodide.mjs", "file://" + pyodideDir).href);
const path = "/lib/@BYTECODE@";
const pyodide = await loadPyodide({
  indexURL: pyodideDir,
  packages: ["micropip"],
  env: { PYTHONPATH: path },
  fsInit: (FS) => FS.writeFile(path, new Uint8Array(readFileSync(pyodideDir + "@BYTECODE@"))),
});
const installed = `/tmp/${wheel.split("/").pop()}`;
pyodide.FS.writeFile(installed, new Uint8Array(readFileSync(wheel)));
try {
  await pyodide.runPythonAsync(`
import importlib, json, micropip
await micropip.install("emfs:${installed}", deps=False)
import thousand
found = {}
for name in json.loads(${JSON.stringify(names)}):
    try:
        found[name] = importlib.import_module(name).__spec__.origin
    except ModuleNotFoundError as e:
        found[name] = "missing: " + str(e)
    except Exception as e:  # a module Pyodide cannot run is found all the same
        found[name] = "found: " + type(e).__name__
print("FOUND " + json.dumps(found))
`);
} catch (e) {
  console.log("ERROR " + e.message.split("\\n").slice(-3).join(" "));
  process.exitCode = 1;
}
""".replace("@BYTECODE@", BYTECODE)


def _left_in_stdlib(pyodide: Path) -> dict[str, str]:
    """Each package the bytecode zip holds in part → one of its modules left in the stdlib."""
    compiled = zipfile.ZipFile(pyodide / BYTECODE).namelist()
    stdlib = zipfile.ZipFile(pyodide / "python_stdlib.zip").namelist()
    left = {}
    for init in (n for n in compiled if n.endswith("/__init__.pyc")):
        folder = init.rsplit("/", 1)[0]
        here = {n[:-1] for n in compiled if n.startswith(folder + "/")}
        rest = sorted(
            n
            for n in stdlib
            if n.startswith(folder + "/")
            and n.endswith(".py")
            and n.count("/") == folder.count("/") + 1
            and n not in here
            and not n.endswith("__main__.py")
        )
        if rest:
            left[folder] = rest[0][:-3].replace("/", ".")
    return left


def test_a_package_in_part_compiled_still_imports_its_other_modules(dist: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    pyodide = dist / "pyodide"
    left = _left_in_stdlib(pyodide)
    # The packages the engine's install imports in part, as built today.
    assert {"email", "urllib", "importlib/metadata"} <= set(left), left
    names = sorted({*left.values(), "email.message", "email.utils"})
    manifest = json.loads((dist / "build-manifest.json").read_text())
    script = dist.parent / "import-all.mjs"
    script.write_text(IMPORT_ALL)
    wheel = dist / manifest["engine_wheel"]
    out = subprocess.run(
        ["node", str(script), f"{pyodide}/", str(wheel), json.dumps(names)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, [x for x in out.stdout.splitlines() if x.startswith("ERROR")]
    line = next(x for x in out.stdout.splitlines() if x.startswith("FOUND "))
    found = json.loads(line[len("FOUND ") :])
    assert sorted(found) == names
    assert {n: o for n, o in found.items() if o.startswith("missing")} == {}
    # The compiled modules are the ones used, the others come from the source zip.
    origin = found["email.message"]
    assert origin.startswith("/lib/python3") and BYTECODE not in origin
