/* Snapshot worker: owns making the engine's memory snapshot, away from the game.
 *
 * The page (engine.js) starts it once its first screen is up after a boot
 * that installed the engine, so the first hand never waits for it: it
 * installs the engine again in a Pyodide of its own (the files come from
 * the browser's cache by now), imports every module, makes the snapshot
 * and saves it for the build's version (engine-snapshot.js), says so and is
 * ended. No game is ever started here, so none can be in the snapshot.
 *
 * Messages in:  {type: "make"}
 * Messages out: {type: "step", name, at}   snapshot-made, snapshot-saved
 *               {type: "done"} | {type: "failed", error}
 */
import { install, takeSnapshot } from "./engine-install.js";
import { saveSnapshot } from "./engine-snapshot.js";

const here = (path) => new URL(path, import.meta.url).href;
const post = (message) => self.postMessage(message);
const step = (name) => post({ type: "step", name, at: performance.timeOrigin + performance.now() });

async function make() {
  const manifest = await (await fetch(here("build-manifest.json"))).json();
  const { loadPyodide } = await import("./pyodide/pyodide.mjs");
  const { pyodide } = await install({ manifest, here, loadPyodide, fresh: false, snapshot: true });
  const bytes = takeSnapshot(pyodide);
  step("snapshot-made");
  await saveSnapshot(manifest.version, bytes);
  step("snapshot-saved");
}

self.addEventListener("message", ({ data }) => {
  if (data.type !== "make") return;
  make().then(
    () => post({ type: "done" }),
    (e) => post({ type: "failed", error: { name: e.name ?? "Error", message: String(e.message ?? e) } }),
  );
});
