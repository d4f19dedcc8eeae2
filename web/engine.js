/* Engine client: owns the Web Worker that runs the Python engine.
 *
 * The whole API the UI uses is `engine.call(method, ...args)`, which
 * resolves with the bridge's plain-data result (see engine_bridge.py for
 * the methods) or rejects with an Error whose `name` is the Python
 * exception's (`IllegalAction` for a move the rules refuse) and, for an
 * IllegalAction, a stable `code` (`not_your_turn`, `must_follow`, … — see
 * thousand.actions.REFUSAL_CODES) with its `detail` (`suit` where a suit
 * matters, also as `.suit`). `ready` settles when Python has booted;
 * "progress" events report the boot, and each step of it (engine-worker.js
 * names them) becomes a mark in the page's timeline, `thousand:<step>`, at
 * the moment the worker reached it.
 */

export class EngineError extends Error {
  constructor({ type, name, message, code, ...detail }) {
    super(message);
    this.name = type ?? name ?? "EngineError";
    this.code = code ?? null;
    this.detail = detail;
    this.suit = detail.suit ?? null;
  }
}

export class Engine extends EventTarget {
  /** @param {{fresh?: boolean}} options fresh: nothing is cached yet, so say that Python downloads */
  constructor({ fresh = true, workerURL = new URL("./engine-worker.js", import.meta.url) } = {}) {
    super();
    this.info = null;
    this.progress = null; // the latest {fraction, text} the worker reported
    this._pending = new Map();
    this._nextId = 1;
    this.worker = new Worker(workerURL, { type: "module" });
    this.ready = new Promise((resolve, reject) => {
      this._ready = { resolve, reject };
    });
    // A failure is reported to whoever awaits `ready`, which may be later.
    this.ready.catch(() => {});
    this.worker.addEventListener("message", (event) => this._receive(event.data));
    this.worker.addEventListener("error", (event) => {
      // A worker that fails to load (a missing module, a syntax error) only
      // says so here; fail the boot and every waiting call with it.
      event.preventDefault?.();
      this._fail(new EngineError({ name: "WorkerError", message: event.message || "the engine worker failed to load" }));
    });
    this.worker.postMessage({ type: "boot", fresh });
  }

  /** Call a bridge method by name; resolves with its result. */
  call(method, ...args) {
    const id = this._nextId++;
    return new Promise((resolve, reject) => {
      this._pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: "call", id, method, args });
    });
  }

  _receive(message) {
    switch (message.type) {
      case "progress":
        this.progress = { fraction: message.fraction, text: message.text };
        this.dispatchEvent(new CustomEvent("progress", { detail: this.progress }));
        break;
      case "step":
        // The worker's clock has its own origin; the message carries epoch time.
        performance.mark(`thousand:${message.name}`, { startTime: Math.max(0, message.at - performance.timeOrigin) });
        break;
      case "ready":
        this.info = message.info;
        this._ready.resolve(message.info);
        break;
      case "failed":
        this._fail(new EngineError(message.error));
        break;
      case "result":
      case "error": {
        const pending = this._pending.get(message.id);
        if (!pending) return;
        this._pending.delete(message.id);
        if (message.type === "result") pending.resolve(message.value);
        else pending.reject(new EngineError(message.error));
        break;
      }
    }
  }

  _fail(error) {
    this._ready.reject(error);
    for (const { reject } of this._pending.values()) reject(error);
    this._pending.clear();
  }
}
