/* HostSession: owns a network table on the host's side.
 *
 * The host seats the players, relays and orders the table's public
 * messages, and plays its own seat and the computer seats. It does not
 * hold the other seats' cards: every deal is a private deal (mental poker,
 * PRIVATE_DEAL.md), in which every peer's own engine (net_bridge.py in its
 * worker) follows the hand from what its seats know, and at the end of the
 * deal every seat reveals its keys and every peer checks the whole deal and
 * names any cheat. The host learns no more than a guest, except the cards
 * of the computer seats it runs.
 *
 * Every public message is numbered (`pub`, index `i`) and kept; a guest that
 * reloads or comes back gets the ones it missed. A guest's own message goes
 * back to it as a number and a digest only (`own`, protocol.js), and whole
 * again when it asks (`resend`). A guest's message is
 * rate-limited, checked against its schema and against the sender's seat,
 * and then against the host's own peer (a message for another deal, out of
 * turn, repeated, or a move that no hand allows): anything wrong is
 * answered with an error, logged, and relayed to nobody. A seat that does
 * not reveal its keys within `revealMs` is named as a cheat.
 *
 * The host also chooses, in the lobby, whether hints are allowed at the
 * table (`hintsAllowed`, sent to every peer with the table); undo never is.
 *
 * The table (seats, tokens, names), the host's master secret and the public
 * messages are saved in localStorage after every change, so a reloaded host
 * reopens the same room and play resumes. Implements the session interface
 * of session.js: seat, seats, start(), view(), act(text), "view" and
 * "status" events.
 */
import { newIdentity, randomSeed, signer } from "./identity.js";
import { ProtocolError, TO_HOST, digest, envelope, parse } from "./protocol.js";
import { lobbyComputers, refuseReturning, replaceSeat } from "./standin.js";
import { Verdicts, cardsSettled } from "./verdicts.js";
import { Transport, loadSettings, makeLink, randomId } from "./transport.js";

export const HOST_RECORD = (room) => `thousand:net:host:${room}`;

/** Timings and limits; tests and the bench shorten the waits. */
export const HOST_DEFAULTS = {
  botDelayMs: 700, // between computer moves, so people can follow
  revealMs: 60000, // how long a seat may take to reveal its keys before it is named a cheat
  awayMs: 30000, // how long a seat must be empty before the host may give it to a computer (standin.js)
  rate: 20, // messages per second a peer may send on average…
  burst: 60, // …and at once
  logKept: 200,
  resendMs: 1000, // how often a peer may ask for public messages again
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanName = (name) => String(name).replace(/\s+/g, " ").trim().slice(0, 24) || "Player";

export class HostSession extends EventTarget {
  /** A new table: fresh identity, room and key; the host sits at seat 0. */
  static async create({ engine, name, rules, relays = [], botNames = [], config = {} }) {
    const identity = await newIdentity();
    const players = rules.players ?? 3;
    const seats = Array.from({ length: players }, (_, s) =>
      s === 0 ? { kind: "host", name: cleanName(name) } : { kind: "empty", name: "" });
    const record = {
      v: 2,
      room: identity.room,
      key: randomId(16),
      relays: relays.length ? relays : loadSettings().relays,
      identity,
      rules,
      seats,
      botNames, // the host's default names for computer seats; each page shows them in its language
      phase: "lobby",
      master: randomSeed(), // this browser's secret, from which every deal's keys come
      log: [], // every public message of the match, in the host's order
    };
    const session = new HostSession({ engine, record, config });
    session._persist();
    return session;
  }

  /** The saved table of this room, if this browser hosts it. */
  static stored(room) {
    try {
      const record = JSON.parse(localStorage.getItem(HOST_RECORD(room)) || "null");
      return record && record.v === 2 && record.room === room ? record : null;
    } catch {
      return null;
    }
  }

  constructor({ engine, record, config = {} }) {
    super();
    this.engine = engine;
    this.record = record;
    // globalThis.thousandNetConfig lets a test or the bench shorten the waits.
    this.config = { ...HOST_DEFAULTS, ...globalThis.thousandNetConfig, ...config };
    this.seat = 0;
    this.role = "host";
    this.epoch = randomId(9);
    this.counter = 0;
    this.state = null; // the engine's latest summary and views
    this.peers = new Map(); // peer id → {seat, name, tokens, last, warned}
    this.peerOf = new Array(record.seats.length).fill(null);
    this.awaySince = record.seats.map(() => Date.now());
    this.rejected = { total: 0, byCode: {} };
    this.log = [];
    this.verdicts = new Verdicts((alarm) => this._status({ kind: "alarm", ...alarm }));
    this.shuffledFrom = {}; // deal → when its shuffle began (Date.now())
    this._queue = Promise.resolve();
    this._outbox = Promise.resolve();
    this._driving = false;
    this._closed = false;
    this._started = null;
    this.handlers = {}; // more message types, by the table's own modules (presence.js, chat.js)
    this._sign = signer(record.identity);
    this.transport = new Transport({ room: record.room, key: record.key, relays: record.relays });
    this.transport.addEventListener("join", (e) => this._onJoin(e.detail.peer));
    this.transport.addEventListener("leave", (e) => this._onLeave(e.detail.peer));
    this.transport.addEventListener("message", (e) => this._onMessage(e.detail.peer, e.detail.text));
    this.transport.addEventListener("refused", (e) => {
      if (this._allow(e.detail.peer)) this._reject(e.detail.peer, "malformed", e.detail.reason);
      else this._count("rate-limited");
    });
  }

  get room() {
    return this.record.room;
  }

  /** The page's pace setting: the pause before each computer move (ms). */
  set delay(ms) {
    if (Number.isFinite(ms) && ms >= 0) this.config.botDelayMs = ms;
  }

  get delay() {
    return this.config.botDelayMs;
  }

  get phase() {
    return this.record.phase;
  }

  get rules() {
    return this.record.rules;
  }

  /** Whether the host allows hints at this table (a table saved before the setting: no). */
  get hintsAllowed() {
    return this.record.hints === true;
  }

  /** The link to share: room, key and any relay override. */
  get link() {
    return makeLink({ room: this.record.room, key: this.record.key, relays: this.record.relays });
  }

  /** Seats as the table UI wants them, from the host's side. */
  get seats() {
    return this.record.seats.map((s, i) => {
      if (s.kind === "host") return { name: s.name, kind: "human", status: "host" };
      if (s.kind === "bot") return { name: s.name, kind: "bot", level: s.level, status: "bot", standIn: Boolean(s.standIn) };
      if (s.kind === "empty") return { name: "", kind: "remote", status: "empty" };
      // Nobody else may play a guest's seat, its cards are its own, until the host replaces it.
      return { name: s.name, kind: "remote", status: this.peerOf[i] ? "connected" : "away", standIn: false };
    });
  }

  /** The table as every peer sees it (no tokens). */
  tableInfo() {
    return {
      t: "table",
      phase: this.record.phase,
      players: this.record.seats.length,
      rules: this.record.rules,
      hints: this.hintsAllowed,
      seats: this.record.seats.map((s, i) => ({
        name: s.name,
        kind: s.kind,
        level: s.level ?? null,
        status:
          s.kind === "empty" ? "empty" : s.kind === "guest" ? (this.peerOf[i] ? "connected" : "away") : "connected",
        standIn: Boolean(s.standIn), // a person's seat the host gave to a computer (standin.js)
      })),
    };
  }

  /**
   * The seats this browser's engine starts the match with: its own and the
   * lobby's computer seats. A seat replaced later comes to it by the public
   * `replace` message, also when the match is replayed.
   */
  get mySeats() {
    return this.record.seats.flatMap((s, i) => (s.kind === "host" || (s.kind === "bot" && !s.standIn) ? [i] : []));
  }

  get alarms() {
    return this.verdicts.alarms;
  }

  // --- lobby ------------------------------------------------------------------------------

  /** Seat a computer player (or, with level null, empty the seat again) before the start. */
  setBot(seat, level) {
    const s = this.record.seats[seat];
    if (this.record.phase !== "lobby" || !s || s.kind === "host" || s.kind === "guest") return false;
    // The host's default name for the seat (seats count from 1); a table saved before has none.
    const name = this.record.botNames?.[seat - 1] || `Bot ${seat}`;
    this.record.seats[seat] = level ? { kind: "bot", name, level } : { kind: "empty", name: "" };
    this._tableChanged();
    return true;
  }

  /** Allow hints at this table, or not; chosen before the start, seen by every player. */
  setHints(on) {
    if (this.record.phase !== "lobby") return false;
    this.record.hints = Boolean(on);
    this._tableChanged();
    return true;
  }

  /** Free a guest's seat in the lobby (they may join again as a new player). */
  unseat(seat) {
    const s = this.record.seats[seat];
    if (this.record.phase !== "lobby" || s?.kind !== "guest") return false;
    const peer = this.peerOf[seat];
    if (peer) this.peers.get(peer).seat = null;
    this.peerOf[seat] = null;
    this.record.seats[seat] = { kind: "empty", name: "" };
    this._tableChanged();
    return true;
  }

  /** Give the seat of a guest who has gone to a computer (standin.js); resolves false if it may not be now. */
  standIn(seat, level) {
    return replaceSeat(this, seat, level);
  }

  get ready() {
    return this.record.seats.every((s) => s.kind !== "empty");
  }

  // --- the session interface --------------------------------------------------------------

  /** Start the match (from the lobby) or resume it (after a reload); resolves with the first view. */
  start() {
    this._started ??= this._enqueue(() => this._start());
    return this._started;
  }

  async _start() {
    const r = this.record;
    if (r.phase === "lobby") {
      if (!this.ready) throw new Error("every seat needs a player or a computer before the start");
      r.phase = "playing";
      await this._tableChanged();
      this._broadcast({ t: "started" });
      this.state = await this.engine.call("net_private_new", r.rules, this.mySeats, r.master, lobbyComputers(r.seats));
    } else {
      // Rebuilt from the master secret and the public messages so far.
      this.state = await this.engine.call("net_private_replay", r.rules, this.mySeats, r.master, r.log, lobbyComputers(r.seats));
      if (this.state.winner !== null) r.phase = "over";
    }
    await this._afterChange(this.state.out);
    return this.state.views[this.seat];
  }

  async view() {
    if (!this.state) await this.start();
    return this.state.views[this.seat];
  }

  /** The host's own move; rejects with an Error named like the engine's refusal. */
  async act(text) {
    // A second card to give waits for the first one's pass to finish.
    await cardsSettled(this, 20000);
    return this._enqueue(async () => {
      await this._apply(this.seat, String(text));
      return this._myView();
    });
  }

  /** The match as far as it is public: the rules and every action (hidden cards as ??). */
  exportText() {
    const log = this.record.log.filter((m) => m.t === "act").map((m) => m.action);
    return JSON.stringify({ format: "thousand-net-private/1", seed: null, rules: this.record.rules, log });
  }

  close() {
    this._closed = true;
    this.transport.leave();
  }

  /** Forget this table (the host ends it): the saved record goes, the room is left. */
  end() {
    localStorage.removeItem(HOST_RECORD(this.room));
    this.close();
  }

  // --- peers --------------------------------------------------------------------------------

  async _onJoin(peer) {
    this.peers.set(peer, { seat: null, name: "", tokens: this.config.burst, last: Date.now(), warned: 0, limited: 0 });
    // Identify as the host: the public key hashes to the room id, and the
    // message is signed with it.
    this._sendSigned({ t: "host", pub: this.record.identity.publicKey, time: Date.now() }, peer);
    this._status({ kind: "peer", peer, joined: true });
  }

  _onLeave(peer) {
    const p = this.peers.get(peer);
    this.peers.delete(peer);
    if (!p || p.seat === null || this.peerOf[p.seat] !== peer) return;
    this.peerOf[p.seat] = null;
    this.awaySince[p.seat] = Date.now();
    this._tableChanged();
  }

  _allow(peer) {
    const p = this.peers.get(peer);
    if (!p) return false;
    const now = Date.now();
    p.tokens = Math.min(this.config.burst, p.tokens + ((now - p.last) / 1000) * this.config.rate);
    p.last = now;
    if (p.tokens >= 1) {
      p.tokens -= 1;
      return true;
    }
    p.limited += 1;
    return false;
  }

  _onMessage(peer, text) {
    if (this._closed) return;
    if (!this.peers.has(peer)) this._onJoin(peer);
    if (!this._allow(peer)) {
      this._count("rate-limited");
      const p = this.peers.get(peer);
      // One error reply per second at most: a flood gets no echo to amplify.
      if (Date.now() - (p.lastLimitReply ?? 0) > 1000) {
        p.lastLimitReply = Date.now();
        this._reject(peer, "rate-limited", "too many messages: slow down", null, true);
      }
      return;
    }
    let msg;
    try {
      msg = parse(text, TO_HOST);
    } catch (e) {
      this._reject(peer, e.code ?? "malformed", e.message);
      return;
    }
    try {
      if (msg.t === "hello") this._hello(peer, msg);
      else if (msg.t === "resend") this._resend(peer, msg.from);
      else if (this.handlers[msg.t]) this.handlers[msg.t](peer, msg);
      else this._guestPrivate(peer, msg);
    } catch (e) {
      this._reject(peer, e.code ?? "error", e.message, msg.n ?? null);
    }
  }

  _hello(peer, msg) {
    const p = this.peers.get(peer);
    const seats = this.record.seats;
    let seat = msg.token ? seats.findIndex((s) => s.kind === "guest" && s.token === msg.token) : -1;
    if (seat < 0) refuseReturning(this, peer, msg.token); // a seat a computer took over is not given back
    if (seat < 0 && p.seat !== null) seat = p.seat;
    if (seat < 0 && this.record.phase === "lobby") {
      seat = seats.findIndex((s) => s.kind === "empty");
      if (seat >= 0) seats[seat] = { kind: "guest", name: cleanName(msg.name), token: randomId(18) };
    }
    if (seat < 0) {
      this._sendSigned({ t: "welcome", seat: null, token: null }, peer);
      this._sendSigned(this.tableInfo(), peer);
      throw new ProtocolError("table-full", "every seat is taken; you can watch the table's status only");
    }
    // The token is the seat's key: whoever shows it gets the seat, and a tab
    // that held it before loses it (a reload or a second device).
    const before = this.peerOf[seat];
    if (before && before !== peer) {
      this.peers.get(before).seat = null;
      this._sendSigned({ t: "error", code: "replaced", message: "your seat was taken over by another tab", re: null }, before);
    }
    p.seat = seat;
    // Two players of one name would be hard to tell apart: number the second.
    const taken = seats.some((s, i) => i !== seat && s.name === cleanName(msg.name));
    p.name = taken ? cleanName(`${cleanName(msg.name).slice(0, 20)} ${seat + 1}`) : cleanName(msg.name);
    seats[seat].name = p.name;
    seats[seat].standIn = false;
    this.peerOf[seat] = peer;
    const count = this.record.log.length;
    this._sendSigned({ t: "welcome", seat, token: seats[seat].token, count }, peer);
    this._tableChanged();
    // The public messages this guest has not had yet (all of them after its reload),
    // once per connection: a repeated hello gets no second copy.
    for (let i = Math.max(msg.have, p.sent ?? 0); i < count; i++) this._sendSigned({ t: "pub", i, m: this.record.log[i] }, peer);
    p.sent = Math.max(p.sent ?? 0, count);
  }

  /**
   * A seated guest lacks public messages from `from` on: they go to it
   * whole. At most once a `resendMs`: asks in between wait for the next turn.
   */
  _resend(peer, from) {
    const p = this.peers.get(peer);
    this._seatOf(peer);
    p.resendFrom = Math.min(p.resendFrom ?? Infinity, from);
    if (p.resendTimer) return;
    const wait = Math.max(0, (p.resentAt ?? 0) + this.config.resendMs - Date.now());
    p.resendTimer = setTimeout(() => {
      p.resendTimer = null;
      p.resentAt = Date.now();
      const log = this.record.log;
      const first = p.resendFrom;
      p.resendFrom = Infinity;
      if (this.peers.get(peer) !== p) return; // gone meanwhile
      for (let i = first; i < log.length; i++) this._sendSigned({ t: "pub", i, m: log[i] }, peer);
    }, wait);
  }

  /** A guest's part of the private deal: its own seat only, checked by the host's peer, then relayed. */
  _guestPrivate(peer, msg) {
    const seat = this._seatOf(peer);
    if (msg.seat !== seat) throw new ProtocolError("forged", `you play seat ${seat}, not seat ${msg.seat}`);
    if (this.record.phase !== "playing") throw new ProtocolError("not-started", "the game has not started");
    // A host that reloaded rebuilds its peer first (start() resumes it): what a guest
    // sends again on being welcomed back waits in line behind that.
    if (!this.state) this.start().catch(() => {});
    const { n, ...m } = msg;
    // Whose turn it is, too, is checked in line: a guest that has read the host's last
    // message may move before the host's own peer has followed that message.
    this._enqueue(async () => {
      try {
        await this.engine.call("net_private_check", m);
      } catch (e) {
        const code = { NotYourTurn: "not-your-turn", Stale: "stale", Refused: "refused" }[e.name] ?? "illegal";
        this._reject(peer, code, e.message, n ?? null);
        return;
      }
      await this._publish([m], { peer, re: n ?? null });
    });
  }

  _seatOf(peer) {
    const seat = this.peers.get(peer)?.seat;
    if (seat === null || seat === undefined || this.peerOf[seat] !== peer) {
      throw new ProtocolError("not-seated", "say hello first: you have no seat at this table");
    }
    return seat;
  }

  _count(code) {
    this.rejected.total += 1;
    this.rejected.byCode[code] = (this.rejected.byCode[code] ?? 0) + 1;
  }

  /** Answer a refused message with an error, and log it. */
  _reject(peer, code, message, n = null, counted = false) {
    if (!counted) this._count(code);
    const p = this.peers.get(peer);
    const entry = { time: Date.now(), peer, seat: p?.seat ?? null, code, message: String(message).slice(0, 200) };
    this.log.push(entry);
    if (this.log.length > this.config.logKept) this.log.shift();
    if (p && p.warned < 3) {
      p.warned += 1;
      console.warn(`thousand net: refused a message from ${peer} (seat ${entry.seat}): ${code}: ${entry.message}`);
    }
    if (peer && this.peers.has(peer)) {
      this._sendSigned({ t: "error", code, message: entry.message, re: Number.isInteger(n) ? n : null }, peer);
    }
  }

  // --- the game -----------------------------------------------------------------------------

  /** Run state changes one at a time, in arrival order. */
  _enqueue(job) {
    const run = this._queue.then(job);
    this._queue = run.catch(() => {});
    return run;
  }

  /**
   * Relay public messages in order: each is numbered, kept, sent to every
   * guest and given to the host's own peer, whose answers follow it. The
   * first message may be a guest's (`from`: its peer and act number): that
   * guest gets only its number and digest back, with the act's number.
   */
  async _publish(messages, from = null) {
    const queue = [...messages];
    while (queue.length) {
      const m = queue.shift();
      const i = this.record.log.push(m) - 1;
      // Kept before it is sent: a reload then never numbers another message the same.
      this._persist();
      if (m.t === "shuffle" && m.seat === 0) this.shuffledFrom[m.deal] = Date.now(); // for the bench
      if (from && this.peers.has(from.peer)) {
        const others = [...this.transport.peers].filter((p) => p !== from.peer);
        this._sendSigned({ t: "pub", i, m }, "*", others);
        this._sendSigned({ t: "own", i, h: await digest(m), re: from.re }, from.peer);
        from = null;
      } else {
        this._broadcast({ t: "pub", i, m });
      }
      this.state = await this.engine.call("net_private_receive", m);
      queue.push(...this.state.out);
    }
    await this._afterChange([]);
  }

  async _afterChange(out) {
    if (out.length) return this._publish(out);
    this.verdicts.update(this.state);
    this._watchReveal();
    if (this.state.winner !== null && this.record.phase !== "over") {
      this.record.phase = "over";
      this._tableChanged();
    }
    this.dispatchEvent(new CustomEvent("view", { detail: this._myView() }));
    await this._save();
    this._drive();
  }

  _myView() {
    return this.state.views[this.seat];
  }

  /** Keys not all revealed within revealMs: the seats that kept theirs are named. */
  _watchReveal() {
    this.verdicts.clock(this.state, this.config.revealMs, (deal) =>
      this._enqueue(async () => {
        if (this.state.deal !== deal || !this.state.revealing) return;
        this.state = await this.engine.call("net_private_timeout");
        await this._afterChange([]);
      }));
  }

  async _apply(seat, action) {
    if (this.record.phase !== "playing" || !this.state) {
      throw Object.assign(new Error("the game has not started"), { name: "IllegalAction" });
    }
    const m = await this.engine.call("net_private_act", seat, action);
    await this._publish([m]);
  }

  /** Let the computer seats move while it is their turn. */
  async _drive() {
    if (this._driving || this._closed) return;
    this._driving = true;
    try {
      for (;;) {
        const turn = this.state?.turn;
        const s = turn === null || turn === undefined ? null : this.record.seats[turn];
        if (this.record.phase !== "playing" || s?.kind !== "bot") break;
        if (this.config.botDelayMs > 0) await sleep(this.config.botDelayMs);
        if (this._closed) break;
        await this._enqueue(async () => {
          const now = this.state.turn;
          if (now !== turn || this.record.seats[now]?.kind !== "bot") return;
          this._status({ kind: "thinking", seat: now });
          const action = await this.engine.call("net_private_bot", now, this.record.seats[now].level ?? "normal");
          await this._apply(now, action);
        });
      }
    } catch (e) {
      this._status({ kind: "error", message: `${e.name}: ${e.message}` });
    } finally {
      this._driving = false;
      this._status({ kind: "idle" });
    }
  }

  // --- sending and saving -------------------------------------------------------------------

  _broadcast(body) {
    return this._sendSigned(body, "*");
  }

  /**
   * Sign and send one message to `peer` ("*": everyone, or the peers in
   * `targets`); sending is serialized so message numbers arrive in order.
   */
  _sendSigned(body, peer, targets = peer === "*" ? null : peer) {
    const job = this._outbox.then(async () => {
      if (this._closed) return;
      const full = { ...body, to: peer, epoch: this.epoch, n: ++this.counter };
      const text = JSON.stringify(full);
      const sig = await (await this._sign)(text);
      const kind = body.t === "pub" ? `pub ${body.m.t}` : body.t;
      await this.transport.send(envelope(sig, text), targets, kind);
    });
    this._outbox = job.catch((e) => console.error("thousand net: send failed", e));
    return this._outbox;
  }

  async _tableChanged() {
    this._broadcast(this.tableInfo());
    this._status({ kind: "table" });
    await this._save();
  }

  async _save() {
    this._persist();
  }

  _persist() {
    try {
      localStorage.setItem(HOST_RECORD(this.room), JSON.stringify(this.record));
    } catch (e) {
      this._status({ kind: "save-failed", message: String(e.message ?? e) });
    }
  }

  _status(detail) {
    this.dispatchEvent(new CustomEvent("status", { detail }));
  }
}
