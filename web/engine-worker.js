/* Engine worker: owns the Python runtime.
 *
 * Boots Pyodide in this Web Worker, loads micropip, installs the engine
 * wheel that build-manifest.json names, imports engine_bridge.py and then
 * answers calls from the page. The page never blocks on Python, and no rule
 * of the game lives here: a call is passed to the bridge by name, as JSON.
 *
 * Messages in:  {type: "boot", fresh}            once, from engine.js
 *               {type: "call", id, method, args}
 * Messages out: {type: "progress", fraction, text}
 *               {type: "ready", info} | {type: "failed", error}
 *               {type: "result", id, value} | {type: "error", id, error}
 */
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;
const post = (message) => self.postMessage(message);

// Share of the progress bar for the downloads; the rest is start-up work.
const DOWNLOAD_SHARE = 0.8;

// The bar only moves forward, and a message goes out only when the shown
// percentage or the text changes: byte counts arrive per network chunk.
let shown = { percent: -1, text: "" };
function progress(fraction, text) {
  const percent = Math.max(shown.percent, Math.round(Math.min(fraction, 1) * 100));
  if (percent === shown.percent && text === shown.text) return;
  shown = { percent, text };
  post({ type: "progress", fraction: percent / 100, text });
}

/* Count the bytes of the big boot files as they stream in, so the progress
 * bar moves with the real download. Only used on a first visit: a wrapped
 * response loses its URL, which costs the browser's compiled-wasm cache,
 * and from the service worker's cache the files arrive at once anyway. */
function countDownloads(files, names) {
  const sizes = new Map(names.map((name) => [here(name), files[name]?.size ?? 0]));
  const total = [...sizes.values()].reduce((a, b) => a + b, 0) || 1;
  let received = 0;
  const realFetch = self.fetch;
  const report = () =>
    received >= total
      ? progress(DOWNLOAD_SHARE, "Starting Python")
      : progress(0.02 + (received / total) * (DOWNLOAD_SHARE - 0.02),
        `Downloading Python: ${(received / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB`);
  self.fetch = async (input, init) => {
    const response = await realFetch(input, init);
    const url = new URL(input instanceof Request ? input.url : input, self.location).href;
    if (!sizes.has(url) || !response.body) return response;
    const counter = new TransformStream({
      transform(chunk, controller) {
        received += chunk.byteLength;
        report();
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return () => { self.fetch = realFetch; };
}

async function boot(fresh) {
  progress(0, "Loading the build manifest");
  const manifest = await (await fetch(here("build-manifest.json"))).json();
  const counted = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"];
  const restoreFetch = fresh ? countDownloads(manifest.files, counted) : () => {};
  let pyodide;
  try {
    progress(0.01, fresh ? "Downloading Python" : "Starting Python");
    pyodide = await loadPyodide({
      indexURL: here("pyodide/"),
      // Python's own output goes to this worker's console, where it is seen
      // in the developer tools and by the tests' console check.
      stdout: (line) => console.log(line),
      stderr: (line) => console.warn(line),
    });
  } finally {
    restoreFetch();
  }
  progress(DOWNLOAD_SHARE + 0.05, "Loading micropip");
  await pyodide.loadPackage("micropip", { messageCallback: () => {} });
  progress(DOWNLOAD_SHARE + 0.1, "Installing the engine");
  const micropip = pyodide.pyimport("micropip");
  await micropip.install(here(manifest.engine_wheel));
  micropip.destroy();
  progress(DOWNLOAD_SHARE + 0.15, "Starting the engine");
  // The bridge and the Python modules beside it go into Python's home folder.
  // net_bridge.py (multiplayer) registers its net_… methods with the bridge
  // when imported, so it is imported right after the bridge.
  const modules = Object.keys(manifest.files).filter((name) => /^[\w]+\.py$/.test(name));
  const sources = await Promise.all(modules.map(async (name) => (await fetch(here(name))).text()));
  modules.forEach((name, i) => pyodide.FS.writeFile(`/home/pyodide/${name}`, sources[i]));
  const bridge = pyodide.pyimport("engine_bridge");
  if (modules.includes("net_bridge.py")) pyodide.pyimport("net_bridge");
  const info = JSON.parse(bridge.info());
  progress(1, "Ready");
  return { bridge, info: { ...info, version: manifest.version, pyodide: pyodide.version } };
}

let booted = null;

self.addEventListener("message", async ({ data }) => {
  if (data.type === "boot") {
    if (booted) return;
    booted = boot(Boolean(data.fresh));
    booted.then(
      ({ info }) => post({ type: "ready", info }),
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
