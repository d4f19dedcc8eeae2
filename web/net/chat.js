/* Chat: owns a network table's chat — a line of text (up to 200
 * characters) or a quick reaction ("Good game", "Well played", "Oops") —
 * and its panel.
 *
 * A guest sends its line to the host (schema `chat` of protocol.js, checked
 * there like every message); the host limits each seat to a few lines at
 * once and one every `chatEveryMs` on average, and sends every accepted
 * line, signed and with the sender's seat, to everyone. A line over the
 * limit is refused with an error, which the sender's panel shows. A
 * reaction travels by name and is shown in each reader's own language.
 *
 *   showChat(session, button)  // host or guest; the button opens the panel
 */
import { seatNames, t } from "../i18n.js";
import { MAX_CHAT, ProtocolError, REACTIONS } from "./protocol.js";

export const CHAT_DEFAULTS = { chatBurst: 5, chatEveryMs: 2000, chatKept: 50 };

/** One seat's allowance: `burst` lines at once, then one per `everyMs`. */
class Allowance {
  constructor(burst, everyMs) {
    this.burst = burst;
    this.everyMs = everyMs;
    this.tokens = burst;
    this.last = Date.now();
  }

  take() {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + (now - this.last) / this.everyMs);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The chat of one session, host or guest: `lines`, `say({text} | {react})`, "line" and "refused" events. */
class Chat extends EventTarget {
  constructor(session) {
    super();
    this.session = session;
    this.config = { ...CHAT_DEFAULTS, ...globalThis.thousandNetConfig };
    this.lines = [];
    this.allowances = new Map();
    if (session.role === "host") {
      session.handlers.chat = (peer, msg) => this._fromGuest(peer, msg);
    } else {
      session.handlers.chat = (body) => this._add(body);
      session.addEventListener("status", (e) => {
        if (e.detail.kind === "chat-limited") this._refused();
      });
    }
  }

  /** Say a line of text or a reaction (by name). */
  say({ text = null, react = null }) {
    const line = { text: typeof text === "string" ? text.trim().slice(0, MAX_CHAT) || null : null, react: REACTIONS.includes(react) ? react : null };
    if ((line.text === null) === (line.react === null)) return false;
    const { session } = this;
    if (session.role === "host") {
      if (!this._allow(session.seat)) return this._refused();
      this._send({ seat: session.seat, ...line });
    } else {
      if (!session.hostPeer) return false;
      session.transport.send({ t: "chat", ...line }, session.hostPeer);
    }
    return true;
  }

  _allow(seat) {
    if (!this.allowances.has(seat)) this.allowances.set(seat, new Allowance(this.config.chatBurst, this.config.chatEveryMs));
    return this.allowances.get(seat).take();
  }

  _fromGuest(peer, msg) {
    if ((msg.text === null) === (msg.react === null)) {
      throw new ProtocolError("malformed", "chat: a text or a reaction, not both nor neither");
    }
    const seat = this.session._seatOf(peer);
    if (!this._allow(seat)) throw new ProtocolError("chat-limited", "too many chat messages: wait a moment");
    this._send({ seat, text: msg.text, react: msg.react });
  }

  _send(line) {
    this.session._broadcast({ t: "chat", ...line });
    this._add(line);
  }

  _add({ seat, text, react }) {
    this.lines.push({ seat, text, react, time: Date.now() });
    if (this.lines.length > this.config.chatKept) this.lines.shift();
    this.dispatchEvent(new CustomEvent("line", { detail: { seat, text, react } }));
  }

  _refused() {
    this.dispatchEvent(new Event("refused"));
    return false;
  }
}

/** A chat line as shown: the reaction in this page's language, or the text as sent. */
export function chatText(line) {
  return line.react ? t(`net.chat.${line.react}`) : line.text;
}

/** The chat of `session`, opened by `button` (its count shows unread lines); returns the model. */
export function showChat(session, button) {
  const chat = new Chat(session);
  session.chat = chat;
  const panel = document.createElement("section");
  panel.id = "net-chat";
  panel.className = "net-chat";
  panel.hidden = true;
  panel.setAttribute("aria-label", t("net.chat"));
  panel.dataset.i18nLabel = "net.chat";
  const log = document.createElement("ol");
  log.className = "net-chat-log";
  log.setAttribute("aria-live", "polite");
  const note = document.createElement("p");
  note.className = "net-chat-note";
  note.setAttribute("role", "status");
  const form = document.createElement("form");
  form.className = "net-chat-form";
  const input = document.createElement("input");
  input.id = "net-chat-text";
  input.maxLength = MAX_CHAT;
  input.autocomplete = "off";
  input.placeholder = t("net.chat.placeholder");
  input.setAttribute("aria-label", t("net.chat.placeholder"));
  input.dataset.i18nPlaceholder = input.dataset.i18nLabel = "net.chat.placeholder";
  const send = document.createElement("button");
  send.className = "btn small primary";
  send.type = "submit";
  send.textContent = t("net.chat.send");
  send.dataset.i18n = "net.chat.send";
  form.append(input, send);
  const reactions = document.createElement("div");
  reactions.className = "net-chat-reactions";
  for (const react of REACTIONS) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn small";
    b.dataset.react = react;
    b.textContent = t(`net.chat.${react}`);
    b.dataset.i18n = `net.chat.${react}`;
    b.addEventListener("click", () => chat.say({ react }));
    reactions.append(b);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "btn small net-chat-close";
  close.textContent = t("net.chat.close");
  close.dataset.i18n = "net.chat.close";
  panel.append(log, note, reactions, form, close);
  document.body.append(panel);

  // The button's word follows the page's language (translatePage); its count is its own.
  let unread = 0;
  const word = document.createElement("span");
  word.dataset.i18n = "net.chat";
  word.textContent = t("net.chat");
  const count = document.createElement("span");
  button.replaceChildren(word, count);
  const label = () => {
    count.textContent = unread ? `\u00a0(${unread})` : ""; // a flex button drops a plain leading space
  };
  const toggle = (open = panel.hidden) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    place();
    if (open) {
      unread = 0;
      input.focus();
    }
    label();
  };
  // Just under the bar that holds the button, so the connection picture stays in sight.
  const place = () => {
    const bar = button.parentElement?.getBoundingClientRect();
    if (bar && !panel.hidden) panel.style.top = `${Math.max(0, bar.bottom + 4)}px`;
  };
  addEventListener("resize", place);
  button.addEventListener("click", () => toggle());
  close.addEventListener("click", () => toggle(false));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (chat.say({ text: input.value })) input.value = "";
  });
  chat.addEventListener("line", (e) => {
    const line = e.detail;
    const li = document.createElement("li");
    li.dataset.seat = String(line.seat);
    if (line.react) li.dataset.react = line.react;
    const who = document.createElement("b");
    who.textContent = `${seatNames(session.seats)[line.seat] || "—"}: `;
    li.append(who, chatText(line));
    log.append(li);
    while (log.children.length > chat.config.chatKept) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
    note.textContent = "";
    if (panel.hidden) unread += 1;
    label();
  });
  chat.addEventListener("refused", () => {
    note.textContent = t("net.chat.limited");
  });
  label();
  return chat;
}
