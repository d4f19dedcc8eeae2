/* HostSession: owns a network table on the host's side.
 *
 * The host's engine (net_bridge.py in the worker) holds the one true game:
 * every action, the host's own, a guest's or a computer seat's, is checked
 * and applied there, and each seat is then sent only its own view, only to
 * that seat's peer. Incoming messages are rate-limited per peer, checked
 * against the protocol's schemas and against the sender's seat; anything
 * wrong is answered with an error and logged, and changes nothing.
 *
 * Each deal is fair by commit–reveal (see net_bridge.py): the host commits
 * to its seed for the next deal as soon as a deal starts, guests answer
 * with seeds, and the deal is shuffled from all of them; when a deal is
 * over the host reveals its seed and the action log for the guests' audit.
 *
 * The host also chooses, in the lobby, whether hints are allowed at the
 * table (`hintsAllowed`, sent to every peer with the table); undo never is.
 *
 * The table (seats, tokens, names), the game and the pending commitments
 * are saved in localStorage after every change, so a reloaded host reopens
 * the same room and play resumes. Implements the session interface of
 * session.js: seat, seats, start(), view(), act(text), "view" and
 * "status" events.
 */
import { checkAlarm } from "./audit.js";
import { newIdentity, randomSeed, signer, verifier } from "./identity.js";
import { ProtocolError, TO_HOST, parse } from "./protocol.js";
import { Transport, loadSettings, makeLink, randomId } from "./transport.js";

export const HOST_RECORD = (room) => `thousand:net:host:${room}`;

/** Timings and limits; tests and the bench shorten the waits. */
export const HOST_DEFAULTS = {
  botDelayMs: 700, // between computer moves, so people can follow
  seedWaitMs: 8000, // the longest a deal waits for a guest's seed
  awayMs: 30000, // how long a seat must be empty before a bot may take it over
  rate: 20, // messages per second a peer may send on average…
  burst: 60, // …and at once
  logKept: 200,
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const cleanName = (name) => String(name).replace(/\s+/g, " ").trim().slice(0, 24) || "Player";

export class HostSession extends EventTarget {
  /** A new table: fresh identity, room and key; the host sits at seat 0. */
  static async create({ engine, name, rules, levels = [], relays = [], config = {} }) {
    const identity = await newIdentity();
    const players = rules.players ?? 3;
    const seats = Array.from({ length: players }, (_, s) =>
      s === 0 ? { kind: "host", name: cleanName(name) } : { kind: "empty", name: "" });
    levels.forEach((level, s) => {
      if (level && s > 0 && s < players) seats[s] = { kind: "bot", name: `Bot ${s}`, level };
    });
    const record = {
      v: 1,
      room: identity.room,
      key: randomId(16),
      relays: relays.length ? relays : loadSettings().relays,
      identity,
      rules,
      seats,
      phase: "lobby",
      game: null,
      fair: {},
      dealSeeds: {},
    };
    const session = new HostSession({ engine, record, config });
    session._persist();
    return session;
  }

  /** The saved table of this room, if this browser hosts it. */
  static stored(room) {
    try {
      const record = JSON.parse(localStorage.getItem(HOST_RECORD(room)) || "null");
      return record && record.v === 1 && record.room === room ? record : null;
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
    this.alarms = [];
    this._queue = Promise.resolve();
    this._outbox = Promise.resolve();
    this._seedWaiters = new Map();
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
      if (s.kind === "bot") return { name: s.name, kind: "bot", level: s.level, status: "bot" };
      if (s.kind === "empty") return { name: "", kind: "remote", status: "empty" };
      return {
        name: s.name,
        kind: s.standIn ? "bot" : "remote",
        level: s.standIn ? "normal" : undefined,
        status: this.peerOf[i] ? "connected" : "away",
        standIn: Boolean(s.standIn),
        awayMs: this.peerOf[i] ? 0 : Date.now() - this.awaySince[i],
      };
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
        standIn: Boolean(s.standIn),
      })),
    };
  }

  // --- lobby ------------------------------------------------------------------------------

  /** Seat a computer player (or, with level null, empty the seat again) before the start. */
  setBot(seat, level) {
    const s = this.record.seats[seat];
    if (this.record.phase !== "lobby" || !s || s.kind === "host" || s.kind === "guest") return false;
    this.record.seats[seat] = level ? { kind: "bot", name: `Bot ${seat}`, level } : { kind: "empty", name: "" };
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

  /** Let a computer play for a guest who has gone (after awayMs, or at once when they left); they take it back on return. */
  standIn(seat, on = true, left = false) {
    const s = this.record.seats[seat];
    if (s?.kind !== "guest") return false;
    if (on && (this.peerOf[seat] || (!left && Date.now() - this.awaySince[seat] < this.config.awayMs))) return false;
    s.standIn = on;
    this._tableChanged();
    if (on) this._drive();
    return true;
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
    if (this.record.phase === "lobby") {
      if (!this.ready) throw new Error("every seat needs a player or a computer before the start");
      this._startCommit(0);
      const seed = await this._seal(0);
      this.state = await this.engine.call("net_host_new", this.record.rules, seed);
      this.record.phase = "playing";
      await this._tableChanged();
      this._broadcast({ t: "started" });
      await this._startCommit(1);
    } else {
      this.state = await this.engine.call("net_host_load", this.record.game);
      if (this.state.winner !== null) this.record.phase = "over";
      // A commitment made before the reload and not yet used is offered again.
      for (const k of Object.keys(this.record.fair)) this._sendCommit(Number(k), "*");
      if (!this.record.fair[this.state.next_deal] && this.record.phase === "playing") {
        await this._startCommit(this.state.next_deal);
      }
    }
    await this._sendViews();
    await this._save();
    this._drive();
    return this.state.views[this.seat];
  }

  async view() {
    if (!this.state) await this.start();
    return this.state.views[this.seat];
  }

  /** The host's own move; rejects with an Error named like the engine's refusal. */
  act(text) {
    return this._enqueue(async () => {
      await this._apply(this.seat, String(text));
      return this.state.views[this.seat];
    });
  }

  exportText() {
    return this.record.game;
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
    this._sendSigned({ t: "host", pub: this.record.identity.publicKey }, peer);
    this._status({ kind: "peer", peer, joined: true });
  }

  _onLeave(peer) {
    const p = this.peers.get(peer);
    this.peers.delete(peer);
    if (!p || p.seat === null || this.peerOf[p.seat] !== peer) return;
    this.peerOf[p.seat] = null;
    this.awaySince[p.seat] = Date.now();
    for (const waiter of this._seedWaiters.values()) waiter.check();
    this._tableChanged();
    // Once the away time is up the host is offered a bot for the seat; tell the UI then.
    setTimeout(() => this._status({ kind: "table" }), this.config.awayMs + 50);
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
    if (text.startsWith('{"t":"alarm"')) {
      this._peerAlarm(peer, text);
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
      else if (msg.t === "seed") this._seed(peer, msg);
      else if (msg.t === "act") this._guestAct(peer, msg);
      else this.handlers[msg.t]?.(peer, msg);
    } catch (e) {
      this._reject(peer, e.code ?? "error", e.message, msg.n ?? null);
    }
  }

  _hello(peer, msg) {
    const p = this.peers.get(peer);
    const seats = this.record.seats;
    let seat = msg.token ? seats.findIndex((s) => s.kind === "guest" && s.token === msg.token) : -1;
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
    this._sendSigned({ t: "welcome", seat, token: seats[seat].token }, peer);
    this._tableChanged();
    if (this.state) {
      this._sendView(seat);
      for (const k of Object.keys(this.record.fair)) this._sendCommit(Number(k), peer);
    }
  }

  _seed(peer, msg) {
    const seat = this._seatOf(peer);
    const fair = this.record.fair[msg.deal];
    if (!fair) throw new ProtocolError("bad-seed", `no deal ${msg.deal} is waiting for seeds`);
    if (fair.sealed) throw new ProtocolError("bad-seed", `deal ${msg.deal} is already shuffled`);
    if (fair.seeds[seat] !== null) throw new ProtocolError("bad-seed", `you already sent a seed for deal ${msg.deal}`);
    fair.seeds[seat] = msg.seed;
    this._save();
    this._seedWaiters.get(msg.deal)?.check();
  }

  _guestAct(peer, msg) {
    const seat = this._seatOf(peer);
    if (msg.seat !== seat) {
      throw new ProtocolError("forged", `you play seat ${seat}, not seat ${msg.seat}`);
    }
    if (this.record.phase !== "playing" || !this.state) throw new ProtocolError("not-started", "the game has not started");
    if (this.state.turn !== seat) {
      throw new ProtocolError("not-your-turn", this.state.turn === null ? "the match is over" : `it is seat ${this.state.turn}'s turn`);
    }
    this._enqueue(async () => {
      try {
        await this._apply(seat, msg.action);
        this._sendSigned({ t: "ok", re: msg.n }, peer);
      } catch (e) {
        const code = e.name === "IllegalAction" ? "illegal" : e.name === "NotYourTurn" ? "not-your-turn" : "error";
        this._reject(peer, code, e.message, msg.n);
      }
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

  async _apply(seat, action) {
    if (this.record.phase !== "playing" || !this.state) {
      throw Object.assign(new Error("the game has not started"), { name: "IllegalAction" });
    }
    const before = this.state;
    if (before.turn !== seat) {
      const who = before.turn === null ? "nobody" : `seat ${before.turn}`;
      throw Object.assign(new Error(`it is not seat ${seat}'s turn: ${who} is to move`), { name: "IllegalAction" });
    }
    // The engine deals the next hand the moment this one ends, so the next
    // deal's fair seed must be set before an action that ends a hand.
    if (!before.seeded && (await this.engine.call("net_host_would_deal", seat, action))) {
      const seed = await this._seal(before.next_deal);
      await this.engine.call("net_host_set_seed", before.next_deal, seed);
    }
    this.state = await this.engine.call("net_host_apply", seat, action);
    const after = this.state;
    await this._sendViews();
    if (after.next_deal > before.next_deal) {
      await this._reveal(before.deal);
      await this._startCommit(after.next_deal);
    } else if (after.winner !== null && before.winner === null) {
      await this._reveal(after.deal);
    }
    if (after.winner !== null && this.record.phase !== "over") {
      this.record.phase = "over";
      this._tableChanged();
    }
    await this._save();
    this._drive();
  }

  _sendView(seat) {
    const peer = this.peerOf[seat];
    if (!peer || !this.state) return;
    // Rules travel once, in the table message; every view would repeat them.
    const { rules, ...view } = this.state.views[seat];
    this._sendSigned({ t: "view", view, deal: this.state.deal, step: this.state.step }, peer);
  }

  async _sendViews() {
    this.record.seats.forEach((s, seat) => {
      if (s.kind === "guest") this._sendView(seat);
    });
    this.dispatchEvent(new CustomEvent("view", { detail: this.state.views[this.seat] }));
  }

  /** Let computer seats (and stand-ins for absent guests) move while it is their turn. */
  async _drive() {
    if (this._driving || this._closed) return;
    this._driving = true;
    try {
      for (;;) {
        const turn = this.state?.turn;
        const s = turn === null || turn === undefined ? null : this.record.seats[turn];
        if (this.record.phase !== "playing" || !s || !(s.kind === "bot" || (s.kind === "guest" && s.standIn))) break;
        if (this.config.botDelayMs > 0) await sleep(this.config.botDelayMs);
        if (this._closed) break;
        await this._enqueue(async () => {
          const now = this.state.turn;
          const who = this.record.seats[now];
          if (now !== turn || !(who.kind === "bot" || (who.kind === "guest" && who.standIn))) return;
          this._status({ kind: "thinking", seat: now });
          const action = await this.engine.call("net_host_bot", now, who.level ?? "normal");
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

  // --- the fair deal ------------------------------------------------------------------------

  async _startCommit(k) {
    if (this.record.fair[k]) return;
    const hostSeed = randomSeed();
    const nonce = randomSeed();
    const fair = { hostSeed, nonce, commit: null, seeds: this.record.seats.map(() => null), sealed: false };
    this.record.fair[k] = fair;
    fair.commit = await this.engine.call("net_commit", hostSeed, nonce);
    await this._save();
    this._sendCommit(k, "*");
  }

  _sendCommit(k, peer) {
    const fair = this.record.fair[k];
    if (fair?.commit && !fair.sealed) this._sendSigned({ t: "commit", deal: k, commit: fair.commit }, peer);
  }

  /** Wait for the seated, connected guests' seeds (or seedWaitMs), then fix deal k's seed. */
  async _seal(k) {
    if (!this.record.fair[k]) await this._startCommit(k);
    while (!this.record.fair[k].commit) await sleep(5);
    const fair = this.record.fair[k];
    const missing = () =>
      this.record.seats.some((s, i) => s.kind === "guest" && this.peerOf[i] && !s.standIn && fair.seeds[i] === null);
    if (missing()) {
      await new Promise((resolve) => {
        const timer = setTimeout(done, this.config.seedWaitMs);
        const check = () => {
          if (!missing()) done();
        };
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this._seedWaiters.set(k, { check });
      });
      this._seedWaiters.delete(k);
    }
    fair.sealed = true;
    const seed = await this._combine(k, fair);
    this.record.dealSeeds[k] = seed;
    await this._save();
    return seed;
  }

  /** The deal's seed from every seat's contribution (a method, so a test can play a cheat). */
  _combine(k, fair) {
    return this.engine.call("net_deal_seed", fair.hostSeed, fair.seeds);
  }

  async _reveal(k) {
    const fair = this.record.fair[k];
    if (!fair) return;
    const game = JSON.parse(await this.engine.call("net_host_save"));
    const seeds = {};
    for (const [j, s] of Object.entries(this.record.dealSeeds)) if (Number(j) < k) seeds[j] = s;
    this._broadcast({
      t: "reveal",
      deal: k,
      host_seed: fair.hostSeed,
      nonce: fair.nonce,
      guest_seeds: fair.seeds,
      seeds,
      log: game.log,
    });
    delete this.record.fair[k];
  }

  /** A guest's audit failed: shown here too once its signed evidence checks out. */
  async _peerAlarm(peer, text) {
    try {
      const alarm = JSON.parse(text);
      this._verify ??= verifier(this.room, this.record.identity.publicKey);
      const { confirmed, problems } = await checkAlarm(this.engine, alarm, await this._verify, this.record.rules);
      if (!confirmed) throw new ProtocolError("unfounded", "the alarm's evidence does not show a mismatch");
      if (this.alarms.some((a) => a.deal === alarm.deal && a.seat === alarm.seat)) return;
      const shown = { deal: alarm.deal, seat: alarm.seat, problem: problems[0] ?? alarm.problem };
      this.alarms.push(shown);
      this._status({ kind: "alarm", ...shown });
    } catch (e) {
      this._reject(peer, e.code ?? "malformed", `alarm: ${e.message}`);
    }
  }

  // --- sending and saving -------------------------------------------------------------------

  _broadcast(body) {
    return this._sendSigned(body, "*");
  }

  /** Sign and send one message; sending is serialized so message numbers arrive in order. */
  _sendSigned(body, peer) {
    const job = this._outbox.then(async () => {
      if (this._closed) return;
      const full = { ...body, to: peer, epoch: this.epoch, n: ++this.counter, time: Date.now() };
      const text = JSON.stringify(full);
      const sig = await (await this._sign)(text);
      await this.transport.send(JSON.stringify({ body: text, sig }), peer === "*" ? null : peer);
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
    if (this.state) this.record.game = await this.engine.call("net_host_save");
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
