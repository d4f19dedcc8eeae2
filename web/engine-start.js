/* Engine start: owns the page's one engine.
 *
 * index.html starts the engine's worker in a few inline lines, before any
 * module has loaded (window.thousandWorker); this small module, run before
 * main.js, takes that worker over (or starts one, on a page without those
 * lines), and main.js takes the same engine from here.
 */
import { Engine } from "./engine.js";
import { servedFromCache } from "./offline.js";

export const engine = new Engine({ fresh: !servedFromCache(), started: globalThis.thousandWorker ?? null });
