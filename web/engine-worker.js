/* Engine worker: owns the Python runtime and how it boots.
 *
 * Two ways up, each a series of named steps that the page marks in its own
 * timeline (`thousand:<step>`, see engine.js):
 * - from a memory snapshot (engine-snapshot.js), on every visit after the
 *   first: worker-started, pyodide-script-loaded, snapshot-read (its bytes
 *   read, begun before Pyodide's script and the page's boot message),
 *   snapshot-checked (their SHA-256 checked, the memory unpacked),
 *   snapshot-restored;
 * - the install (engine-install.js), on a first visit: worker-started,
 *   pyodide-script-loaded, pyodide-ready, engine-installed, engine-imported.
 *   The page then has a snapshot made in a worker of its own, once its
 *   first screen is up (engine-snapshot-worker.js).
 * A snapshot that cannot be used is deleted and the install runs instead
 * (snapshot-rejected), with no error shown. The worker then answers calls
 * from the page. The page never blocks on Python, and no rule of the game
 * lives here: a call is passed to engine_bridge.py by name, as JSON.
 *
 * Messages in:  {type: "boot", fresh}            once, from engine.js
 *               {type: "call", id, method, args}
 * Messages out: {type: "progress", fraction, key, params}   key: an i18n.js text
 *               {type: "step", name, at}         at: ms since the Unix epoch
 *               {type: "ready", info} | {type: "failed", error}
 *               {type: "result", id, value} | {type: "error", id, error}
 */
const here = (path) => new URL(path, import.meta.url).href;
const post = (message) => self.postMessage(message);
const step = (name) => post({ type: "step", name, at: performance.timeOrigin + performance.now() });
step("worker-started");

// The worker's two helpers are imported here, not by import statements, so that
// Pyodide's script below downloads beside them, not after them.
const helpers = Promise.all([import("./engine-snapshot.js"), import("./engine-install.js")]).then(
  ([snapshots, installer]) => ({ ...snapshots, ...installer }),
);

// Started before anything else, and before the page's boot message: the
// build manifest, the saved snapshot's bytes (if any) and Pyodide's script.
// A page that holds its boot back (a friend's first visit through a table's
// link, index.html) names its worker "later": then all of it waits for the
// boot message, so that nothing competes with joining the table.
let manifestFetched, snapshotReading, pyodideScript;
function startEarly() {
  if (pyodideScript) return;
  manifestFetched = fetch(here("build-manifest.json")).then((r) => r.json());
  snapshotReading = helpers.then(({ readSnapshot }) => readSnapshot());
  snapshotReading.catch(() => {}); // a helper that did not load fails the boot instead
  pyodideScript = import("./pyodide/pyodide.mjs");
  // The runtime's own script, 1.2 MB to compile, which loadPyodide imports
  // next: the same module, begun here.
  import("./pyodide/pyodide.asm.mjs").catch(() => {});
  manifestFetched.catch(() => {});
  pyodideScript.then(() => step("pyodide-script-loaded"), () => {});
}
if (self.name !== "later") startEarly();
const loadPyodide = async (options) => (await pyodideScript).loadPyodide(options);

// The bar only moves forward, and a message goes out only when the shown
// percentage or the text changes.
let shown = { percent: -1, key: "" };
function progress(fraction, key, params = {}) {
  const percent = Math.max(shown.percent, Math.round(Math.min(fraction, 1) * 100));
  if (percent === shown.percent && key === shown.key) return;
  shown = { percent, key };
  post({ type: "progress", fraction: percent / 100, key, params });
}

/* Start from a snapshot made by an earlier visit. Python's memory comes
 * back with the bridge and the engine imported; its files do not (they
 * were never in that memory), which is why everything is imported before
 * the snapshot is made. Pyodide compiles its wasm once the snapshot is in
 * (compiling while it is read made both slower here). */
async function restore(saved) {
  const { pyodideOptions } = await helpers;
  const memory = new Uint8Array(saved.size);
  saved.read.then(() => step("snapshot-read"), () => {});
  const unpacked = saved.unpack(memory).then(() => (step("snapshot-checked"), memory));
  const pyodide = await loadPyodide({ ...pyodideOptions(here("pyodide/")), _loadSnapshot: unpacked });
  step("snapshot-restored");
  const bridge = pyodide.pyimport("engine_bridge");
  // A snapshot whose memory is not what this build imports fails here.
  return { pyodide, bridge, info: JSON.parse(bridge.info()), way: "snapshot", multiplayer: true };
}

async function boot(fresh) {
  startEarly();
  const { NONE, canKeepSnapshots, dropSnapshot, findSnapshot, importMultiplayer, install } = await helpers;
  progress(0, "boot.manifest");
  const manifest = await manifestFetched;
  const keep = canKeepSnapshots();
  let engine = null;
  if (keep) {
    const saved = await findSnapshot(manifest.version, snapshotReading);
    if (saved.size) {
      progress(0.3, "boot.restore");
      try {
        engine = await restore(saved);
      } catch (e) {
        console.warn("the engine snapshot did not restore; installing the engine:", e.message);
        await dropSnapshot().catch(() => {});
      }
    } else if (saved.reason !== NONE) {
      console.info("engine snapshot not used:", saved.reason);
    }
    if (!engine && saved.reason !== NONE) step("snapshot-rejected");
  }
  if (!engine) {
    // A first visit says that Python downloads; later ones have it cached.
    const { pyodide, bridge } = await install({ manifest, here, loadPyodide, fresh, progress, step });
    engine = { pyodide, bridge, info: JSON.parse(bridge.info()), way: "install" };
  }
  progress(1, "boot.ready");
  const { bridge, info, pyodide, way } = engine;
  // After an install, multiplayer's methods are imported on their first call.
  let multiplayer = Boolean(engine.multiplayer);
  const withMultiplayer = () => {
    if (!multiplayer) importMultiplayer(pyodide);
    multiplayer = true;
  };
  return {
    bridge,
    withMultiplayer,
    // The page has a snapshot made for the next visit after an install.
    info: { ...info, version: manifest.version, pyodide: pyodide.version, booted: way, snapshots: keep },
  };
}

let booted = null;

self.addEventListener("message", async ({ data }) => {
  if (data.type === "boot") {
    if (booted) return;
    booted = boot(Boolean(data.fresh));
    booted.then(
      (done) => post({ type: "ready", info: done.info }),
      (e) => post({ type: "failed", error: { name: e.name ?? "Error", message: String(e.message ?? e) } }),
    );
    return;
  }
  if (data.type !== "call") return;
  try {
    if (!booted) throw new Error("the engine worker was called before it was booted");
    const { bridge, withMultiplayer } = await booted;
    if (data.method.startsWith("net_")) withMultiplayer();
    // JSON both ways keeps Python objects from leaking into JS as proxies.
    const reply = JSON.parse(bridge.call(data.method, JSON.stringify(data.args ?? [])));
    if ("error" in reply) post({ type: "error", id: data.id, error: reply.error });
    else post({ type: "result", id: data.id, value: reply.ok });
  } catch (e) {
    post({ type: "error", id: data.id, error: { name: e.name ?? "Error", message: String(e.message ?? e) } });
  }
});
