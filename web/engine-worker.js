/* Engine worker: owns the Python runtime and how it boots.
 *
 * Two ways up, each a series of named steps that the page marks in its own
 * timeline (`thousand:<step>`, see engine.js):
 * - from a memory snapshot (engine-snapshot.js), on every visit after the
 *   first: worker-started, pyodide-script-loaded, snapshot-read (its bytes
 *   read and checked, begun before Pyodide's script and the page's boot
 *   message), snapshot-restored;
 * - the install: Pyodide starts, with micropip's package, while the engine
 *   wheel and the bridge's sources download, micropip installs the wheel,
 *   the bridge and every engine module are imported, and a snapshot of that
 *   (no game in it yet) is made and saved once the page has been answered:
 *   worker-started, pyodide-script-loaded, pyodide-ready, engine-installed,
 *   engine-imported, snapshot-made, and later snapshot-saved.
 * A snapshot that cannot be used is deleted and the install runs instead
 * (snapshot-rejected), with no error shown. The worker then answers calls
 * from the page. The page never blocks on Python, and no rule of the game
 * lives here: a call is passed to engine_bridge.py by name, as JSON.
 *
 * Messages in:  {type: "boot", fresh}            once, from engine.js
 *               {type: "call", id, method, args}
 * Messages out: {type: "progress", fraction, text}
 *               {type: "step", name, at}         at: ms since the Unix epoch
 *               {type: "ready", info} | {type: "failed", error}
 *               {type: "result", id, value} | {type: "error", id, error}
 */
import { NONE, canKeepSnapshots, dropSnapshot, findSnapshot, readSnapshot, saveSnapshot } from "./engine-snapshot.js";

const here = (path) => new URL(path, import.meta.url).href;
const post = (message) => self.postMessage(message);
const step = (name) => post({ type: "step", name, at: performance.timeOrigin + performance.now() });
step("worker-started");

// Started before anything else, and before the page's boot message: the
// build manifest, the saved snapshot's bytes (if any) and Pyodide's script.
const manifestFetched = fetch(here("build-manifest.json")).then((r) => r.json());
const snapshotReading = readSnapshot();
const pyodideScript = import("./pyodide/pyodide.mjs");
manifestFetched.catch(() => {});
pyodideScript.then(() => step("pyodide-script-loaded"), () => {});
const loadPyodide = async (options) => (await pyodideScript).loadPyodide(options);

// The bar only moves forward, and a message goes out only when the shown
// percentage or the text changes.
let shown = { percent: -1, text: "" };
function progress(fraction, text) {
  const percent = Math.max(shown.percent, Math.round(Math.min(fraction, 1) * 100));
  if (percent === shown.percent && text === shown.text) return;
  shown = { percent, text };
  post({ type: "progress", fraction: percent / 100, text });
}

const pyodideOptions = {
  indexURL: here("pyodide/"),
  // Python's own output goes to this worker's console, where it is seen
  // in the developer tools and by the tests' console check.
  stdout: (line) => console.log(line),
  stderr: (line) => console.warn(line),
};

const fetchBytes = async (path) => new Uint8Array(await (await fetch(here(path))).arrayBuffer());
const fetchText = async (path) => (await fetch(here(path))).text();

/* Start from a snapshot made by an earlier visit. Python's memory comes
 * back with the bridge and the engine imported; its files do not (they
 * were never in that memory), which is why everything is imported before
 * the snapshot is made. */
async function restore(bytes) {
  bytes.then(() => step("snapshot-read"), () => {});
  const pyodide = await loadPyodide({ ...pyodideOptions, _loadSnapshot: bytes });
  step("snapshot-restored");
  const bridge = pyodide.pyimport("engine_bridge");
  // A snapshot whose memory is not what this build imports fails here.
  return { pyodide, bridge, info: JSON.parse(bridge.info()), way: "snapshot" };
}

/* The first visit's way: install the wheel with micropip and import it. */
async function install(manifest, fresh, snapshot) {
  // Everything the engine needs downloads while Python starts.
  const wheelName = manifest.engine_wheel.split("/").pop();
  const wheel = fetchBytes(manifest.engine_wheel);
  const modules = Object.keys(manifest.files).filter((name) => /^[\w]+\.py$/.test(name));
  const sources = Promise.all(modules.map(fetchText));
  wheel.catch(() => {});
  sources.catch(() => {});

  // Python's files are fetched by Pyodide itself, not through a wrapper that
  // counts their bytes: a wrapped response would cost the browser its
  // streaming compile of the wasm. The text says what the step is, with the
  // size of what downloads on a first visit.
  const big = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"];
  const megabytes = big.reduce((sum, name) => sum + (manifest.files[name]?.size ?? 0), 0) / 1e6;
  progress(0.05, fresh ? `Downloading and starting Python (${megabytes.toFixed(1)} MB)` : "Starting Python");
  // micropip's package loads while Python starts (Pyodide loads `packages`
  // beside its bootstrap), not after it.
  const pyodide = await loadPyodide({ ...pyodideOptions, packages: ["micropip"], _makeSnapshot: snapshot });
  step("pyodide-ready");
  progress(0.9, "Installing the engine");
  pyodide.FS.writeFile(`/tmp/${wheelName}`, await wheel);
  const micropip = pyodide.pyimport("micropip");
  try {
    await micropip.install.callKwargs(`emfs:/tmp/${wheelName}`, { deps: false });
  } finally {
    micropip.destroy();
  }
  pyodide.FS.unlink(`/tmp/${wheelName}`);
  step("engine-installed");
  progress(0.95, "Starting the engine");
  // The bridge and the Python modules beside it go into Python's home folder.
  // net_bridge.py (multiplayer) registers its net_… methods with the bridge
  // when imported, so it is imported right after the bridge.
  const texts = await sources;
  modules.forEach((name, i) => pyodide.FS.writeFile(`/home/pyodide/${name}`, texts[i]));
  const bridge = pyodide.pyimport("engine_bridge");
  if (modules.includes("net_bridge.py")) pyodide.pyimport("net_bridge");
  const info = JSON.parse(bridge.info());
  step("engine-imported");
  return { pyodide, bridge, info, way: "install", snapshot: snapshot ? takeSnapshot(pyodide) : null };
}

/* Python's memory as it is now: the engine imported, no game started.
 *
 * Pyodide refuses a snapshot while Python holds JavaScript objects it cannot
 * name again after a restore, and micropip's modules hold some (Pyodide's
 * package loader): they are dropped first, as they are not needed after the
 * install. Every module of the engine is imported, so that none has to be
 * read from a file after a restore. Pyodide's record of loaded packages is
 * emptied for the snapshot's sake and filled again. */
function takeSnapshot(pyodide) {
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
    step("snapshot-made");
  }
}

async function boot(fresh) {
  progress(0, "Loading the build manifest");
  const manifest = await manifestFetched;
  const keep = canKeepSnapshots();
  let engine = null;
  if (keep) {
    const saved = await findSnapshot(manifest.version, snapshotReading);
    if (saved.bytes) {
      progress(0.3, "Restoring the engine");
      try {
        engine = await restore(saved.bytes);
      } catch (e) {
        console.warn("the engine snapshot did not restore; installing the engine:", e.message);
        await dropSnapshot().catch(() => {});
      }
    } else if (saved.reason !== NONE) {
      console.info("engine snapshot not used:", saved.reason);
    }
    if (!engine && saved.reason !== NONE) step("snapshot-rejected");
  }
  // A first visit says that Python downloads; later ones have it cached.
  engine ??= await install(manifest, fresh, keep);
  progress(1, "Ready");
  const { bridge, info, snapshot, pyodide } = engine;
  return {
    bridge,
    snapshot,
    version: manifest.version,
    info: { ...info, version: manifest.version, pyodide: pyodide.version, booted: engine.way },
  };
}

/* Save a snapshot made during this boot, once the page has been answered. */
async function keepSnapshot(version, bytes) {
  try {
    await saveSnapshot(version, bytes);
    step("snapshot-saved");
  } catch (e) {
    // Only the next visit's speed depends on it; say so in the console.
    console.warn("the engine snapshot was not saved:", e.message);
  }
}

let booted = null;

self.addEventListener("message", async ({ data }) => {
  if (data.type === "boot") {
    if (booted) return;
    booted = boot(Boolean(data.fresh));
    booted.then(
      (done) => {
        post({ type: "ready", info: done.info });
        // The worker keeps the bridge, not the 31 MB of the snapshot.
        const { snapshot, version } = done;
        done.snapshot = null;
        if (snapshot) setTimeout(() => keepSnapshot(version, snapshot), 0);
      },
      (e) => post({ type: "failed", error: { name: e.name ?? "Error", message: String(e.message ?? e) } }),
    );
    return;
  }
  if (data.type !== "call") return;
  try {
    if (!booted) throw new Error("the engine worker was called before it was booted");
    const { bridge } = await booted;
    // JSON both ways keeps Python objects from leaking into JS as proxies.
    const reply = JSON.parse(bridge.call(data.method, JSON.stringify(data.args ?? [])));
    if ("error" in reply) post({ type: "error", id: data.id, error: reply.error });
    else post({ type: "result", id: data.id, value: reply.ok });
  } catch (e) {
    post({ type: "error", id: data.id, error: { name: e.name ?? "Error", message: String(e.message ?? e) } });
  }
});
