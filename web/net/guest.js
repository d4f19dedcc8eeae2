/* GuestSession: owns a guest's side of a network table.
 *
 * The guest opens the room named by the link, waits for a peer that proves
 * it is the host (its public key hashes to the room id, identity.js), says
 * hello with its name and seat token, and from then on accepts only
 * messages signed by that key, addressed to it, in order. It sends its
 * actions to the host and shows the views the host sends; it never applies
 * an action itself. For every deal it answers the host's commitment with a
 * random seed, keeps what it was shown, and audits the deal when the host
 * reveals it (audit.js); a failed audit warns everyone.
 *
 * The seat token and the audit state live in localStorage, so after a
 * reload or a dropped connection the guest returns to the same seat.
 * Implements the session interface of session.js.
 */
import { Auditor, checkAlarm } from "./audit.js";
import { randomSeed, verifier } from "./identity.js";
import { TO_PEERS, VERSION, check, checkHostBody } from "./protocol.js";
import { Transport } from "./transport.js";

export const GUEST_RECORD = (room) => `thousand:net:guest:${room}`;
export const GUEST_DEFAULTS = { actTimeoutMs: 20000 };

export class GuestSession extends EventTarget {
  /**
   * @param {object} o
   * @param {import("../engine.js").Engine} o.engine
   * @param {{room: string, key: string, relays: string[]}} o.link
   * @param {string} o.name
   */
  constructor({ engine, link, name, config = {} }) {
    super();
    this.engine = engine;
    this.link = link;
    this.role = "guest";
    this.config = { ...GUEST_DEFAULTS, ...globalThis.thousandNetConfig, ...config };
    this.record = loadRecord(link.room);
    // The name this guest last used at this table wins over the default one.
    this.name = this.record.name || name || "Player";
    this.seat = this.record.seat ?? null;
    this.table = null;
    this.hostPeer = null;
    this.hostStatus = "connecting";
    this.alarms = [];
    this.ignored = 0;
    this.received = [];
    this._verify = null;
    this._epoch = null;
    this._epochTime = 0;
    this._lastN = 0;
    this._view = null;
    this._n = 0;
    this._pending = new Map();
    this._started = null;
    this.handlers = {}; // more message types, by the table's own modules (presence.js, chat.js)
    this.auditor = new Auditor({
      engine,
      rules: () => this.table?.rules,
      save: (state) => this._persist({ audit: state }),
      state: this.record.audit ?? null,
    });
    this.transport = new Transport({ room: link.room, key: link.key, relays: link.relays });
    // One message at a time: checking a signature is asynchronous, and the
    // host's messages must be handled in the order they were numbered.
    this._inbox = Promise.resolve();
    this.transport.addEventListener("message", (e) => {
      const { peer, text } = e.detail;
      this._inbox = this._inbox.then(() => this._onMessage(peer, text)).catch((err) => {
        console.error("thousand net: a message could not be handled", err);
      });
    });
    this.transport.addEventListener("leave", (e) => {
      if (e.detail.peer !== this.hostPeer) return;
      this.hostPeer = null;
      this._setHostStatus("away");
    });
  }

  get room() {
    return this.link.room;
  }

  get phase() {
    return this.table?.phase ?? "connecting";
  }

  get rules() {
    return this.table?.rules ?? null;
  }

  /** Whether the table's host allows hints (from the host's table message). */
  get hintsAllowed() {
    return this.table?.hints === true;
  }

  /** Seats as the table UI wants them, from this guest's side. */
  get seats() {
    if (!this.table) return [];
    return this.table.seats.map((s, i) => {
      const status = s.kind === "empty" ? "empty" : s.kind === "host" ? (this.hostPeer ? "host" : "away") : s.status;
      if (i === this.seat) return { name: s.name, kind: "human", status: "connected" };
      if (s.kind === "bot") return { name: s.name, kind: "bot", level: s.level, status: "bot" };
      return { name: s.name, kind: s.standIn ? "bot" : "remote", status, standIn: s.standIn };
    });
  }

  /** Resolves with the first view once the host has started the game. */
  start() {
    // The view is announced again on start: the page attaches its listeners
    // just before, and the host may have sent the first view already.
    this._started ??= new Promise((resolve) => {
      this._resolveStart = resolve;
      if (this._view) resolve(this._view);
    }).then((view) => {
      this.dispatchEvent(new CustomEvent("view", { detail: this._view ?? view }));
      return this._view ?? view;
    });
    return this._started;
  }

  async view() {
    return this._view ?? this.start();
  }

  /** Send an action for this seat; resolves when the host has applied it. */
  act(text) {
    if (this.seat === null || !this.hostPeer) {
      return Promise.reject(namedError("NetError", "not connected to the host"));
    }
    const n = ++this._n;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this._pending.delete(n);
        reject(namedError("NetError", "the host did not answer"));
      }, this.config.actTimeoutMs);
      this._pending.set(n, { resolve, reject, timer });
      this.transport.send({ t: "act", seat: this.seat, action: String(text), n }, this.hostPeer);
    });
  }

  /** A guest has no game of its own to export: only what it was shown. */
  exportText() {
    return JSON.stringify({ format: "thousand-net-guest/1", table: this.table, view: this._view }, null, 1);
  }

  /** Say who we are to the host: name and, when we had a seat before, its token. */
  hello() {
    if (!this.hostPeer) return;
    this.transport.send({ t: "hello", v: VERSION, name: this.name, token: this.record.token ?? null }, this.hostPeer);
  }

  close() {
    this.transport.leave();
  }

  // --- messages -----------------------------------------------------------------------------

  async _onMessage(peer, text) {
    let wire;
    try {
      wire = JSON.parse(text);
    } catch {
      this.ignored += 1;
      return;
    }
    if (wire && typeof wire.body === "string" && typeof wire.sig === "string" && Object.keys(wire).length === 2) {
      await this._fromHost(peer, wire);
    } else if (wire && wire.t === "alarm") {
      await this._peerAlarm(wire);
    } else {
      this.ignored += 1;
    }
  }

  async _fromHost(peer, wire) {
    let body;
    try {
      body = checkHostBody(JSON.parse(wire.body));
    } catch {
      this.ignored += 1;
      return;
    }
    if (body.to !== this.transport.id && body.to !== "*") {
      this.ignored += 1;
      return;
    }
    if (body.t === "host") {
      // A new host identity (or the same host after a reload: a new epoch).
      if (body.to !== this.transport.id || body.time < this._epochTime) return this._ignore();
      const verify = await verifier(this.link.room, body.pub);
      if (!verify || !(await verify(wire.body, wire.sig))) return this._ignore();
      this._verify = verify;
      this._epoch = body.epoch;
      this._epochTime = body.time;
      this._lastN = body.n;
      this.hostPeer = peer;
      this._setHostStatus("connected");
      this.hello();
      return;
    }
    if (!this._verify || body.epoch !== this._epoch || body.n <= this._lastN) return this._ignore();
    if (!(await this._verify(wire.body, wire.sig))) return this._ignore();
    this._lastN = body.n;
    this.received.push({ t: body.t, size: wire.body.length });
    this._handle(body, wire);
  }

  _ignore() {
    this.ignored += 1;
  }

  _handle(body, wire) {
    switch (body.t) {
      case "welcome":
        this.seat = body.seat;
        this._persist({ seat: body.seat, token: body.token ?? this.record.token ?? null, name: this.name });
        this._status({ kind: body.seat === null ? "spectator" : "seated", seat: body.seat });
        break;
      case "table":
        this.table = body;
        this._status({ kind: "table" });
        break;
      case "view": {
        if (body.view.seat !== this.seat) return;
        this.auditor.observe(body.deal, body.step, wire);
        this._view = { ...body.view, rules: this.table?.rules };
        this.dispatchEvent(new CustomEvent("view", { detail: this._view }));
        this._resolveStart?.(this._view);
        break;
      }
      case "ok":
      case "error": {
        const pending = body.re === null ? null : this._pending.get(body.re);
        if (pending) {
          clearTimeout(pending.timer);
          this._pending.delete(body.re);
          if (body.t === "ok") pending.resolve(this._view);
          else pending.reject(namedError(["illegal", "not-your-turn"].includes(body.code) ? "IllegalAction" : "NetError", body.message));
        } else if (body.t === "error" && body.code !== "bad-seed") {
          // A refused chat line is the chat's to show (chat.js), not the table's.
          this._status({ kind: body.code === "chat-limited" ? body.code : "error", code: body.code, message: body.message });
        }
        break;
      }
      case "commit": {
        this.auditor.commit(body.deal, wire);
        const seed = this.auditor.seedFor(body.deal, randomSeed);
        this.transport.send({ t: "seed", deal: body.deal, seed }, this.hostPeer);
        break;
      }
      case "reveal":
        this._audit(body, wire);
        break;
      case "started":
        break;
      default:
        if (this.handlers[body.t]) this.handlers[body.t](body);
        else this._ignore();
    }
  }

  async _audit(reveal, wire) {
    if (this.seat === null) return;
    const verdict = await this.auditor.reveal(this.seat, reveal, wire);
    this._status({ kind: "audit", deal: reveal.deal, ok: verdict.ok, checked: verdict.checked });
    if (verdict.ok) return;
    const alarm = { t: "alarm", deal: reveal.deal, seat: this.seat, problem: verdict.problems[0], evidence: verdict.evidence };
    this._alarm({ deal: reveal.deal, seat: this.seat, problem: verdict.problems[0], own: true });
    this.transport.send(alarm);
  }

  async _peerAlarm(alarm) {
    if (!this._verify || !this.table) return this._ignore();
    try {
      check(alarm, TO_PEERS);
      const { confirmed, problems } = await checkAlarm(this.engine, alarm, this._verify, this.table.rules);
      if (confirmed) this._alarm({ deal: alarm.deal, seat: alarm.seat, problem: problems[0] ?? alarm.problem });
      else this._ignore();
    } catch {
      this._ignore();
    }
  }

  _alarm(alarm) {
    if (this.alarms.some((a) => a.deal === alarm.deal && a.seat === alarm.seat)) return;
    this.alarms.push(alarm);
    this._status({ kind: "alarm", ...alarm });
  }

  _setHostStatus(status) {
    this.hostStatus = status;
    this._status({ kind: "host", status });
  }

  _status(detail) {
    this.dispatchEvent(new CustomEvent("status", { detail }));
  }

  _persist(changes) {
    Object.assign(this.record, changes);
    try {
      localStorage.setItem(GUEST_RECORD(this.room), JSON.stringify(this.record));
    } catch {
      // A full storage only costs the resume after a reload; play goes on.
    }
  }
}

function loadRecord(room) {
  try {
    const record = JSON.parse(localStorage.getItem(GUEST_RECORD(room)) || "null");
    return record && typeof record === "object" ? record : {};
  } catch {
    return {};
  }
}

function namedError(name, message) {
  const error = new Error(message);
  error.name = name;
  return error;
}
