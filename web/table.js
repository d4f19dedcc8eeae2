/* Table rendering: owns the DOM of the card table in index.html.
 *
 * Draws a seat's view (the plain data the engine's `view` returns) — your
 * hand, the other seats, talon, trick, scores and the actions on offer —
 * and the loading indicator shown while the engine boots. It decides
 * nothing: the actions are the engine's legal list, drawn as buttons, and a
 * click is handed to the caller.
 */
import { actionText, cardBack, cardElement, suitSymbol } from "./cards.js";

const $ = (id) => document.getElementById(id);

export function seatName(seat, you) {
  return seat === you ? "You" : `Seat ${seat}`;
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

function cards(texts) {
  const frag = document.createDocumentFragment();
  for (const text of texts) frag.append(cardElement(text));
  return frag;
}

function backs(n) {
  const frag = document.createDocumentFragment();
  for (let i = 0; i < n; i++) frag.append(cardBack());
  return frag;
}

function describe(view, you) {
  const parts = [`Hand ${view.hand_no}`, view.phase];
  if (view.turn !== null && view.turn !== undefined) parts.push(`${seatName(view.turn, you)} to move`);
  if (view.contract) parts.push(`contract ${view.contract} by ${seatName(view.declarer, you)}`);
  else if (view.high_bid) parts.push(`high bid ${view.high_bid} by ${seatName(view.high_bidder, you)}`);
  if (view.trump) parts.push(`trump ${suitSymbol(view.trump)}`);
  if (view.winner !== null && view.winner !== undefined) parts.push(`${seatName(view.winner, you)} won the match`);
  return parts.join(" · ");
}

function renderSeats(view, you) {
  const seats = $("seats");
  seats.replaceChildren();
  seats.dataset.players = view.players;
  for (let k = 1; k < view.players; k++) {
    const seat = (you + k) % view.players;
    const el = document.createElement("section");
    el.className = "seat";
    el.dataset.seat = seat;
    if (seat === view.turn) el.classList.add("to-move");
    const size = view.hand_sizes[seat];
    el.setAttribute("aria-label", `${seatName(seat, you)}: ${size} cards, ${view.scores[seat]} points`);
    el.innerHTML = `<h2>${seatName(seat, you)}</h2><p class="score">${view.scores[seat]}</p>`;
    const hand = document.createElement("div");
    hand.className = "backs";
    hand.append(backs(size));
    el.append(hand);
    seats.append(el);
  }
}

function renderCenter(view, you) {
  const talon = $("talon");
  talon.replaceChildren();
  if (Array.isArray(view.talon)) talon.append(cards(view.talon));
  else if (view.phase === "bidding") {
    // Face down: the deck's cards that are in no hand.
    const inHands = view.hand_sizes.reduce((a, b) => a + b, 0);
    talon.append(backs(Math.max(0, 24 - inHands)));
  }
  talon.hidden = talon.childElementCount === 0;

  const trick = $("trick");
  trick.replaceChildren();
  for (const [seat, text] of view.trick) {
    const el = cardElement(text);
    el.title = seatName(seat, you);
    el.dataset.seat = seat;
    trick.append(el);
  }
}

/**
 * Draw `view` (seen by seat `you`). `actions` are the legal action texts on
 * offer and `actor` the seat they are for; `onAction(text)` gets a click.
 */
export function renderView(view, { you = 0, actor = view.turn, actions = view.legal, onAction }) {
  $("phase").textContent = describe(view, you);
  renderSeats(view, you);
  renderCenter(view, you);

  const me = $("you");
  me.classList.toggle("to-move", view.turn === you);
  $("your-score").textContent = view.scores[you];
  const hand = $("hand");
  hand.replaceChildren(cards(view.hand));
  hand.setAttribute("aria-label", `Your hand: ${view.hand.length} cards`);

  const panel = $("actions");
  panel.replaceChildren();
  if (!actions.length) return;
  const heading = document.createElement("p");
  heading.className = "actor";
  heading.textContent = actor === you ? "Your move:" : `${seatName(actor, you)}'s move (played here until the bots arrive):`;
  panel.append(heading);
  for (const action of actions) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "action";
    button.dataset.action = action;
    button.textContent = actionText(action);
    button.addEventListener("click", () => onAction(action));
    panel.append(button);
  }
}
