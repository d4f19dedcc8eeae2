/* Presence: owns the live connection picture of a network table — every
 * seat's state (connected, reconnecting, away, left) with its round-trip
 * time to the host — and its drawing: a bar under the page's top bar, in
 * the page's flow, so it never covers the cards.
 *
 * The host measures. It pings every seated guest over the connection in use
 * (Trystero's ping); a guest that has not answered for `lateMs` is
 * reconnecting, one whose connection is gone is away, and one that said
 * goodbye (it closed or reloaded its page) has left. A seat that has left
 * may be given to a computer by the host at once, one that is away once
 * `awayLeft` (its seconds, counted down on its line) is 0; the host's line
 * of that seat then holds the button that does it (standin.js), and the
 * seat shows as replaced from then on. The host sends the picture,
 * signed, to every guest when a state changes, and at most every `sendMs`
 * when a round-trip time has moved by a quarter (and 20 ms). A guest pings
 * the host too, for its own line, and says goodbye when its page goes away.
 *
 *   showPresence(session, bar, {quiet})  // host or guest; draws into `bar`
 */
import { seatNames, t } from "../i18n.js";
import { awayLeft, replaceSeat } from "./standin.js";

export const PRESENCE_DEFAULTS = { pingMs: 2000, lateMs: 4500, sendMs: 6000 };

/** The host's side: measure every guest, keep the picture, send it when it changes. */
class HostPresence extends EventTarget {
  constructor(session) {
    super();
    this.session = session;
    this.config = { ...PRESENCE_DEFAULTS, ...globalThis.thousandNetConfig };
    this.rtt = session.record.seats.map(() => null);
    this.lastPong = session.record.seats.map(() => Date.now());
    this.left = new Map(); // seat → the peer that said goodbye from it
    this.sent = { key: "", at: 0, rtt: [] };
    session.handlers.bye = (peer) => {
      const seat = session.peers.get(peer)?.seat;
      if (seat !== null && seat !== undefined) this.left.set(seat, peer);
      this.update();
    };
    session.addEventListener("status", () => this.update());
    this.timer = setInterval(() => this.tick(), this.config.pingMs);
  }

  tick() {
    const { session } = this;
    session.peerOf.forEach((peer, seat) => {
      if (!peer) return;
      session.transport.ping(peer).then((ms) => {
        if (ms === null || session.peerOf[seat] !== peer) return;
        this.rtt[seat] = ms;
        this.lastPong[seat] = Date.now();
      });
    });
    this.update();
  }

  picture() {
    const { session } = this;
    const now = Date.now();
    return session.record.seats.map((s, i) => {
      if (s.standIn) return { status: "replaced", rtt: null, awayLeft: null };
      if (s.kind !== "guest") return { status: s.kind, rtt: null, awayLeft: null };
      const peer = session.peerOf[i];
      if (this.left.has(i) && peer && peer !== this.left.get(i)) this.left.delete(i); // back, on a new page
      if (this.left.has(i)) return { status: "left", rtt: null, awayLeft: awayLeft(session, i, true, now) };
      if (peer) {
        const late = now - this.lastPong[i] > this.config.lateMs;
        return { status: late ? "reconnecting" : "connected", rtt: late ? null : this.rtt[i], awayLeft: null };
      }
      this.lastPong[i] = now; // a new connection starts with a clean slate
      // The player may come back: the host may give the seat to a computer once awayLeft is 0.
      return { status: "away", rtt: null, awayLeft: awayLeft(session, i, false, now) };
    });
  }

  update() {
    const seats = this.picture();
    this.seats = seats;
    const key = JSON.stringify(seats.map((s) => [s.status, s.awayLeft]));
    const now = Date.now();
    const rtt = seats.map((s) => s.rtt);
    const moved = rtt.some((ms, i) => {
      const before = this.sent.rtt[i] ?? null;
      return (ms === null) !== (before === null) || Math.abs(ms - before) > Math.max(20, before / 4);
    });
    if (key !== this.sent.key || (moved && now - this.sent.at >= this.config.sendMs)) {
      this.sent = { key, at: now, rtt };
      if (this.session.peers.size) this.session._broadcast({ t: "presence", seats });
    }
    this.dispatchEvent(new Event("change"));
  }
}

/** A guest's side: the host's picture, with this guest's own round-trip time to the host. */
class GuestPresence extends EventTarget {
  constructor(session) {
    super();
    this.session = session;
    this.config = { ...PRESENCE_DEFAULTS, ...globalThis.thousandNetConfig };
    this.host = null; // the host's picture
    this.rtt = null;
    this.lastPong = Date.now();
    session.handlers.presence = (body) => {
      this.host = body.seats;
      this.dispatchEvent(new Event("change"));
    };
    session.addEventListener("status", () => this.dispatchEvent(new Event("change")));
    this.timer = setInterval(() => this.tick(), this.config.pingMs);
    // Closing or reloading the page: tell the host first, so it need not wait.
    session.transport.addEventListener("closing", () => {
      if (session.hostPeer) session.transport.send({ t: "bye" }, session.hostPeer);
    });
  }

  tick() {
    const peer = this.session.hostPeer;
    if (!peer) return;
    this.session.transport.ping(peer).then((ms) => {
      if (ms === null) return;
      this.rtt = ms;
      this.lastPong = Date.now();
    });
    this.dispatchEvent(new Event("change"));
  }

  get seats() {
    const { session } = this;
    return (this.host ?? []).map((s, i) => {
      if (i === session.seat) return { ...s, status: "connected", rtt: this.rtt };
      if (s.status !== "host") return s;
      if (!session.hostPeer) return { status: "away", rtt: null, awayLeft: null };
      const late = Date.now() - this.lastPong > this.config.lateMs;
      return { status: late ? "reconnecting" : "host", rtt: late ? null : this.rtt, awayLeft: null };
    });
  }
}

/** The words of one seat's state, in the page's language. */
export function presenceText(s) {
  const word = t(`net.presence.${s.status}`);
  if (s.status !== "away" || s.awayLeft === null || s.awayLeft === undefined) return word;
  return s.awayLeft > 0 ? t("net.presence.away.in", { s: s.awayLeft }) : t("net.presence.away.now");
}

/** The host's button on the line of a seat it may give to a computer now. */
function replaceButton(session, seat, s, name) {
  if (session.role !== "host" || s.awayLeft !== 0) return null;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn small net-replace";
  button.textContent = t("net.replace");
  button.setAttribute("aria-label", t("net.replace.label", { name }));
  button.addEventListener("click", () => {
    button.disabled = true;
    replaceSeat(session, seat).finally(() => session.presence.update());
  });
  return button;
}

/**
 * Draw the connection picture of `session` into `bar` and keep it up to date;
 * returns the model. `quiet(status, name)`: a state word the name already says.
 */
export function showPresence(session, bar, { quiet = () => false } = {}) {
  const model = session.role === "host" ? new HostPresence(session) : new GuestPresence(session);
  session.presence = model;
  const list = document.createElement("ol");
  list.className = "net-presence-seats";
  bar.classList.add("net-presence");
  bar.setAttribute("aria-label", t("net.presence.title"));
  bar.replaceChildren(list);
  const draw = () => {
    const names = seatNames(session.seats);
    const seats = model.seats ?? [];
    bar.hidden = !seats.length;
    list.replaceChildren(
      ...seats.map((s, i) => {
        const li = document.createElement("li");
        li.className = "net-presence-seat";
        li.dataset.seat = String(i);
        li.dataset.status = s.status;
        const dot = document.createElement("span");
        dot.className = "net-dot";
        dot.setAttribute("aria-hidden", "true");
        const name = document.createElement("span");
        name.className = "net-presence-name";
        name.textContent = (names[i] || "—") + (i === session.seat ? ` (${t("net.presence.you")})` : "");
        const state = document.createElement("span");
        state.className = "net-presence-state";
        const word = quiet(s.status, session.seats?.[i]?.name) ? "" : presenceText(s);
        const rtt = s.rtt !== null && s.rtt !== undefined ? t("net.presence.rtt", { ms: s.rtt }) : "";
        state.textContent = [word, rtt].filter(Boolean).join(" · ");
        li.append(dot, name, state);
        const replace = replaceButton(session, i, s, names[i] || `#${i + 1}`);
        if (replace) li.append(replace);
        return li;
      }),
    );
  };
  model.addEventListener("change", draw);
  draw();
  return model;
}
