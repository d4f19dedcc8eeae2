/* Engine install: owns the first visit's way up, and the snapshot made of it.
 *
 * Pyodide starts with micropip's package, while the engine wheel and the
 * bridge's sources download; micropip installs the wheel, and the bridge is
 * imported. The engine worker (engine-worker.js) boots this way when it has
 * no snapshot, and imports multiplayer's net_bridge.py only when a
 * multiplayer method is first called; the snapshot worker
 * (engine-snapshot-worker.js) boots this way too, after the first hand is
 * on the table, imports everything and makes the memory snapshot that later
 * visits start from, with no game in it.
 *
 * Pyodide's standard library is Python source, compiled on every import;
 * the build's copy holds bytecode instead for every module a boot imports
 * (build.py), so neither the install nor a restore compiles them.
 */

/** The loadPyodide options every boot shares, for Pyodide under `indexURL`. */
export function pyodideOptions(indexURL) {
  return {
    indexURL,
    // Python's own output goes to the worker's console, where it is seen
    // in the developer tools and by the tests' console check.
    stdout: (line) => console.log(line),
    stderr: (line) => console.warn(line),
  };
}

const fetchBytes = async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer());
const fetchText = async (url) => (await fetch(url)).text();
/** The Python modules that sit beside the bridge in the build (engine_bridge.py, …). */
export const bridgeModules = (manifest) => Object.keys(manifest.files).filter((name) => /^\w+\.py$/.test(name));

/**
 * Install the engine wheel with micropip into a new Pyodide and import the
 * bridge. `here(path)` resolves a path of the build; `loadPyodide` is
 * Pyodide's; `progress(fraction, text, params)` and `step(name)` report
 * along the way (texts are i18n.js keys). `snapshot`: boot so that a memory
 * snapshot can be made, with every module imported (the snapshot holds no
 * file). Resolves with `{pyodide, bridge}`.
 */
export async function install({ manifest, here, loadPyodide, fresh, snapshot = false, progress = () => {}, step = () => {} }) {
  // Everything the engine needs downloads while Python starts.
  const wheelName = manifest.engine_wheel.split("/").pop();
  const wheel = fetchBytes(here(manifest.engine_wheel));
  const modules = bridgeModules(manifest);
  const sources = Promise.all(modules.map((name) => fetchText(here(name))));
  wheel.catch(() => {});
  sources.catch(() => {});

  // Python's files are fetched by Pyodide itself, not through a wrapper that
  // counts their bytes: a wrapped response would cost the browser its
  // streaming compile of the wasm. The text says what the step is, with the
  // size of what downloads on a first visit.
  const big = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"];
  const megabytes = big.reduce((sum, name) => sum + (manifest.files[name]?.size ?? 0), 0) / 1e6;
  if (fresh) progress(0.05, "boot.download", { size: megabytes.toFixed(1) });
  else progress(0.05, "boot.python");
  // micropip's package loads while Python starts (Pyodide loads `packages`
  // beside its bootstrap), not after it.
  const pyodide = await loadPyodide({
    ...pyodideOptions(here("pyodide/")),
    packages: ["micropip"],
    ...(snapshot ? { _makeSnapshot: true } : {}),
  });
  step("pyodide-ready");
  progress(0.9, "boot.install");
  pyodide.FS.writeFile(`/tmp/${wheelName}`, await wheel);
  const micropip = pyodide.pyimport("micropip");
  try {
    await micropip.install.callKwargs(`emfs:/tmp/${wheelName}`, { deps: false });
  } finally {
    micropip.destroy();
  }
  pyodide.FS.unlink(`/tmp/${wheelName}`);
  step("engine-installed");
  progress(0.95, "boot.engine");
  // The bridge and the Python modules beside it go into Python's home folder.
  const texts = await sources;
  modules.forEach((name, i) => pyodide.FS.writeFile(`/home/pyodide/${name}`, texts[i]));
  const bridge = pyodide.pyimport("engine_bridge");
  if (snapshot) importMultiplayer(pyodide);
  step("engine-imported");
  return { pyodide, bridge };
}

/** net_bridge.py (multiplayer), which registers its net_… methods with the bridge when imported. */
export function importMultiplayer(pyodide) {
  pyodide.runPython("import importlib.util\nif importlib.util.find_spec('net_bridge'): import net_bridge");
}

/**
 * Python's memory as it is now, from a boot with `snapshot`: the bridge and
 * every module of the engine imported, no game started.
 *
 * Pyodide refuses a snapshot while Python holds JavaScript objects it cannot
 * name again after a restore, and micropip's modules hold some (Pyodide's
 * package loader): they are dropped first, as they are not needed after the
 * install. Every module is imported, so that none has to be read from a
 * file after a restore (the files are not in the snapshot). Pyodide's
 * record of loaded packages is emptied for the snapshot's sake and filled
 * again.
 */
export function takeSnapshot(pyodide) {
  pyodide.runPython(`
import gc, importlib, pkgutil, sys
import thousand
for found in pkgutil.walk_packages(thousand.__path__, "thousand."):
    importlib.import_module(found.name)
for name in [m for m in sys.modules if m == "micropip" or m.startswith("micropip.")]:
    del sys.modules[name]
gc.collect()
`);
  const loaded = pyodide.loadedPackages;
  const kept = { ...loaded };
  for (const name of Object.keys(loaded)) delete loaded[name];
  try {
    return pyodide.makeMemorySnapshot();
  } finally {
    Object.assign(loaded, kept);
  }
}
