/* The page's entry point: owns the flow from loading to a dealt hand.
 *
 * Starts the engine worker and the service worker, shows boot progress,
 * deals a game once the engine is ready, and then loops: a click on an
 * action → engine.call("apply") → engine.call("view") → render. The seed
 * comes from `?seed=N` when given (tests, bug reports), else at random.
 */
import { Engine } from "./engine.js";
import { registerServiceWorker, servedFromCache } from "./offline.js";
import { renderView, showError, showNote, showProgress, showReady } from "./table.js";

const YOU = 0;

const engine = new Engine({ fresh: !servedFromCache() });
engine.addEventListener("progress", (event) => showProgress(event.detail));
registerServiceWorker({
  onUpdate: () => showNote("A new version is ready: reload the page to use it."),
});

// For the developer console and the tests: the same API the UI uses.
globalThis.thousand = { engine };

function seedFromURL() {
  const seed = new URLSearchParams(location.search).get("seed");
  if (seed !== null && /^\d+$/.test(seed)) return Number(seed);
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

async function refresh() {
  const view = await engine.call("view", YOU);
  let actor = view.turn;
  let actions = view.legal;
  if (actor !== null && actor !== YOU) {
    // Until the computer players exist, the other seats' moves are offered
    // here too, so a hand can be played through.
    actions = (await engine.call("view", actor)).legal;
  }
  renderView(view, { you: YOU, actor, actions, onAction: act });
  document.body.dataset.phase = view.phase;
}

async function act(action) {
  showNote("");
  try {
    await engine.call("apply", action);
  } catch (e) {
    // The engine said no (IllegalAction) or failed: show why, keep playing.
    showNote(`${e.name}: ${e.message}`);
  }
  await refresh();
}

async function start() {
  try {
    await engine.ready;
    performance.mark("thousand:engine-ready");
    const seed = seedFromURL();
    await engine.call("new", { seed });
    document.body.dataset.seed = seed;
    await refresh();
    showReady();
    performance.mark("thousand:dealt");
  } catch (e) {
    console.error(e);
    showError(`The engine could not start: ${e.message}`);
  }
}

start();
