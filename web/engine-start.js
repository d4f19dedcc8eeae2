/* Engine start: owns starting the engine as early as the page can.
 *
 * index.html runs this small module before main.js, so the worker starts
 * booting Python as soon as these few files are in, instead of after the
 * whole app's module graph has loaded; main.js takes the same engine from
 * here.
 */
import { Engine } from "./engine.js";
import { servedFromCache } from "./offline.js";

export const engine = new Engine({ fresh: !servedFromCache() });
