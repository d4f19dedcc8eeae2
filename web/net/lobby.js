/* Lobby: owns the network table's own screens — the lobby before the game
 * (link, copy button, QR code, seats with each peer's state, the host's
 * rules read-only, whether hints are allowed — the host's choice, shown to
 * every guest —, computer seats, Start, what stays private, and what can
 * help when nobody answers) and, during play, the strip under the page's
 * top bar that holds the connection picture (presence.js), the chat's button
 * (chat.js) and the cheats that every peer's check of a deal names. It draws
 * into elements of its own (styled by net.css), so
 * it does not depend on the table UI; the page hands it a session and gets
 * the session back once the game starts.
 *
 *   const session = await hostTable({engine, name, rules});
 *   const session = await joinTable({engine, link, name});
 *   // then attach the session to the table UI and await session.start()
 */
import { localName, seatNames, t } from "../i18n.js";
import qrcode from "../vendor/qrcode.mjs";
import { showChat } from "./chat.js";
import { GuestSession } from "./guest.js";
import { HostSession } from "./host.js";
import { showPresence } from "./presence.js";
import { evidenceText } from "./verdicts.js";
import { isRelayURL, loadSettings, makeLink, parseLink, saveSettings } from "./transport.js";

export { parseLink };
// The table story's line for a seat given to a computer (main.js, once a table is played).
export { replacedStory } from "./standin.js";

const WORDS = {
  en: {
    "host.title": "Play with friends",
    "name.host": "Host",
    "name.guest": "Guest",
    "guest.title": "Join the table",
    link: "Send this link to your friends",
    copy: "Copy link",
    copied: "Copied",
    qr: "QR code of the link",
    seats: "Seats",
    you: "you",
    host: "host",
    empty: "empty seat",
    connected: "connected",
    away: "away",
    bot: "computer",
    standin: "computer, run by the host",
    replaced: "A computer player took your seat while you were away. The host runs it and knows its cards; you can watch who is here.",
    "seat-bot": "Seat a computer",
    remove: "Remove",
    rules: "Rules (the host's, read-only)",
    players: "{n} players",
    start: "Start the game",
    "waiting.start": "Waiting for the host to start the game…",
    "waiting.seats": "Waiting for every seat to be taken (friends or computer players)…",
    connecting: "Connecting to the host…",
    "host.away": "The host is not connected. Waiting for the host to come back…",
    full: "Every seat is taken: you can only watch who is here.",
    name: "Your name",
    settings: "Connection settings",
    relays: "Relay servers (one WebSocket URL per line: a WebTorrent tracker, or a Nostr relay written nostr:wss://…; empty: the public ones of both kinds)",
    turn: "TURN server (for strict networks): URL, user name, password",
    save: "Save",
    saved: "Saved: used from the next connection",
    leave: "Leave",
  },
  ru: {
    "host.title": "Игра с друзьями",
    "name.host": "Хозяин",
    "name.guest": "Гость",
    "guest.title": "Вход за стол",
    link: "Отправьте эту ссылку друзьям",
    copy: "Копировать ссылку",
    copied: "Скопировано",
    qr: "QR-код ссылки",
    seats: "Места",
    you: "вы",
    host: "хозяин стола",
    empty: "свободное место",
    connected: "на связи",
    away: "отключился",
    bot: "компьютер",
    standin: "компьютер хозяина",
    replaced: "Пока вас не было, ваше место занял компьютерный игрок. Им управляет хозяин стола и знает его карты; вы можете смотреть, кто за столом.",
    "seat-bot": "Посадить компьютер",
    remove: "Убрать",
    rules: "Правила (хозяина стола, только чтение)",
    players: "игроков: {n}",
    start: "Начать игру",
    "waiting.start": "Ждём, пока хозяин начнёт игру…",
    "waiting.seats": "Ждём, пока все места будут заняты (друзьями или компьютером)…",
    connecting: "Соединение с хозяином стола…",
    "host.away": "Хозяин стола отключился. Ждём его возвращения…",
    full: "Все места заняты: можно только смотреть, кто за столом.",
    name: "Ваше имя",
    settings: "Настройки соединения",
    relays: "Серверы-посредники (по одному адресу WebSocket в строке: трекер WebTorrent или Nostr-сервер в виде nostr:wss://…; пусто — общедоступные обоих видов)",
    turn: "TURN-сервер (для строгих сетей): адрес, имя, пароль",
    save: "Сохранить",
    saved: "Сохранено: действует со следующего соединения",
    leave: "Выйти",
  },
  uk: {
    "host.title": "Гра з друзями",
    "name.host": "Господар",
    "name.guest": "Гість",
    "guest.title": "Вхід до столу",
    link: "Надішліть це посилання друзям",
    copy: "Копіювати посилання",
    copied: "Скопійовано",
    qr: "QR-код посилання",
    seats: "Місця",
    you: "ви",
    host: "господар столу",
    empty: "вільне місце",
    connected: "на зв’язку",
    away: "відключився",
    bot: "комп’ютер",
    standin: "комп'ютер господаря",
    replaced: "Поки вас не було, ваше місце зайняв комп'ютерний гравець. Ним керує господар столу і знає його карти; ви можете дивитися, хто за столом.",
    "seat-bot": "Посадити комп’ютер",
    remove: "Прибрати",
    rules: "Правила (господаря столу, лише перегляд)",
    players: "гравців: {n}",
    start: "Почати гру",
    "waiting.start": "Чекаємо, поки господар почне гру…",
    "waiting.seats": "Чекаємо, поки всі місця будуть зайняті (друзями або комп’ютером)…",
    connecting: "З’єднання з господарем столу…",
    "host.away": "Господар столу відключився. Чекаємо на його повернення…",
    full: "Усі місця зайняті: можна лише дивитися, хто за столом.",
    name: "Ваше ім’я",
    settings: "Налаштування з’єднання",
    relays: "Сервери-посередники (по одній адресі WebSocket у рядку: трекер WebTorrent або Nostr-сервер у вигляді nostr:wss://…; порожньо — загальнодоступні обох видів)",
    turn: "TURN-сервер (для суворих мереж): адреса, ім’я, пароль",
    save: "Зберегти",
    saved: "Збережено: діє з наступного з’єднання",
    leave: "Вийти",
  },
  pl: {
    "host.title": "Gra ze znajomymi",
    "name.host": "Gospodarz",
    "name.guest": "Gość",
    "guest.title": "Dołącz do stołu",
    link: "Wyślij ten link znajomym",
    copy: "Kopiuj link",
    copied: "Skopiowano",
    qr: "Kod QR linku",
    seats: "Miejsca",
    you: "ty",
    host: "gospodarz stołu",
    empty: "wolne miejsce",
    connected: "połączony",
    away: "rozłączony",
    bot: "komputer",
    standin: "komputer gospodarza",
    replaced: "Gdy cię nie było, twoje miejsce zajął gracz komputerowy. Kieruje nim gospodarz i zna jego karty; możesz patrzeć, kto jest przy stole.",
    "seat-bot": "Posadź komputer",
    remove: "Usuń",
    rules: "Zasady (gospodarza stołu, tylko do odczytu)",
    players: "graczy: {n}",
    start: "Rozpocznij grę",
    "waiting.start": "Czekamy, aż gospodarz rozpocznie grę…",
    "waiting.seats": "Czekamy, aż wszystkie miejsca zostaną zajęte (przez znajomych lub komputer)…",
    connecting: "Łączenie z gospodarzem stołu…",
    "host.away": "Gospodarz stołu się rozłączył. Czekamy na jego powrót…",
    full: "Wszystkie miejsca są zajęte: możesz tylko zobaczyć, kto siedzi przy stole.",
    name: "Twoje imię",
    settings: "Ustawienia połączenia",
    relays: "Serwery pośredniczące (jeden adres WebSocket w wierszu: tracker WebTorrent albo serwer Nostr zapisany jako nostr:wss://…; puste — publiczne obu rodzajów)",
    turn: "Serwer TURN (dla restrykcyjnych sieci): adres, nazwa użytkownika, hasło",
    save: "Zapisz",
    saved: "Zapisano: obowiązuje od następnego połączenia",
    leave: "Wyjdź",
  },
};

/** A text of the network screens in the page's language (en, ru, uk, pl; others fall back to English). */
export function netText(key, params = {}) {
  return w(key, params);
}

function w(key, params = {}) {
  const lang = (document.documentElement.lang || "en").slice(0, 2);
  const text = (WORDS[lang] ?? WORDS.en)[key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(params[k] ?? ""));
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

let styled = false;
function ensureStyle() {
  if (styled) return;
  styled = true;
  document.head.append(el("link", { rel: "stylesheet", href: new URL("./net.css", import.meta.url).href }));
}

/** The link as an SVG QR code (error correction M), drawn here from the vendored encoder. */
export function qrSVG(text) {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const n = qr.getModuleCount();
  const quiet = 4;
  let path = "";
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) if (qr.isDark(r, c)) path += `M${c + quiet} ${r + quiet}h1v1h-1z`;
  }
  const size = n + quiet * 2;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", w("qr"));
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.innerHTML = `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/>`;
  return svg;
}

/** Host: open a new table (or the saved one of `room`) and show the lobby until Start. */
export async function hostTable({ engine, name, preset = "classic", rules = {}, room = null }) {
  const record = room ? HostSession.stored(room) : null;
  let session;
  if (record) {
    session = new HostSession({ engine, record });
  } else {
    // The private deal is for three or four players: a two-player setting seats three.
    const two = rules.players === 2;
    const full = await engine.call("net_rules", preset, two ? { ...rules, players: 3 } : rules);
    const botNames = t("bot.names").split(",");
    session = await HostSession.create({ engine, name, rules: full, botNames });
    session.fromTwo = two;
    history.replaceState(null, "", session.link);
  }
  watch(session);
  if (session.phase !== "lobby") return session;
  await lobby(session);
  return session;
}

/** Guest: join the table of a link and show the lobby until the host starts. */
export async function joinTable({ engine, link, name }) {
  const session = new GuestSession({ engine, link, name });
  watch(session);
  if (session.phase === "playing") return session;
  await lobby(session);
  return session;
}

/** Whether this browser hosts the table of this link (then a reload resumes as host). */
export function hostsLink(link) {
  return Boolean(link && HostSession.stored(link.room));
}

/* --- the lobby ------------------------------------------------------------------------------ */

function lobby(session) {
  ensureStyle();
  const host = session.role === "host";
  const root = el("section", { id: "net-lobby", class: "net-lobby", role: "dialog", "aria-modal": "true", "aria-labelledby": "net-lobby-title" });
  const status = el("p", { id: "net-lobby-status", class: "net-status-line", role: "status" });
  const seats = el("ol", { id: "net-seats", class: "net-seats", "aria-label": w("seats") });
  const rules = el("details", { class: "net-rules" });
  const hints = hintsBox(session);
  // A computer seat's cards are known to the host's browser, which runs it.
  const bots = el("p", { class: "net-bots", id: "net-bots", text: t("net.bots") });
  const start = el("button", { id: "net-start", type: "button", class: "btn primary", text: w("start"), hidden: !host });
  const settings = settingsBox();
  const noPeer = noPeerBox(settings);
  const title = el("h2", { id: "net-lobby-title", text: host ? w("host.title") : w("guest.title") });
  const box = el("div", { class: "net-lobby-box" },
    title,
    noPeer,
    linkBox(session),
    nameBox(session),
    el("h3", { text: w("seats") }),
    seats,
    rules,
    hints,
    el("p", { class: "net-privacy", id: "net-privacy", text: t("net.privacy") }),
    bots,
    el("p", { class: "net-two", id: "net-two", text: t("net.two"), hidden: !session.fromTwo }),
    settings,
    status,
    el("div", { class: "net-lobby-buttons" }, start),
  );
  root.append(box);
  document.body.append(root);

  const draw = () => {
    drawSeats(seats, session);
    drawRules(rules, session.rules);
    drawHints(hints, session);
    bots.hidden = !session.seats.some((s) => s.kind === "bot");
    const ready = host ? session.ready : false;
    start.disabled = !ready;
    if (host) status.textContent = ready ? "" : w("waiting.seats");
    else if (session.seat === null && session.table) {
      status.textContent = w(session.record?.replaced ? "replaced" : "full");
      title.after(status); // a guest with no seat reads why first, not below the rules
    } else if (session.hostStatus === "connecting") status.textContent = w("connecting");
    else if (session.hostStatus === "away") status.textContent = w("host.away");
    else status.textContent = w("waiting.start");
    root.dataset.ready = String(ready);
    root.dataset.seated = String(session.seat !== null && Boolean(session.table));
    if (root.dataset.seated === "true" || host) session.engine.boot?.(); // seated: Python may boot now
    drawNoPeer(noPeer, session);
  };
  session.addEventListener("status", draw);
  draw();
  const redraw = setInterval(draw, 1000); // the no-peer message appears without any event
  return new Promise((resolve) => {
    const done = () => {
      clearInterval(redraw);
      session.removeEventListener("status", draw);
      root.remove();
      resolve();
    };
    if (host) {
      // The page starts the session once it has attached the table to it.
      start.addEventListener("click", () => {
        if (session.ready) done();
      });
    } else {
      session.addEventListener("status", () => {
        if (session.phase !== "lobby" && session.phase !== "connecting" && session.seat !== null) done();
      });
    }
  });
}

/** The host's "Allow hints" switch; a guest sees the host's choice, updated as it changes. */
function hintsBox(session) {
  if (session.role === "host") {
    const box = el("input", { id: "net-hints", type: "checkbox", checked: session.hintsAllowed });
    box.addEventListener("change", () => session.setHints(box.checked));
    return el("label", { class: "net-hints" }, box, ` ${t("net.hints")}`);
  }
  return el("p", { id: "net-hints-state", class: "net-hints" });
}

function drawHints(line, session) {
  if (session.role === "host") return;
  line.textContent = t(session.hintsAllowed ? "net.hints.on" : "net.hints.off");
  line.dataset.hints = session.hintsAllowed ? "allowed" : "off";
  line.hidden = !session.table;
}

function linkBox(session) {
  // A guest passes on the table's link, not its own address with its own settings (?lang=…).
  const link = session.role === "host" ? session.link : makeLink(session.link);
  const input = el("input", { id: "net-link", class: "net-link", readonly: true, value: link, "aria-label": w("link") });
  const copy = el("button", { id: "net-copy", type: "button", class: "btn", text: w("copy") });
  copy.addEventListener("click", async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      document.execCommand?.("copy");
    }
    copy.textContent = w("copied");
  });
  const qr = el("div", { class: "net-qr", id: "net-qr" });
  const drawQR = () => {
    try {
      qr.append(qrSVG(link));
    } catch {
      qr.hidden = true; // a link too long for a QR code still has its copy button
    }
  };
  // A guest's page draws it once the host has answered, after the seats: until then its time goes to the join.
  if (session.role === "host") drawQR();
  else {
    const answered = () => {
      if (!session.table) return;
      session.removeEventListener("status", answered);
      setTimeout(drawQR, 0);
    };
    session.addEventListener("status", answered);
  }
  return el("div", { class: "net-link-box" }, el("label", { for: "net-link", text: w("link") }), el("div", { class: "net-link-row" }, input, copy), qr);
}

function nameBox(session) {
  const input = el("input", { id: "net-name", maxlength: "24", value: session.role === "host" ? session.record.seats[0].name : session.name });
  input.addEventListener("change", () => {
    const name = input.value.trim();
    if (!name) return;
    if (session.role === "host") {
      session.record.seats[0].name = name;
      session._tableChanged();
    } else {
      session.name = name;
      session._persist?.({ name });
      session.hello?.();
    }
  });
  return el("label", { class: "net-name" }, `${w("name")} `, input);
}

function settingsBox() {
  const saved = loadSettings();
  const relays = el("textarea", { id: "net-relays", rows: "2", "aria-label": w("relays") });
  relays.value = saved.relays.join("\n");
  const turnURL = el("input", { id: "net-turn-url", placeholder: "turn:example.org:3478", value: saved.turn?.urls ?? "", "aria-label": "TURN URL" });
  const turnUser = el("input", { id: "net-turn-user", value: saved.turn?.username ?? "", "aria-label": "TURN user" });
  const turnPass = el("input", { id: "net-turn-pass", type: "password", value: saved.turn?.credential ?? "", "aria-label": "TURN password" });
  const note = el("span", { class: "net-saved", role: "status" });
  const save = el("button", { type: "button", class: "btn small", text: w("save") });
  save.addEventListener("click", () => {
    const urls = relays.value.split(/\s+/).filter(isRelayURL);
    const turn = turnURL.value.trim() ? { urls: turnURL.value.trim(), username: turnUser.value, credential: turnPass.value } : null;
    saveSettings({ relays: urls, turn });
    note.textContent = w("saved");
  });
  return el("details", { class: "net-settings" }, el("summary", { text: w("settings") }),
    el("label", { class: "net-field" }, w("relays"), relays),
    el("span", { class: "net-field" }, w("turn")),
    el("div", { class: "net-turn" }, turnURL, turnUser, turnPass),
    el("div", {}, save, note));
}

/** What can help when nobody is found: try again, another relay, a TURN server (the settings). */
function noPeerBox(settings) {
  const open = (field) => () => {
    settings.open = true;
    settings.querySelector(field)?.focus();
  };
  return el("div", { id: "net-nopeer", class: "net-nopeer", role: "alert", hidden: true },
    el("p", { class: "net-nopeer-text" }),
    el("p", { class: "net-nopeer-relays" }),
    el("div", { class: "net-nopeer-buttons" },
      el("button", { id: "net-retry", type: "button", class: "btn small", text: t("net.nopeer.retry"), onclick: () => location.reload() }),
      el("button", { id: "net-other-relay", type: "button", class: "btn small", text: t("net.nopeer.relay"), onclick: open("#net-relays") }),
      el("button", { id: "net-add-turn", type: "button", class: "btn small", text: t("net.nopeer.turn"), onclick: open("#net-turn-url") })));
}

/** After `noPeerMs` (10 s): a guest that has not met the host, or a host no relay answers, is told so. */
function drawNoPeer(box, session) {
  const transport = session.transport;
  const waitMs = globalThis.thousandNetConfig?.noPeerMs ?? 10_000;
  const relays = Object.values(transport.relayState());
  const open = relays.reduce((n, r) => n + r.open, 0);
  const total = relays.reduce((n, r) => n + r.total, 0);
  const waited = Date.now() - transport.startedAt >= waitMs;
  const alone = session.role === "host" ? open === 0 : !session.hostPeer;
  box.hidden = !(waited && alone);
  if (box.hidden) return;
  box.querySelector(".net-nopeer-text").textContent = t(session.role === "host" ? "net.nopeer.host" : "net.nopeer.guest");
  box.querySelector(".net-nopeer-relays").textContent = t("net.nopeer.relays", { open, total });
}

/** "Host · host" says one thing twice: a host still under the default name is not called host again. */
function saysHost(status, name) {
  return status === "host" && name === w("name.host");
}

function seatStatus(s) {
  if (s.status === "host") return w("host");
  if (s.status === "empty") return w("empty");
  if (s.kind === "bot") return `${w(s.standIn ? "standin" : "bot")}${s.level ? ` (${t(`level.${s.level}`).toLowerCase()})` : ""}`;
  return w(s.status) ?? s.status;
}

/** What each seat list shows now, so that a redraw with nothing new leaves it alone. */
const seatsDrawn = new WeakMap();

function drawSeats(list, session) {
  const host = session.role === "host";
  // The lobby redraws every second; rebuilding unchanged seats would close an open level
  // menu and drop a click whose press and release straddle the rebuild.
  const drawn = JSON.stringify([session.seats, session.seat, host, document.documentElement.lang]);
  if (seatsDrawn.get(list) === drawn) return;
  seatsDrawn.set(list, drawn);
  list.replaceChildren();
  session.seats.forEach((s, i) => {
    const state = s.status === "empty" ? "empty" : s.kind === "bot" ? "bot" : s.status;
    const li = el("li", { "data-seat": String(i), "data-status": state, class: "net-seat" },
      el("span", { class: "net-dot", "aria-hidden": "true" }),
      el("span", { class: "net-seat-name", text: localName(s.name) || "—" }),
      i === session.seat ? el("span", { class: "net-you", text: ` (${w("you")})` }) : null,
      saysHost(s.status, s.name) ? null : el("span", { class: "net-seat-status", text: ` · ${seatStatus(s)}` }));
    if (host && i !== session.seat) {
      if (s.status === "empty") {
        const level = el("select", { "aria-label": `${w("seat-bot")} ${i}`, class: "net-level" },
          ...["easy", "normal", "strong"].map((l) => el("option", { value: l, text: t(`level.${l}`), selected: l === "normal" })));
        li.append(" ", level, " ", el("button", { type: "button", class: "btn small net-seat-bot", text: w("seat-bot"), onclick: () => session.setBot(i, level.value) }));
      } else if (s.kind === "bot" || s.status === "connected" || s.status === "away") {
        li.append(" ", el("button", { type: "button", class: "btn small net-remove", text: w("remove"),
          onclick: () => (s.kind === "bot" ? session.setBot(i, null) : session.unseat(i)) }));
      }
    }
    list.append(li);
  });
}

function drawRules(details, rules) {
  if (!rules) return;
  details.replaceChildren(el("summary", { text: `${w("rules")} · ${w("players", { n: rules.players })}` }));
  const dl = el("dl", { id: "net-rules-list" });
  for (const [key, value] of Object.entries(rules)) {
    dl.append(el("dt", { text: key }), el("dd", { text: JSON.stringify(value) }));
  }
  details.append(dl);
}

/* --- during play: the connection picture, the chat and alarms ----------------------------- */

function watch(session) {
  ensureStyle();
  // In the page's flow under its top bar, so it never covers the cards.
  let strip = document.getElementById("net-strip");
  if (!strip) {
    strip = el("aside", { id: "net-strip", class: "net-strip" });
    const bar = document.querySelector("body > header");
    if (bar) bar.after(strip);
    else document.body.prepend(strip);
  }
  // Under the strip, in the page's flow too: it never covers the top bar.
  const alarms = document.getElementById("net-alarms") ?? el("div", { id: "net-alarms", class: "net-alarms", role: "alert" });
  strip.after(alarms);
  const seats = el("div", { class: "net-strip-seats" });
  const chat = el("button", { id: "net-chat-open", type: "button", class: "btn small net-chat-open", "aria-controls": "net-chat" });
  const line = el("span", { class: "net-status-line" });
  strip.replaceChildren(seats, chat, line);
  showPresence(session, seats, { quiet: saysHost });
  showChat(session, chat);
  const draw = () => {
    line.textContent = session.role === "guest" && session.hostStatus === "away" ? w("host.away") : "";
    strip.dataset.host = session.role === "guest" ? session.hostStatus : "self";
  };
  session.addEventListener("status", (e) => {
    if (e.detail.kind === "alarm") {
      const { deal, seat, evidence } = e.detail;
      const names = seatNames(session.seats);
      const problem = evidence.map((piece) => evidenceText(piece, names)).join("; ");
      alarms.append(el("p", { class: "net-alarm", "data-deal": String(deal), "data-seat": String(seat),
        text: t("net.alarm", { hand: deal + 1, seat: seat + 1, name: names[seat] ?? `#${seat + 1}`, problem }) }));
    }
    draw();
  });
  draw();
}
