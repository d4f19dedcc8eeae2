/* GuestSession: owns a guest's side of a network table.
 *
 * The guest opens the room named by the link, waits for a peer that proves
 * it is the host (its public key hashes to the room id, identity.js), says
 * hello with its name, seat token and how many public messages it has, and
 * from then on accepts only messages signed by that key, addressed to it,
 * in order. Its own engine (net_bridge.py in its worker) plays its seat's
 * part of the private deal (PRIVATE_DEAL.md): it follows the hand from its
 * own cards and the public messages the host relays (`pub`, numbered),
 * sends what its seat owes (shuffle, unlocks, moves, passes, its keys at
 * the end of each deal), and checks every deal once all keys are revealed,
 * naming any cheat. Nobody else, the host included, learns its cards.
 * Its own messages come back as a number and a digest (`own`), matched
 * with what it sent; one it cannot match, or a gap in the numbers, makes
 * it ask the host for the whole messages again (`resend`), so nothing is
 * lost; so does a table quiet for `quietMs`, in case the last one was lost.
 *
 * The seat token and the master secret its keys come from live in this
 * browser's localStorage only; after a reload the guest rebuilds its side
 * from the secret and the public messages the host sends it again.
 * Implements the session interface of session.js.
 */
import { t } from "../i18n.js";
import { randomSeed, verifier } from "./identity.js";
import { VERSION, checkHostBody, digest, openEnvelope } from "./protocol.js";
import { followReplace, lobbyComputers } from "./standin.js";
import { Transport, markOnce } from "./transport.js";
import { Verdicts, cardsSettled } from "./verdicts.js";

export const GUEST_RECORD = (room) => `thousand:net:guest:${room}`;
export const GUEST_DEFAULTS = { actTimeoutMs: 20000, revealMs: 60000, gapMs: 700, quietMs: 4000 };

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
    this.verdicts = new Verdicts((alarm) => this._status({ kind: "alarm", ...alarm }));
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
    // The private deal: this seat's keys come from a secret kept in this browser only.
    if (!this.record.master) this._persist({ master: randomSeed() });
    this.state = null; // this page's peer's latest state (net_bridge._state)
    this._have = 0; // public messages handled
    this._hostCount = 0; // how many the host had when it welcomed us
    this._early = new Map(); // public messages that came before their turn
    this._owed = []; // what this seat sent last, sent again to a host that reloaded
    this._mine = new Map(); // digest → a message this seat sent, until it comes back numbered
    this._gap = null; // the timer that asks for missing public messages
    this._quiet = null; // the timer that asks after a quiet spell
    this._arrived = 0; // messages arrived and not yet handled
    this.resends = { mismatch: 0, gap: 0, quiet: 0 }; // how often this guest asked for them, and why
    this._unreadable = new Set(); // public messages the host signed that are no messages
    this.transport = new Transport({ room: link.room, key: link.key, relays: link.relays });
    // One message at a time: checking a signature is asynchronous, and the
    // host's messages must be handled in the order they were numbered.
    this._inbox = Promise.resolve();
    this.transport.addEventListener("message", (e) => {
      const { peer, text } = e.detail;
      this._arrived += 1;
      this._inbox = this._inbox
        .then(() => this._onMessage(peer, text))
        .catch((err) => console.error("thousand net: a message could not be handled", err))
        .finally(() => (this._arrived -= 1));
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

  get alarms() {
    return this.verdicts.alarms;
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
      if (s.kind === "bot") return { name: s.name, kind: "bot", level: s.level, status: "bot", standIn: s.standIn };
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

  /** Send an action for this seat; resolves when the host has relayed it. */
  async act(text) {
    if (this.seat === null || !this.hostPeer) throw namedError("NetError", "not connected to the host");
    // A second card to give waits for the first one's pass to finish.
    await cardsSettled(this, this.config.actTimeoutMs);
    // This page's own engine refuses a move its cards do not allow (IllegalAction).
    const msg = await this.engine.call("net_private_act", this.seat, String(text));
    await this._remember([msg]);
    const n = ++this._n;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this._pending.delete(n);
        reject(namedError("NetError", "the host did not answer"));
      }, this.config.actTimeoutMs);
      this._pending.set(n, { resolve, reject, timer });
      this.transport.send({ ...msg, n }, this.hostPeer);
    });
  }

  /** A guest has no game of its own to export: only what it was shown. */
  exportText() {
    return JSON.stringify({ format: "thousand-net-guest/1", table: this.table, view: this._view }, null, 1);
  }

  /** Say who we are to the host: name and, when we had a seat before, its token. */
  hello() {
    if (!this.hostPeer) return;
    const hello = { t: "hello", v: VERSION, name: this.name, token: this.record.token ?? null, have: this._have };
    this.transport.send(hello, this.hostPeer);
  }

  close() {
    clearTimeout(this._quiet);
    clearTimeout(this._gap);
    this.transport.leave();
  }

  // --- messages -----------------------------------------------------------------------------

  async _onMessage(peer, text) {
    const wire = openEnvelope(text);
    if (wire) await this._fromHost(peer, wire);
    else this.ignored += 1;
  }

  async _fromHost(peer, wire) {
    let body;
    try {
      body = checkHostBody(JSON.parse(wire.body));
    } catch (e) {
      await this._nonsense(wire, e);
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
      // The page's timeline: when the host's connection was made, and when it proved itself.
      markOnce("thousand:net-host-met", { startTime: this.transport.metAt.get(peer) });
      markOnce("thousand:net-host");
      this._setHostStatus("connected");
      this.hello();
      return;
    }
    if (!this._verify || body.epoch !== this._epoch || body.n <= this._lastN) return this._ignore();
    if (!(await this._verify(wire.body, wire.sig))) return this._ignore();
    this._lastN = body.n;
    this.received.push({ t: body.t, size: wire.body.length });
    await this._handle(body);
  }

  _ignore() {
    this.ignored += 1;
  }

  /**
   * A message that is none of the protocol's: ignored, unless the host signed
   * it. Then the page says so, and a public message that came so is not asked
   * for again: the host would only send the same.
   */
  async _nonsense(wire, e) {
    this.ignored += 1;
    if (!this._verify || !(await this._verify(wire.body, wire.sig))) return;
    console.warn("the host signed a message this page cannot read:", e.message);
    let i = null;
    try {
      i = JSON.parse(wire.body).i;
    } catch {
      // not even JSON: no number to keep
    }
    if (Number.isInteger(i)) this._unreadable.add(i);
    this._status({ kind: "error", code: "host-nonsense", message: t("net.host.nonsense") });
  }

  async _handle(body) {
    switch (body.t) {
      case "welcome":
        this.seat = body.seat;
        this._hostCount = body.count;
        this._persist({ seat: body.seat, token: body.token ?? this.record.token ?? null, name: this.name });
        this._status({ kind: body.seat === null ? "spectator" : "seated", seat: body.seat });
        // A host that reloaded may have lost what this seat sent last: send it again
        // (a host that has it refuses the copy).
        for (const m of this._owed) this.transport.send(m, this.hostPeer);
        break;
      case "table":
        this.table = body;
        this._status({ kind: "table" });
        await this._drain();
        break;
      case "pub":
        if (body.i >= this._have) this._early.set(body.i, body.m);
        await this._drain();
        break;
      case "own": {
        const m = this._mine.get(body.h);
        this._mine.delete(body.h);
        if (m && body.i >= this._have) this._early.set(body.i, m);
        if (m && globalThis.thousandNetConfig?.record) (this.ownEchoes ??= {})[body.i] = m; // for the tests
        await this._drain();
        if (!m) this._askAgain("mismatch"); // not what this seat sent: the whole message from the host
        this._answer(body);
        break;
      }
      case "error": {
        const pending = body.re === null ? null : this._pending.get(body.re);
        if (pending) {
          this._answer(body);
          pending.reject(namedError(["illegal", "not-your-turn"].includes(body.code) ? "IllegalAction" : "NetError", body.message));
        } else if (body.t === "error" && body.code !== "stale") {
          if (body.code === "seat-replaced") this._persist({ seat: null, replaced: true }); // the lobby says so
          // A refused chat line is the chat's to show (chat.js), not the table's.
          this._status({ kind: body.code === "chat-limited" ? body.code : "error", code: body.code, message: body.message });
        }
        break;
      }
      case "started":
        break;
      default:
        if (this.handlers[body.t]) this.handlers[body.t](body);
        else this._ignore();
    }
  }

  /** The host's answer to this seat's act number `re`: the act's promise settles. */
  _answer({ t, re }) {
    const pending = re === null ? null : this._pending.get(re);
    if (!pending) return;
    clearTimeout(pending.timer);
    this._pending.delete(re);
    if (t === "own") pending.resolve(this._view);
  }

  /** The public messages now due, in order, once this guest has a seat and the table. */
  async _drain() {
    while (this.seat !== null && this.table && this._early.has(this._have)) {
      const m = this._early.get(this._have);
      this._early.delete(this._have);
      await this._receive(m, this._have);
      this._have += 1;
    }
    this._watchGap();
    this._watchQuiet();
  }

  /** A later message came and this one did not: ask for it while it is still missing a moment later. */
  _watchGap() {
    if (!this._early.size || this._gap) return;
    this._gap = setTimeout(() => {
      this._gap = null;
      if (!this._early.size || this._early.has(this._have)) return;
      this._askAgain("gap");
      this._watchGap();
    }, this.config.gapMs);
  }

  /** No message from the host for `quietMs` while playing: ask for any this guest may lack. */
  _watchQuiet() {
    clearTimeout(this._quiet);
    this._quiet = setTimeout(() => {
      // Only when every message that came is handled: a page still catching up lacks nothing.
      if (this.table?.phase === "playing" && !this._arrived) this._askAgain("quiet");
      this._watchQuiet();
    }, this.config.quietMs);
  }

  /** Ask the host for every public message from the first this guest lacks. */
  _askAgain(why) {
    if (this.seat === null || !this.hostPeer || this._unreadable.has(this._have)) return;
    this.resends[why] += 1;
    this.transport.send({ t: "resend", from: this._have }, this.hostPeer);
  }

  /** Keep what this seat sends by digest, to match the host's `own` with it. */
  async _remember(messages) {
    for (const m of messages) this._mine.set(await digest(m), m);
    // Messages the host refused never come back: keep only the latest few.
    for (const key of [...this._mine.keys()].slice(0, Math.max(0, this._mine.size - 32))) this._mine.delete(key);
  }

  /** Public message `i`: this page's peer follows it and sends what its seat owes next. */
  async _receive(m, i) {
    if (!this.state) {
      const computers = lobbyComputers(this.table.seats);
      this.state = await this.engine.call("net_private_new", this.table.rules, [this.seat], this.record.master, computers);
    }
    // The host gave a seat to a computer (standin.js): maybe this one, which then only watches.
    if (m.t === "replace") {
      if (!(await followReplace(this, m))) return;
    } else this.state = await this.engine.call("net_private_receive", m, i < this._hostCount - 1);
    await this._update(i);
  }

  async _update(i) {
    const out = this.state.out;
    if (out.length) this._owed = out;
    // Catching up after a reload: what the seat owed then was sent then.
    if (i >= this._hostCount - 1 && out.length) {
      await this._remember(out);
      for (const o of out) this.transport.send(o, this.hostPeer);
    }
    this.verdicts.update(this.state);
    this.verdicts.clock(this.state, this.config.revealMs, (deal) => {
      this._inbox = this._inbox.then(async () => {
        if (this.state.deal !== deal || !this.state.revealing) return;
        this.state = await this.engine.call("net_private_timeout");
        await this._update(Infinity);
      });
    });
    // Catching up: the table shows once it is where the others are.
    if (i < this._hostCount - 1) return;
    const view = this.state.views[this.seat];
    this._view = { ...view, rules: this.table?.rules };
    this.dispatchEvent(new CustomEvent("view", { detail: this._view }));
    this._resolveStart?.(this._view);
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
