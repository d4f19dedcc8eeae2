/* The page's entry point: owns the app's wiring — booting the engine and the
 * service worker, the player's preferences, starting, resuming, importing
 * and exporting games, and connecting a session's views to the rendering
 * modules (table, hand, controls, dialogs). It holds no rules: everything
 * offered comes from the view's legal actions.
 *
 * URL parameters (tests, bug reports): ?seed=N starts a new game with that
 * seed when none is saved; ?delay=MS sets the computer's pace (0: instant,
 * no animation) unless a speed was chosen in the menu; ?bots=LEVEL sets
 * every computer seat's level; ?lang=xx.
 *
 * The menu and the welcome screen (menu.js) say what the player chose;
 * acting on it is this module's. The player's helps are modules of their
 * own, connected here: rules-help, guide, hints, undo (the session's),
 * stats, sound and motion.
 */
import { engine } from "./engine-start.js";
import { controlled, registerServiceWorker, watchForUpdate } from "./offline.js";
import { browserLanguage, seatNames, setLanguage, t, translatePage } from "./i18n.js";
import { LocalSession } from "./session.js";
import { clearGame, loadGame, loadPrefs, saveGame, savePrefs, setAside } from "./store.js";
import { dropEnded, playedCards, renderTable, retellStory, showError, showNote, showProgress, showReady, showStory } from "./table.js";
import { renderHand } from "./hand.js";
import { renderControls } from "./controls.js";
import { closeAll, confirmDialog, messageDialog, openDialog } from "./dialogs.js";
import { renderSheet, showLatest } from "./sheet.js";
import { reopenSummary, showHandEnd, showWinner as winnerDialog } from "./handend.js";
import { renderSettings } from "./settings.js";
import { openReplay } from "./replay.js";
import { announce, describe } from "./announce.js";
import { cardRefusal, writeOffQuestion } from "./explain.js";
import { cardLabel, cardShort, marriageValue, sortHand, suitName } from "./cards.js";
import { showRules } from "./rules-help.js";
import { renderGuide } from "./guide.js";
import { askForHint, hintText, hintsOffered, markHint } from "./hints.js";
import { recordAbandoned, recordMatch, showStats } from "./stats.js";
import { setSound, soundDefault, soundView } from "./sound.js";
import { animateView, applySpeed, delayOf, speedOf } from "./motion.js";
import { preferencesFieldset } from "./preferences.js";
import { menuChoice, welcomeChoice } from "./menu.js";
import { exportDialog, importDialog } from "./transfer.js";
import { partingActions, TalonPicks } from "./picks.js";

const $ = (id) => document.getElementById(id);

/* Multiplayer's modules (the lobby, the network, Trystero: half of the
 * page's script) are imported when a table is played or offered, not at
 * start: on a first visit they would compile while the worker compiles
 * Python. index.html lists them in #net-modules, fetched at once for a
 * table's link; the first import puts that list in place otherwise. */
const TABLE_LINK = /^#(?:.*&)?room=/;
let lobbyLoading = null;
function lobby() {
  if (!lobbyLoading) {
    const later = document.getElementById("net-modules");
    if (later) document.head.append(later.content);
    lobbyLoading = import("./net/lobby.js");
  }
  return lobbyLoading;
}
const params = new URLSearchParams(location.search);

const prefs = loadPrefs();
setLanguage(params.get("lang") ?? prefs.lang ?? browserLanguage());
translatePage();

watchForUpdate(() => showNote(t("update.ready")));

// The engine started before this module ran (engine-start.js): show where it is.
const bootProgress = ({ fraction, key, params: values }) => showProgress({ fraction, text: t(key, values) });
if (engine.progress) bootProgress(engine.progress);
engine.addEventListener("progress", (event) => bootProgress(event.detail));

const urlDelay = params.get("delay");
const state = {
  session: null,
  view: null,
  options: null,
  thinking: null,
  reviewLast: false,
  finalTrick: null, // the trick that ended the hand, shown a moment before the summary
  picks: new TalonPicks(), // the cards chosen to give or discard after the talon
  sheetLength: 0,
  handNo: 0,
  typed: "",
  busy: false,
  hint: null, // the strong bot's suggestion for the view shown: {action, reason}
};

function delay() {
  return delayOf(prefs, urlDelay);
}

function soundOn() {
  return prefs.sound ?? soundDefault();
}

function applyDisplayPrefs() {
  document.body.classList.toggle("four-colour", Boolean(prefs.fourColour));
  applySpeed(speedOf(prefs, urlDelay));
  setSound({ enabled: soundOn(), level: prefs.volume ?? 0.5 });
  if (state.session) state.session.delay = delay();
  if (state.view) render();
}
applyDisplayPrefs();

// For the developer console and the tests: the same objects the UI uses.
globalThis.thousand = {
  engine,
  get session() { return state.session; },
  get view() { return state.view; },
};

/* --- setup ---------------------------------------------------------------- */

function defaultSetup() {
  return { name: t("you"), preset: "classic", rules: { players: 3 }, levels: [null, "normal", "normal", "normal"] };
}

function currentSetup() {
  return { ...defaultSetup(), ...(prefs.setup ?? {}) };
}

function seatsFor(players, setup) {
  const bots = t("bot.names").split(",");
  const forced = params.get("bots");
  const seats = [{ name: setup.name || t("you"), kind: "human" }];
  for (let s = 1; s < players; s++) {
    seats.push({ name: bots[s - 1] ?? `#${s}`, kind: "bot", level: forced ?? setup.levels?.[s] ?? "normal" });
  }
  return seats;
}

function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/* --- sessions ------------------------------------------------------------- */

/** Seat names; the default ones ("You", "Anna") follow the UI language. */
function names() {
  return seatNames(state.session?.seats);
}

function attach(session) {
  state.session?.close?.();
  closeAll();
  state.session = session;
  state.view = null;
  state.picks.clear();
  state.reviewLast = false;
  state.thinking = null;
  session.delay = delay();
  // A replaced session may still report a move it was making: ignore it.
  session.addEventListener("view", (e) => state.session === session && onView(e.detail));
  session.addEventListener("status", (e) => state.session === session && onStatus(e.detail));
}

async function startSession(options) {
  const session = new LocalSession({ engine, seat: 0, delay: delay(), save: saveGame, ...options });
  attach(session);
  await session.start();
  return session;
}

async function newGame(setup = currentSetup(), { ask = true, seed = randomSeed(), extra = {} } = {}) {
  if (ask && !(await mayDiscard())) return false;
  // Rules saved by an older version may name options the engine no longer has.
  const known = new Set(state.options.options.map((o) => o.id));
  const rules = Object.fromEntries(Object.entries(setup.rules ?? {}).filter(([id]) => known.has(id)));
  const players = rules.players ?? 3;
  try {
    await startSession({ seats: seatsFor(players, setup), setup: { seed, rules, ...extra } });
  } catch (e) {
    if (e.name !== "ValueError") throw e;
    await messageDialog(t("settings.title"), e.message, "settings-failed");
    await startSession({ seats: seatsFor(3, setup), setup: { seed, ...extra } });
  }
  return true;
}

async function mayDiscard({ importing = false } = {}) {
  if (!state.view || state.view.phase === "over") return true;
  const sure = importing
    ? await confirmDialog(t("confirm.import"), { yes: t("import"), name: "confirm-import" })
    : await confirmDialog(t("confirm.new"), { yes: t("new-game"), name: "confirm-new" });
  if (sure) recordAbandoned(state.session, state.view);
  return sure;
}

/** Load a game text (the engine's save format, or this page's save record). */
async function importGame(text) {
  let gameText = text.trim();
  let seats = null;
  let data;
  try {
    data = JSON.parse(gameText);
  } catch (e) {
    throw new Error(`not JSON (${e.message})`);
  }
  if (data && data.format === "thousand-web/1" && typeof data.game === "string") {
    gameText = data.game;
    seats = data.seats;
    data = JSON.parse(gameText);
  }
  const players = data?.rules?.players ?? 3;
  seats ??= seatsFor(players, currentSetup());
  const previous = state.session;
  try {
    await startSession({ seats, gameText });
  } catch (e) {
    if (previous) await startSession({ seats: previous.seats, gameText: previous.exportText() });
    throw e;
  }
}

/* --- network table (web/net/) ---------------------------------------------- */

/** A network table's own settings for the Rules dialog ({hints}); null against the computer. */
function tableSettings(session) {
  return session && "hintsAllowed" in session ? { hints: session.hintsAllowed } : null;
}

/** Host a table for friends (or reopen this browser's), or join the table of a link. */
async function playWithFriends(link = null) {
  const { hostTable, hostsLink, joinTable, netText } = await lobby();
  const setup = currentSetup();
  const guest = link && !hostsLink(link);
  const name = prefs.setup?.name || netText(guest ? "name.guest" : "name.host");
  const session = guest
    ? await joinTable({ engine, link, name })
    : await hostTable({ engine, name, preset: setup.preset, rules: setup.rules, room: link?.room ?? null });
  attach(session);
  await session.start();
}

/* --- rendering ------------------------------------------------------------ */

function render() {
  const view = state.view;
  if (!view) return;
  const ctx = { you: state.session.seat, names: names(), thinking: state.thinking, reviewLast: state.reviewLast, finalTrick: state.finalTrick };
  // Keyboard players keep their place: when the control they used is
  // redrawn away, the focus goes to the next thing to do.
  const hadFocus = $("you").contains(document.activeElement);
  const newPhase = state.drawnPhase !== view.phase;
  state.drawnPhase = view.phase;
  renderTable(view, ctx);
  const mine = view.turn === ctx.you ? view.legal : [];
  const enabled = new Set();
  let dim = false;
  let marked = null;
  if (view.phase === "play" && mine.length) {
    dim = true;
    for (const a of mine) if (a.startsWith("play ")) enabled.add(a.split(" ")[1]);
  } else if (view.phase === "talon" && mine.length) {
    dim = true;
    for (const a of mine) if (a.startsWith("give ") || a.startsWith("discard ")) enabled.add(a.split(" ")[1]);
    marked = new Map();
    for (const slot of giveSlots(view)) {
      if (slot.card) marked.set(slot.card, slot.label);
    }
  }
  const fresh = new Set(view.declarer === ctx.you && ["talon", "contract"].includes(view.phase) && Array.isArray(view.talon) ? view.talon : []);
  // The card the declarer gave you, marked until you play it.
  const played = playedCards(view);
  const received = new Map((view.given ?? []).filter(([c, to]) => c && to === ctx.you && !played.has(c))
    .map(([c]) => [c, t("received", { name: ctx.names[view.declarer] })]));
  renderHand($("hand"), {
    cards: view.hand,
    enabled,
    dim,
    marked,
    fresh,
    received,
    onPick: pickCard,
    onRefused: explainRefusal,
    onDrop: view.phase === "talon" ? dropCard : null,
  });
  const hint = renderControls($("actions"), { ...view, legal: mine }, {
    names: ctx.names,
    act,
    writeOff,
    giveSlots,
    unpick: (card) => { state.picks.unpick(card); render(); },
    confirmGive,
    newGame: () => newGame(),
    typed: state.typed,
  });
  let line = hint;
  if (!mine.length && view.phase !== "over" && view.turn !== null) {
    line = view.turn === state.thinking ? t("thinking", { name: ctx.names[view.turn] }) : t("turn.of", { name: ctx.names[view.turn] });
  }
  if (state.typed) line = `${t("bid")}: ${state.typed}…`;
  if (state.hint && mine.length) line = hintText(state.hint.action, state.hint.reason, ctx.names);
  $("hint").textContent = line;
  markHint(mine.length ? state.hint?.action : null);
  renderHelps(view, mine);
  // A new phase moves the focus on too (after giving: the contract; after it: the hand).
  if (hadFocus && (newPhase || !$("you").contains(document.activeElement))) {
    const inHand = ["play", "talon"].includes(view.phase) && view.turn === ctx.you;
    const next = (inHand ? $("hand").querySelector("[tabindex='0']") : null)
      ?? $("actions").querySelector(view.phase === "contract" ? ".stepper .btn.primary" : "button:not(:disabled)")
      ?? $("hand").querySelector("[tabindex='0']");
    next?.focus({ preventScroll: true });
  }
}

/** The helps around your moves: Hint and Undo buttons, and the guide's tip. */
function renderHelps(view, mine) {
  const session = state.session;
  const hint = $("btn-hint");
  hint.hidden = !hintsOffered(session);
  hint.disabled = !mine.length || state.busy;
  const undo = $("btn-undo");
  undo.hidden = !session.undo || prefs.undo === false;
  undo.disabled = view.phase === "over" || state.busy;
  renderGuide($("guide"), view, session.seat, prefs, savePrefs);
}

function onView(view) {
  const first = state.view === null;
  const previous = state.view;
  state.view = view;
  state.thinking = null;
  state.hint = null;
  if (view.last_action?.trick || view.trick.length) state.reviewLast = false;
  if (view.phase !== "talon") state.picks.clear();
  const fresh = first ? [] : view.sheet.slice(state.sheetLength);
  if (fresh.some((r) => r.result !== "redeal") && view.last_action?.hand_over && delay() > 0) {
    state.finalTrick = view.last_action.trick;
  }
  render();
  const you = state.session.seat;
  animateView(view, previous, you);
  soundView(view, previous, you);
  if (view.phase === "over") recordMatch(engine, state.session).catch((e) => console.warn("statistics:", e));
  if (first) {
    // A table in play is never covered by the loading box: a guest's table
    // comes from the host while this page's own engine may still be booting.
    $("loading").hidden = true;
    state.sheetLength = view.sheet.length;
    state.handNo = view.hand_no;
    showStory();
    if (view.turn === state.session.seat) announce(t("announce.yourturn"));
    reopenSummary(view, handEndContext());
    return;
  }
  // The same last action again, nothing scored: a refreshed view (a network
  // seat's cards unlocked), told and said once.
  const again = view.hand_no === previous.hand_no && !fresh.length
    && JSON.stringify(view.last_action) === JSON.stringify(previous.last_action);
  const tell = () => describe(view, names(), state.session.seat, previous, fresh);
  const story = tell();
  if (!again) showStory(story, tell);
  const said = again ? [] : [story.spoken];
  if (view.hand_no !== state.handNo && view.hand.length) {
    said.push(t("announce.hand", { cards: sortHand(view.hand).map(cardLabel).join(", ") }));
  }
  state.handNo = view.hand_no;
  announce(said.filter(Boolean).join(". "));
  state.sheetLength = view.sheet.length;
  if (fresh.length && fresh.at(-1).result !== "redeal") showHandEnd(view, handEndContext());
}

function handEndContext() {
  return {
    session: state.session,
    names,
    pause: Math.min(delay() * 2, 1600),
    showTrick: (trick) => { state.finalTrick = trick; render(); },
    onWinner: showWinner,
  };
}

/** A card that does not respond clicked: the engine says why it may not be played now. */
async function explainRefusal(card) {
  const view = state.view;
  const text = await cardRefusal(engine, state.session, view, card);
  if (text && state.view === view) showNote(text);
}

function onStatus(detail) {
  if (detail.kind === "thinking") state.thinking = detail.seat;
  else if (detail.kind === "idle") state.thinking = null;
  else if (detail.kind === "error" || detail.kind === "save-failed") showNote(detail.message);
  else if (detail.kind === "replaced") {
    // Only a network table has this status, so its modules are loaded already.
    lobby().then(({ replacedStory }) => {
      const tell = () => ({ text: replacedStory(detail, state.session.seat), dealt: true });
      showStory(tell(), tell);
    });
  }
  render();
}

async function showWinner() {
  const choice = await winnerDialog(state.view, names(), state.session.seat);
  if (choice === "new") await newGame(currentSetup(), { ask: false });
  else if (choice === "sheet") showSheet();
  else if (choice === "replay") openReplay(state.session, state.view.sheet, names());
}

/* --- acting --------------------------------------------------------------- */

async function act(text) {
  if (state.busy) return;
  state.busy = true;
  showNote("");
  dropEnded();
  state.typed = "";
  try {
    await state.session.act(text);
  } catch (e) {
    showNote(t("error.action", { reason: e.message }));
  } finally {
    state.busy = false;
    // At a network table the next view can arrive before the host's answer,
    // drawn while busy: draw the helps again, so Hint is not left disabled.
    const view = state.view;
    if (view && state.session) renderHelps(view, view.turn === state.session.seat ? view.legal : []);
  }
}

/** Ask the strong computer player what it would do in your place, and mark it. */
async function askHint() {
  const session = state.session;
  const view = state.view;
  if (!hintsOffered(session) || !view || view.turn !== session.seat || state.busy) return;
  state.busy = true;
  render();
  try {
    const hint = await askForHint(session, view);
    if (state.view === view) state.hint = hint;
  } catch (e) {
    showNote(t("error.action", { reason: e.message }));
  } finally {
    state.busy = false;
    render();
  }
}

/** Take back your last action of this hand (and the computer's answers). */
async function undoLast() {
  const session = state.session;
  if (!session?.undo || prefs.undo === false || state.busy) return;
  state.busy = true;
  showNote("");
  try {
    await session.undo();
    announce(t("undo.done"));
  } catch (e) {
    showNote(e.name === "IllegalAction" ? t("undo.none") : t("error.action", { reason: e.message }));
  } finally {
    state.busy = false;
    render();
  }
}

async function writeOff() {
  const text = await writeOffQuestion(engine, state.session, state.view, names());
  if (await confirmDialog(text, { yes: t("do.writeoff"), name: "confirm-writeoff" })) {
    await act("writeoff");
  }
}

/** A card clicked (or Enter): play it, asking about a marriage, or pick it to give. */
async function pickCard(card) {
  const view = state.view;
  if (view.phase === "talon") {
    state.picks.toggle(card, giveSlots(view));
    render();
    return;
  }
  const plain = `play ${card}`;
  const declare = `play ${card} declare`;
  const legal = view.legal;
  if (legal.includes(declare)) {
    const suit = card[0] === "A" ? "A" : card[1];
    const name = suit === "A" ? t("marriage.A") : suitName(suit);
    const buttons = [{ label: t("do.declare", { value: marriageValue(suit), suit: name }), value: declare, primary: true }];
    if (legal.includes(plain)) buttons.push({ label: t("do.no-declare"), value: plain });
    const choice = await openDialog({
      title: t("declare.title"),
      body: t("declare.text", { card: cardShort(card), suit: name }),
      name: "declare",
      buttons,
    });
    if (choice) await act(choice);
    $("hand").querySelector("[tabindex='0']")?.focus();
    return;
  }
  if (legal.includes(plain)) await act(plain);
}

function dropCard(card, seat) {
  if (state.picks.drop(card, seat, giveSlots(state.view))) render();
}

function giveSlots(view) {
  return state.picks.slots(view, names());
}

async function confirmGive(slots) {
  for (const a of partingActions(slots)) {
    await act(a);
    if (state.view.phase !== "talon") break;
  }
  state.picks.clear();
  render();
}

/* --- dialogs -------------------------------------------------------------- */

function showSheet() {
  const undone = state.session?.undoHands;
  return openDialog({ title: t("sheet"), body: renderSheet(state.view?.sheet ?? [], names(), undone), name: "sheet", wide: true, onOpen: showLatest });
}

async function showSettings() {
  const form = renderSettings(state.options, currentSetup());
  const choice = await openDialog({
    title: t("settings.title"),
    body: form.node,
    name: "settings",
    wide: true,
    buttons: [
      { label: t("cancel"), value: null },
      { label: t("settings.start"), value: "start", primary: true },
    ],
  });
  if (choice !== "start") return;
  const setup = form.read();
  prefs.setup = setup;
  savePrefs(prefs);
  await newGame(setup);
}

function showExport() {
  return exportDialog(state.session.exportText());
}

async function showImport() {
  const text = await importDialog();
  if (!text) return;
  if (!(await mayDiscard({ importing: true }))) return;
  try {
    await importGame(text);
  } catch (e) {
    await messageDialog(t("import.title"), t("import.failed", { reason: e.message }), "import-failed");
  }
}

/** Switch the page to the language `code`, and remember it. */
function switchLanguage(code) {
  prefs.lang = setLanguage(code);
  savePrefs(prefs);
  translatePage();
  retellStory();
  render();
}

async function showMenu({ focus = null } = {}) {
  const { netText } = await lobby();
  const displayWith = (extra) =>
    preferencesFieldset({
      prefs,
      speed: speedOf(prefs, urlDelay),
      soundOn: soundOn(),
      save: savePrefs,
      onChange: applyDisplayPrefs,
      extra,
    });
  const choice = await menuChoice({ netText, displayWith, switchLanguage, focus });
  if (choice === "language") await showMenu({ focus: "#language" });
  else if (choice === "new") await newGame();
  else if (choice === "friends") await playWithFriends();
  else if (choice === "settings") await showSettings();
  else if (choice === "sheet") await showSheet();
  else if (choice === "rules") await showRules(state.view?.rules ?? null, state.options, tableSettings(state.session));
  else if (choice === "stats") await showStats();
  else if (choice === "replay") await openReplay(state.session, state.view?.sheet ?? [], names());
  else if (choice === "export") await showExport();
  else if (choice === "import") await showImport();
}

async function showWelcome() {
  const { netText } = await lobby();
  const choice = await welcomeChoice({ netText, switchLanguage });
  if (choice === "language") {
    await showWelcome();
    return;
  }
  if (choice === "rules") {
    await showRules(null, state.options);
    await showWelcome();
    return;
  }
  if (choice === "settings") await showSettings();
  else if (choice === "friends") await playWithFriends();
  else if (choice === "import") await showImport();
  else await newGame(currentSetup(), { ask: false });
  if (!state.session) await showWelcome();
}

/* --- keyboard ------------------------------------------------------------- */

document.addEventListener("keydown", (e) => {
  if (document.querySelector("dialog[open]") || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "z") {
    e.preventDefault();
    undoLast();
  } else if (!e.ctrlKey && !e.metaKey && !e.altKey && e.key.toLowerCase() === "h") {
    askHint();
  }
});

document.addEventListener("keydown", (e) => {
  if (document.querySelector("dialog[open]") || e.ctrlKey || e.metaKey || e.altKey) return;
  if (/^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
  const view = state.view;
  if (!view || view.turn !== state.session?.seat) return;
  const verb = view.phase === "bidding" ? "bid" : view.phase === "contract" ? "contract" : null;
  if (verb && /^\d$/.test(e.key)) {
    state.typed = (state.typed + e.key).slice(-3);
    e.preventDefault();
    render();
  } else if (verb && e.key === "Backspace" && state.typed) {
    state.typed = state.typed.slice(0, -1);
    e.preventDefault();
    render();
  } else if (verb && e.key === "Enter" && state.typed) {
    e.preventDefault();
    act(`${verb} ${Number(state.typed)}`);
  } else if (verb && e.key === "Escape") {
    state.typed = "";
    render();
  } else if (view.phase === "play" && (e.key === "ArrowLeft" || e.key === "ArrowRight") && !$("hand").contains(e.target)) {
    e.preventDefault();
    $("hand").querySelector("[tabindex='0']")?.focus();
  }
});

$("btn-menu").addEventListener("click", showMenu);
$("btn-hint").addEventListener("click", askHint);
$("btn-undo").addEventListener("click", undoLast);
$("btn-sheet").addEventListener("click", showSheet);
$("btn-last-trick").addEventListener("click", () => {
  state.reviewLast = !state.reviewLast;
  render();
});

/* --- start ---------------------------------------------------------------- */

async function resume() {
  const saved = loadGame();
  if (!saved) return false;
  if (saved.error) {
    const key = setAside(saved.raw);
    await messageDialog(t("save.bad.title"), t("save.bad.text", { reason: saved.error, key }), "save-bad");
    return false;
  }
  try {
    await startSession({ seats: saved.record.seats, seat: saved.record.seat, gameText: saved.record.game });
    return true;
  } catch (e) {
    state.session?.close();
    state.session = null;
    state.view = null;
    const key = setAside();
    await messageDialog(t("save.bad.title"), t("save.bad.text", { reason: e.message, key }), "save-bad");
    return false;
  }
}

/* What waits until the first screen is up (a dealt hand, or the welcome),
 * so that it never competes with the boot for the first hand: the service
 * worker's download of the whole site, when the page is next idle, with
 * multiplayer's modules (for the menu), and after an install the engine's
 * snapshot for the next visit. The snapshot's
 * worker starts once the site is cached, so the two do not compete either,
 * and the Pyodide it boots comes from the service worker's cache, as on
 * every later visit. */
let firstScreenShown = false;
function afterFirstScreen() {
  if (firstScreenShown) return;
  firstScreenShown = true;
  whenIdle(() => {
    const registering = registerServiceWorker();
    controlled(registering).then(() => engine.keepSnapshot()).catch(() => {});
    lobby().catch(() => {});
  });
}

function whenIdle(fn) {
  if (globalThis.requestIdleCallback) requestIdleCallback(fn, { timeout: 1000 });
  else setTimeout(fn, 100);
}

async function start() {
  // A table link (…#room=…&key=…): join it, or host it again after a reload.
  // The lobby connects while Python boots (a first visit through the link
  // boots it once seated: index.html).
  const joining = TABLE_LINK.test(location.hash)
    ? lobby().then(({ parseLink }) => {
      const link = parseLink();
      return link ? playWithFriends(link).then(() => true) : false;
    })
    : Promise.resolve(false);
  joining.catch(() => {}); // awaited below, once the engine is up
  try {
    await engine.ready;
    performance.mark("thousand:engine-ready");
    state.options = await engine.call("options");
    showReady();
    if (await joining) {
      performance.mark("thousand:dealt");
      return;
    }
    if (await resume()) {
      performance.mark("thousand:dealt");
      return;
    }
    const seed = params.get("seed");
    if (seed !== null && /^\d+$/.test(seed)) {
      clearGame();
      await newGame(currentSetup(), { ask: false, seed: Number(seed) });
      document.body.dataset.seed = seed;
    } else {
      const welcome = showWelcome();
      afterFirstScreen();
      await welcome;
    }
    performance.mark("thousand:dealt");
  } catch (e) {
    console.error(e);
    showError(t("error.engine", { reason: e.message }));
  } finally {
    afterFirstScreen();
  }
}

start();
