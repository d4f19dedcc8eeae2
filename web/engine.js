/* Engine client: owns the Web Worker that runs the Python engine.
 *
 * The whole API the UI uses is `engine.call(method, ...args)`, which
 * resolves with the bridge's plain-data result (see engine_bridge.py for
 * the methods) or rejects with an Error whose `name` is the Python
 * exception's (`IllegalAction` for a move the rules refuse) and, for an
 * IllegalAction, a stable `code` (`not_your_turn`, `must_follow`, … — see
 * thousand.actions.REFUSAL_CODES) with its `detail` (`suit` where a suit
 * matters, also as `.suit`). `ready` settles when Python has booted;
 * "progress" events report the boot (`{fraction, key, params}`, key an
 * i18n.js text), and each step of it (engine-worker.js names them) becomes
 * a mark in the page's timeline, `thousand:<step>`, at the moment the
 * worker reached it.
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
  /**
   * @param {{fresh?: boolean, started?: {worker: Worker, early: object[], boot?: () => void}}} options
   * fresh: nothing is cached yet, so say that Python downloads; started: a
   * worker index.html already started and booted (or will boot, on `boot()`),
   * with the messages it sent before this took it over
   */
  constructor({ fresh = true, started = null, workerURL = new URL("./engine-worker.js", import.meta.url) } = {}) {
    super();
    this.info = null;
    this.progress = null; // the latest {fraction, key, params} the worker reported
    this._pending = new Map();
    this._nextId = 1;
    this._workerURL = workerURL;
    this.worker = started?.worker ?? new Worker(workerURL, { type: "module" });
    this.ready = new Promise((resolve, reject) => {
      this._ready = { resolve, reject };
    });
    // A failure is reported to whoever awaits `ready`, which may be later.
    this.ready.catch(() => {});
    this.worker.onmessage = null;
    this.worker.onerror = null;
    this.worker.addEventListener("message", (event) => this._receive(event.data));
    this.worker.addEventListener("error", (event) => {
      // A worker that fails to load (a missing module, a syntax error) only
      // says so here; fail the boot and every waiting call with it.
      event.preventDefault?.();
      this._fail(new EngineError({ name: "WorkerError", message: event.message || "the engine worker failed to load" }));
    });
    this._boot = started?.boot ?? null;
    if (started) started.early.splice(0).forEach((message) => this._receive(message));
    else this.worker.postMessage({ type: "boot", fresh });
  }

  /** Start booting Python now, if index.html held the boot back (a first visit through a table's link). */
  boot() {
    this._boot?.();
  }

  /**
   * After a boot that installed the engine, make the memory snapshot the
   * next visit starts from, in a worker of its own (engine-snapshot-worker.js),
   * which is ended when it is done. Its steps become marks too. Resolves
   * when the snapshot is saved (or could not be: the console says why).
   */
  async keepSnapshot() {
    const info = await this.ready;
    if (info.booted !== "install" || !info.snapshots) return;
    const maker = new Worker(new URL("./engine-snapshot-worker.js", this._workerURL), { type: "module" });
    try {
      await new Promise((resolve, reject) => {
        maker.addEventListener("message", ({ data }) => {
          if (data.type === "step") this._receive(data);
          else if (data.type === "done") resolve();
          else if (data.type === "failed") reject(new EngineError(data.error));
        });
        maker.addEventListener("error", (event) => {
          event.preventDefault?.();
          reject(new EngineError({ name: "WorkerError", message: event.message || "the snapshot worker failed to load" }));
        });
        maker.postMessage({ type: "make" });
      });
    } catch (e) {
      // Only the next visit's speed depends on it.
      console.warn("the engine snapshot was not saved:", e.message);
    } finally {
      maker.terminate();
    }
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
        this.progress = { fraction: message.fraction, key: message.key, params: message.params ?? {} };
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
