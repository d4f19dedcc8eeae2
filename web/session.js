/* A game session: owns who plays which seat, and is the only thing the
 * table UI talks to.
 *
 * The interface every session keeps (LocalSession here; the network game's
 * HostSession and GuestSession implement the same):
 *   session.seat                  the seat this client plays
 *   session.seats                 [{name, kind: "human"|"bot"|"remote", level?, status?}]
 *   await session.start()
 *   await session.view()          the engine's view for session.seat
 *   await session.act(text)       apply an action for session.seat; rejects with an
 *                                 Error named "IllegalAction" when the engine refuses
 *   "view" events                 e.detail is the new view, after every change
 *   "status" events               e.detail {kind, ...} for the UI to show
 * Optional extras the UI uses when present: exportText(), replayHand(i),
 * hold() (pause computer seats while the player reads a summary; returns a
 * release function), the `delay` between computer moves in ms, hint() (the
 * strong computer player's suggestion for this seat) and undo() with
 * `undoHands` (the hands in which an action was taken back).
 *
 * A view may carry `last_action` ({seat, action, trick, hand_over}), which
 * the UI uses to animate and announce; it never decides anything with it.
 *
 * LocalSession plays against computer seats in the engine worker and saves
 * every action (see store.js); it never decides legality itself.
 *
 * Undo (LocalSession only) has the engine rebuild the game from its log
 * without your last action of the hand and the computer's answers to it.
 * A computer seat's seed is the match seed plus its seat; the bots mix it
 * with the position they see, so after an undo they answer exactly as a
 * fresh game would, and the deal is the same. The hands in which undo was
 * used are kept in the save text itself, under "undo_hands" (a key the
 * engine's loader ignores), so the mark survives a reload and an export.
 */

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class LocalSession extends EventTarget {
  /**
   * @param {object} o
   * @param {import("./engine.js").Engine} o.engine
   * @param {Array} o.seats one entry per seat; the human's is o.seat
   * @param {object} [o.setup] a new game: {seed, preset, rules, deal, scores}
   * @param {string} [o.gameText] a saved game (the engine's JSON) to resume instead
   * @param {(record: object) => void} [o.save] called with the save record after every action
   * @param {number} [o.delay] ms between computer moves
   */
  constructor({ engine, seat = 0, seats, setup = null, gameText = null, save = null, delay = 600 }) {
    super();
    this.engine = engine;
    this.seat = seat;
    this.seats = seats;
    this.setup = setup;
    this.gameText = gameText;
    this.delay = delay;
    this._save = save;
    this._view = null;
    this._holds = new Set();
    this._wake = null;
    this._driving = false;
    this._closed = false;
    this._botSeed = 1;
    this.undoHands = new Set();
  }

  async start() {
    if (this.gameText !== null) {
      await this.engine.call("load", this.gameText);
    } else {
      await this.engine.call("new", this.setup ?? {});
      this.gameText = await this.engine.call("save");
    }
    const saved = JSON.parse(this.gameText);
    this._botSeed = seedNumber(saved.seed);
    this.undoHands = new Set(Array.isArray(saved.undo_hands) ? saved.undo_hands.filter(Number.isInteger) : []);
    this._view = await this.engine.call("view", this.seat);
    if (this._view.players !== this.seats.length) {
      throw new Error(`the game has ${this._view.players} seats, the session ${this.seats.length}`);
    }
    this._store();
    this._emit();
    this._drive();
    return this._view;
  }

  async view() {
    return this._view ?? this.engine.call("view", this.seat);
  }

  async act(text) {
    if (this._closed) throw new Error("this game is over: a new one has started");
    const result = await this.engine.call("act", this.seat, text, this.seat);
    this._accept(result);
    this._drive();
    return this._view;
  }

  /** The strong computer player's suggestion for your move: {action, reason}. */
  hint() {
    return this.engine.call("hint", this.seat, this._botSeed + this.seat);
  }

  /**
   * Take back your last action of this hand, with the computer moves after it.
   * Rejects with an "IllegalAction" Error when there is none.
   */
  async undo() {
    if (this._closed) throw new Error("this game is over: a new one has started");
    const handNo = this._view?.hand_no;
    const result = await this.engine.call("undo", this.seat, this.seat);
    this.undoHands.add(handNo ?? result.view.hand_no);
    this._accept(result);
    this._drive();
    return result.undone;
  }

  /** The game as text: rules, seed, explicit deals, start scores and the action log. */
  exportText() {
    return this.gameText;
  }

  /** Every step of a finished hand (0 = the first deal), all cards face up. */
  replayHand(index) {
    return this.engine.call("hand_replay", index);
  }

  /** Pause computer seats until the returned function is called. */
  hold() {
    const token = {};
    this._holds.add(token);
    return () => {
      this._holds.delete(token);
      if (!this._holds.size && this._wake) this._wake();
    };
  }

  /** Stop playing (a new game replaces this one); pending computer moves are dropped. */
  close() {
    this._closed = true;
    this._wake?.();
  }

  _accept({ view, save }) {
    this._view = view;
    this.gameText = this._marked(save);
    this._store();
    this._emit();
  }

  /** The engine's save text with the hands in which undo was used. */
  _marked(save) {
    if (!this.undoHands.size) return save;
    return JSON.stringify({ ...JSON.parse(save), undo_hands: [...this.undoHands].sort((a, b) => a - b) });
  }

  _store() {
    try {
      this._save?.({ seat: this.seat, seats: this.seats, game: this.gameText });
    } catch (e) {
      this._status({ kind: "save-failed", message: String(e.message ?? e) });
    }
  }

  _emit() {
    this.dispatchEvent(new CustomEvent("view", { detail: this._view }));
  }

  _status(detail) {
    this.dispatchEvent(new CustomEvent("status", { detail }));
  }

  async _waitHolds() {
    while (this._holds.size && !this._closed) {
      await new Promise((resolve) => { this._wake = resolve; });
      this._wake = null;
    }
  }

  /** Let computer seats move while it is their turn. */
  async _drive() {
    if (this._driving) return;
    this._driving = true;
    try {
      for (;;) {
        const v = this._view;
        if (this._closed || !v || v.turn === null || v.phase === "over") break;
        const who = this.seats[v.turn];
        if (who.kind !== "bot") break;
        await this._waitHolds();
        this._status({ kind: "thinking", seat: v.turn });
        // A finished trick stays on the table a little longer, so it can be seen.
        const pause = v.last_action?.trick ? this.delay * 1.6 : this.delay;
        if (pause > 0) await sleep(pause);
        if (this._closed) break;
        if (this._view !== v) continue; // an undo changed the position meanwhile
        const result = await this.engine.call("bot_act", v.turn, who.level ?? "normal",
          this._botSeed + v.turn, this.seat);
        if (this._closed) break;
        this._accept(result);
      }
    } catch (e) {
      this._status({ kind: "error", message: `${e.name}: ${e.message}` });
    } finally {
      this._driving = false;
      this._status({ kind: "idle" });
    }
  }
}

function seedNumber(seed) {
  if (typeof seed === "number") return seed;
  let h = 0;
  for (const ch of String(seed)) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}
