/* The card table: owns drawing one seat's view around the hand — the other
 * seats (names, card backs and counts, scores, barrel and bolt marks, bids),
 * the talon, the trick on the table or the one just taken, trump, contract,
 * marriages, the declarer's running count and whose turn it is — plus the
 * story line (what just happened, where the eye is) and the loading indicator.
 *
 * It decides nothing: it draws the plain data of the engine's view.
 * Positions are relative to the player: you at the bottom, the next seat
 * clockwise on your left.
 */
import { cardBack, cardElement, cardShort, marriageValue, suitSymbol } from "./cards.js";
import { t } from "./i18n.js";
import { score } from "./sheet.js";

const $ = (id) => document.getElementById(id);

/** Where a seat sits as seen by `you`: bottom, left, top or right. */
export function position(seat, you, players) {
  const r = (seat - you + players) % players;
  if (r === 0) return "bottom";
  if (players === 2) return "top";
  if (players === 3) return r === 1 ? "left" : "right";
  return ["bottom", "left", "top", "right"][r];
}

/** The loading indicator: a real fraction and what the engine is doing. */
export function showProgress({ fraction, text }) {
  const bar = $("loading-bar");
  bar.value = Math.round(fraction * 100);
  bar.textContent = `${bar.value}%`;
  $("loading-text").textContent = text;
}

export function showReady() {
  $("loading").hidden = true;
  document.body.dataset.engine = "ready";
}

export function showError(message) {
  $("loading").hidden = false;
  $("loading").classList.add("failed");
  $("loading-text").textContent = message;
  document.body.dataset.engine = "failed";
}

/** A short message in the status line (an illegal move, an update). */
export function showNote(text) {
  $("note").textContent = text;
}

// The story of the deal so far: its last few lines, the newest last. Each
// line keeps how to tell it again, so a language switch retells it.
const STORY_LINES = 3;
let storyLines = [];

let ended = { text: "", retell: null };

/**
 * What just happened, in the middle of the table. `text` is the newest line;
 * `dealt` starts a new deal (the lines of the last one go), and `ended` is
 * what ended the last deal (a redeal, a write-off): it shows above the new
 * deal's lines until you act or the bidding is over (dropEnded). `phase` is
 * the view's. `retell()` gives the same story again in the current
 * language. No arguments: clear.
 */
export function showStory(story = null, retell = null) {
  const { text = "", dealt = true, phase = "bidding" } = story ?? {};
  if (dealt) {
    storyLines = [];
    ended = { text: story?.ended ?? "", retell: retell && (() => retell().ended ?? "") };
  }
  if (!["bidding", "dark"].includes(phase)) ended = { text: "", retell: null };
  // A view that comes again (a network seat's view refreshed when its cards
  // are unlocked) tells its line once.
  if (text && text !== storyLines.at(-1)?.text) {
    storyLines = [...storyLines, { text, retell: retell && (() => retell().text) }].slice(-STORY_LINES);
  }
  drawStory();
}

/** The story told again in the language just chosen. */
export function retellStory() {
  for (const line of [ended, ...storyLines]) if (line.retell) line.text = line.retell();
  drawStory();
}

/** The note of how the last deal ended goes (you have acted in the new one). */
export function dropEnded() {
  if (!ended.text) return;
  ended = { text: "", retell: null };
  drawStory();
}

function drawStory() {
  const nodes = [];
  if (ended.text) nodes.push(el("span", "story-ended", ended.text));
  storyLines.forEach(({ text }, k) => nodes.push(el("span", k === storyLines.length - 1 ? "story-now" : "story-old", text)));
  const box = $("story");
  box.replaceChildren(...nodes);
  box.hidden = nodes.length === 0;
}

/** The cards of this hand's tricks and the trick on the table: played, so public. */
export function playedCards(view) {
  const out = new Set(view.trick.map(([, c]) => c));
  for (const trick of view.tricks ?? []) for (const [, c] of trick.cards) out.add(c);
  return out;
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function strokes(n, className) {
  const span = el("span", className);
  for (let i = 0; i < n; i++) span.append(el("i"));
  return span;
}

/** Barrel and bolt marks of a seat, as badges (also used for your own line). */
export function marks(view, seat) {
  const frag = document.createDocumentFragment();
  const barrel = view.barrel?.[seat];
  if (barrel?.on) {
    const b = el("span", "badge barrel", `${t("barrel")} ${barrel.hands}/${view.rules.barrel_attempts}`);
    frag.append(b);
  }
  if (barrel?.at_380) frag.append(el("span", "badge barrel", "380"));
  const bolts = view.bolts?.[seat] ?? 0;
  if (bolts) {
    const b = strokes(bolts, "badge bolts");
    b.setAttribute("aria-label", t("bolts", { n: bolts }));
    b.setAttribute("role", "img");
    b.title = t("bolts", { n: bolts });
    frag.append(b);
  }
  return frag;
}

/** The last word of each seat in the bidding: 110, pass. */
function lastBids(view) {
  const out = {};
  for (const [seat, value] of view.bids ?? []) out[seat] = value;
  return out;
}

function seatStatus(view, seat, names, thinking) {
  if (view.phase === "bidding" || view.phase === "dark") {
    // The bids themselves are listed once, in the bidding line; a seat shows its pass.
    return lastBids(view)[seat] === "pass" ? t("do.pass") : seat === thinking ? "…" : "";
  }
  // Short, to fit beside the card backs; the seat's label says it in words.
  if (seat === view.declarer && (view.contract || view.bid)) return `♛ ${view.contract ?? view.bid}`;
  if (seat === thinking) return "…";
  return "";
}

function renderSeat(view, seat, ctx) {
  const { you, names, thinking } = ctx;
  const pos = position(seat, you, view.players);
  const panel = el("section", `seat pos-${pos}`);
  panel.dataset.seat = seat;
  panel.dataset.dropSeat = seat;
  const out = view.sitting_out === seat;
  panel.classList.toggle("turn", seat === view.turn);
  panel.classList.toggle("declarer", seat === view.declarer);
  panel.classList.toggle("out", out);
  const size = view.hand_sizes[seat];
  const head = el("div", "seat-head");
  head.append(el("span", "name", names[seat]));
  if (seat === view.dealer) {
    const d = el("span", "chip dealer", t("dealer.short"));
    d.title = t("dealer");
    d.setAttribute("aria-label", t("dealer"));
    head.append(d);
  }
  head.append(el("span", "score", score(view.scores[seat])));
  const badges = el("div", "badges");
  badges.append(marks(view, seat));
  if (view.phase === "play" && !out) badges.append(trickBadge(view, seat));
  const backs = el("div", "backs");
  for (let i = 0; i < size; i++) backs.append(cardBack());
  // The dealer of four sits out where its cards would be: its name keeps the room it needs.
  backs.append(out ? el("span", "chip sits-out", t("sits-out")) : el("span", "count", String(size)));
  const status = el("div", "bubble", seatStatus(view, seat, names, thinking));
  status.hidden = !status.textContent;
  // A card given to this seat shows beside it until it is played.
  const played = playedCards(view);
  const received = view.given?.filter(([card, to]) => to === seat && !played.has(card)) ?? [];
  panel.append(head, badges, backs, status);
  for (const [card] of received) {
    const gift = el("div", "gift");
    gift.append(card ? cardElement(card) : cardBack());
    panel.append(gift);
  }
  const parts = [names[seat], `${t("score")} ${score(view.scores[seat])}`, size === 1 ? t("card.one") : t("cards", { n: size })];
  if (seat === view.dealer) parts.push(t("dealer"));
  if (out) parts.push(t("sits-out"));
  if (view.phase === "play" && !out) parts.push(t("tricks.n", { n: view.trick_counts[seat] }));
  if (view.barrel?.[seat]?.on) parts.push(t("barrel"));
  if (view.bolts?.[seat]) parts.push(t("bolts", { n: view.bolts[seat] }));
  if (seat === view.declarer && (view.contract || view.bid)) {
    parts.push(`${view.contract ? t("contract") : t("bid")} ${view.contract ?? view.bid}`);
  } else if (status.textContent && status.textContent !== "…") parts.push(status.textContent);
  if (seat === view.turn) parts.push(seat === thinking ? t("thinking", { name: names[seat] }) : t("turn.of", { name: names[seat] }));
  panel.setAttribute("aria-label", parts.join(", "));
  return panel;
}

/** Tricks taken this hand, as a small badge. */
function trickBadge(view, seat) {
  const n = view.trick_counts?.[seat] ?? 0;
  const b = el("span", "badge tricks", `${t("tricks.short")} ${n}`);
  b.title = t("tricks.n", { n });
  return b;
}

function renderSeats(view, ctx) {
  const seats = $("seats");
  seats.replaceChildren();
  seats.dataset.players = view.players;
  for (let k = 1; k < view.players; k++) seats.append(renderSeat(view, (ctx.you + k) % view.players, ctx));
}

/** The cards on the table: the trick in progress, or the one just taken, or the last for review. */
function trickToShow(view, ctx) {
  // The hand's final trick, kept a moment after the hand is scored.
  if (ctx.finalTrick) return { ...ctx.finalTrick, review: false };
  if (ctx.reviewLast && view.last_trick) return { ...view.last_trick, review: true };
  if (view.trick.length) return { cards: view.trick, winner: null, review: false };
  // A trick just taken stays until the next lead, but never into the next deal.
  const done = view.last_action?.trick;
  if (done && !view.last_action.hand_over) return { ...done, review: false };
  return null;
}

function renderTrick(view, ctx) {
  const trick = $("trick");
  const shown = trickToShow(view, ctx);
  const previous = new Set([...trick.querySelectorAll("[data-card]")].map((c) => c.dataset.card));
  trick.replaceChildren();
  trick.setAttribute("role", "group");
  trick.classList.toggle("review", Boolean(shown?.review));
  if (!shown) {
    trick.setAttribute("aria-label", t("trick"));
    return;
  }
  const said = [];
  for (const [seat, text] of shown.cards) {
    const card = cardElement(text);
    const pos = position(seat, ctx.you, view.players);
    card.classList.add(`at-${pos}`);
    if (!previous.has(text) && !shown.review) card.classList.add(`from-${pos}`);
    if (seat === shown.winner) card.classList.add("winner");
    card.title = ctx.names[seat];
    trick.append(card);
    said.push(`${ctx.names[seat]}: ${cardShort(text)}`);
  }
  if (shown.winner !== null && shown.winner !== undefined) {
    const who = el("p", "trick-winner", t("announce.trick", { name: ctx.names[shown.winner] }));
    trick.append(who);
  }
  trick.setAttribute("aria-label", `${shown.review ? t("last-trick") : t("trick")}: ${said.join(", ")}`);
}

function renderTalon(view) {
  const talon = $("talon");
  talon.replaceChildren();
  // Face up while the declarer gives from it; once given, its cards are in hands.
  const faceUp = Array.isArray(view.talon) && view.phase === "talon";
  if (faceUp) for (const c of view.talon) talon.append(cardElement(c));
  else if (view.phase === "bidding" || view.phase === "dark") {
    for (let i = 0; i < view.talon_size; i++) talon.append(cardBack());
  } else if (view.phase === "choose") {
    for (const [k, cards] of (view.talons ?? [null, null]).entries()) {
      const group = el("div", "talon-group");
      group.dataset.talon = k;
      if (cards) for (const c of cards) group.append(cardElement(c));
      else for (let i = 0; i < view.talon_size; i++) group.append(cardBack());
      talon.append(group);
    }
  }
  talon.hidden = talon.childElementCount === 0;
  talon.setAttribute("role", "group");
  talon.setAttribute("aria-label", faceUp ? `${t("talon")}: ${view.talon.map(cardShort).join(" ")}` : t("talon"));
}

function chip(label, value, className = "") {
  const c = el("span", `chip ${className}`);
  c.append(el("small", "", label), el("b", "", value));
  return c;
}

function renderInfo(view, ctx) {
  const info = $("info");
  info.replaceChildren();
  const { names } = ctx;
  if (view.trump) {
    const c = chip(t("trump"), suitSymbol(view.trump), `trump suit-${view.trump}`);
    c.setAttribute("aria-label", `${t("trump")}: ${t(`suit.${view.trump}`)}`);
    info.append(c);
  }
  if (view.declarer !== null && view.declarer !== undefined && view.phase !== "bidding") {
    const value = view.contract ?? view.bid;
    info.append(chip(view.contract ? t("contract") : t("bid"), `${value} · ${names[view.declarer]}`, "contract"));
  }
  for (const [seat, suit] of view.marriages ?? []) {
    const text = suit === "A" ? t("marriage.A") : `${suitSymbol(suit)} ${marriageValue(suit)}`;
    const c = chip(names[seat], text, `marriage suit-${suit}`);
    c.setAttribute("aria-label", `${t("marriages")}: ${names[seat]} ${suit === "A" ? t("marriage.A") : t(`suit.${suit}`)} ${marriageValue(suit)}`);
    info.append(c);
  }
  if (view.phase === "play" && view.declarer !== null && view.contract) {
    // The declarer's count so far: cards taken plus marriages, against the contract.
    const d = view.declarer;
    const have = (view.card_points?.[d] ?? 0) + (view.marriage_points?.[d] ?? 0);
    const c = chip(t("count", { name: names[d] }), `${have} / ${view.contract}`, "count");
    c.setAttribute("aria-label", t("count.long", { name: names[d], points: have, contract: view.contract }));
    info.append(c);
  }
  if (view.golden) info.append(chip("", t("mark.golden"), "golden"));
  if (view.dark) info.append(chip("", t("mark.dark"), "dark"));
}

function renderBids(view, ctx) {
  const box = $("bids");
  box.replaceChildren();
  const show = ["bidding", "dark"].includes(view.phase) && view.bids?.length;
  box.hidden = !show;
  if (!show) return;
  box.append(el("span", "label", t("bids")));
  for (const [seat, value] of view.bids) {
    const item = el("span", `bid-item${value === "pass" ? " passed" : ""}`);
    item.append(el("small", "", ctx.names[seat]), el("b", "", value === "pass" ? t("do.pass") : String(value)));
    box.append(item);
  }
}

function phaseLine(view, ctx) {
  // When the match is over, the last hand played (the engine's counter has moved on).
  const n = view.phase === "over" ? (view.sheet.at(-1)?.hand ?? view.hand_no) : view.hand_no;
  const parts = [t("hand.no", { n }), t(`phase.${view.phase}`)];
  if (view.phase === "over" && view.winner !== null) {
    parts.push(view.winner === ctx.you ? t("over.you") : t("over.title", { name: ctx.names[view.winner] }));
  }
  else if (view.turn === ctx.you) parts.push(t("your-turn"));
  else if (view.turn !== null && view.turn !== undefined) {
    parts.push(view.turn === ctx.thinking ? t("thinking", { name: ctx.names[view.turn] }) : t("turn.of", { name: ctx.names[view.turn] }));
  }
  return parts.join(" · ");
}

function renderYou(view, ctx) {
  const me = $("you");
  me.classList.toggle("turn", view.turn === ctx.you);
  me.classList.toggle("declarer", view.declarer === ctx.you);
  $("your-name").textContent = ctx.names[ctx.you];
  $("your-score").textContent = score(view.scores[ctx.you]);
  const badges = $("your-marks");
  badges.replaceChildren(marks(view, ctx.you));
  if (view.phase === "play" && view.sitting_out !== ctx.you) badges.append(trickBadge(view, ctx.you));
  if (view.sitting_out === ctx.you) badges.prepend(el("span", "chip sits-out", t("sits-out")));
  if (view.dealer === ctx.you) {
    const d = el("span", "chip dealer", t("dealer.short"));
    d.title = t("dealer");
    d.setAttribute("aria-label", t("dealer"));
    badges.prepend(d);
  }
}

/**
 * Draw the table of `view` as seen by ctx.you. ctx: {you, names, thinking
 * (the seat a computer is thinking for, or null), reviewLast (show the last
 * trick), finalTrick (the trick that ended the hand, while it is still shown)}.
 */
export function renderTable(view, ctx) {
  $("phase").textContent = phaseLine(view, ctx);
  document.body.dataset.phase = view.phase;
  document.body.dataset.turn = view.turn === ctx.you ? "you" : "other";
  renderSeats(view, ctx);
  renderInfo(view, ctx);
  renderTalon(view);
  renderBids(view, ctx);
  renderTrick(view, ctx);
  renderYou(view, ctx);
  const last = $("btn-last-trick");
  last.disabled = !view.last_trick;
  last.setAttribute("aria-pressed", String(Boolean(ctx.reviewLast && view.last_trick)));
}
