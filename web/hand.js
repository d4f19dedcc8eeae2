/* Your hand: owns drawing your cards in suit order, which of them respond,
 * and moving between them with the keyboard (arrows, Home, End; Enter or
 * Space plays or picks) or dragging one onto an opponent.
 *
 * Which cards respond is given by the caller from the engine's legal list;
 * a card that may not be played now is dimmed and says so.
 */
import { cardElement, sortHand } from "./cards.js";
import { t } from "./i18n.js";

/**
 * Draw the hand into `container`.
 * o.cards: the hand's card texts; o.enabled: Set of cards that respond;
 * o.dim: whether the others are dimmed (play and give phases);
 * o.marked: Map card → short label (a card chosen to give);
 * o.fresh: Set of cards just taken from the talon;
 * o.received: Map card → label (the card the declarer gave you, and from whom);
 * o.onPick(card): a click or Enter on an enabled card;
 * o.onRefused(card): a click or Enter on a dimmed card (to say why);
 * o.onDrop(card, seat): a card dragged onto an element with data-drop-seat.
 */
export function renderHand(container, o) {
  const hadFocus = container.contains(document.activeElement);
  const focused = hadFocus ? document.activeElement?.dataset?.card : null;
  const cards = sortHand(o.cards);
  container.replaceChildren();
  container.setAttribute("role", "toolbar");
  container.setAttribute("aria-label", `${t("your-hand")}: ${cards.length}`);
  container.style.setProperty("--n", Math.max(cards.length, 1));
  const buttons = [];
  for (const text of cards) {
    const button = cardElement(text, { tag: "button" });
    button.type = "button";
    const on = o.enabled.has(text);
    button.setAttribute("aria-disabled", String(!on));
    if (!on && o.dim) button.classList.add("dim");
    if (on) button.classList.add("live");
    if (o.fresh?.has(text)) button.classList.add("fresh");
    const from = o.received?.get(text);
    if (from) {
      button.classList.add("received");
      button.dataset.from = from;
      button.setAttribute("aria-description", from);
    }
    const mark = o.marked?.get(text);
    if (mark) {
      button.classList.add("chosen");
      button.dataset.mark = mark;
      button.setAttribute("aria-pressed", "true");
      button.setAttribute("aria-description", mark);
    } else if (o.marked) {
      button.setAttribute("aria-pressed", "false");
    }
    button.tabIndex = -1;
    button.addEventListener("click", () => {
      if (button.dataset.dragged) return;
      if (on) o.onPick(text);
      else o.onRefused?.(text);
    });
    if (on && o.onDrop) enableDrag(button, text, o.onDrop);
    container.append(button);
    buttons.push(button);
  }
  const start = buttons.find((b) => b.dataset.card === focused)
    ?? buttons.find((b) => b.classList.contains("live")) ?? buttons[0];
  if (start) start.tabIndex = 0;
  if (hadFocus && start) start.focus({ preventScroll: true });
  container.onkeydown = (event) => moveFocus(event, buttons);
}

function moveFocus(event, buttons) {
  const i = buttons.indexOf(document.activeElement);
  if (i < 0) return;
  const last = buttons.length - 1;
  const next = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: last }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  const j = Math.max(0, Math.min(last, next));
  buttons[i].tabIndex = -1;
  buttons[j].tabIndex = 0;
  buttons[j].focus();
}

/** Pointer dragging (mouse and touch alike) of a card onto a drop target. */
function enableDrag(button, card, onDrop) {
  button.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    const startX = down.clientX;
    const startY = down.clientY;
    let ghost = null;
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - startX, e.clientY - startY) < 8) return;
      if (!ghost) {
        ghost = button.cloneNode(true);
        ghost.classList.add("ghost");
        ghost.removeAttribute("id");
        ghost.setAttribute("aria-hidden", "true");
        document.body.append(ghost);
      }
      ghost.style.left = `${e.clientX}px`;
      ghost.style.top = `${e.clientY}px`;
      for (const target of document.querySelectorAll("[data-drop-seat].drop-hover")) target.classList.remove("drop-hover");
      dropTarget(e)?.classList.add("drop-hover");
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      for (const target of document.querySelectorAll("[data-drop-seat].drop-hover")) target.classList.remove("drop-hover");
      if (!ghost) return;
      ghost.remove();
      // The click that follows a drag is not a pick.
      button.dataset.dragged = "1";
      setTimeout(() => delete button.dataset.dragged, 0);
      const target = dropTarget(e);
      if (target) onDrop(card, Number(target.dataset.dropSeat));
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  });
}

function dropTarget(e) {
  for (const node of document.elementsFromPoint(e.clientX, e.clientY)) {
    if (node.classList?.contains("ghost")) continue;
    const target = node.closest?.("[data-drop-seat]");
    if (target) return target;
  }
  return null;
}
