/* Your moves: owns the panel of controls for the phase you are in — bid
 * buttons with a way to jump higher and pass, dark or look, taking a talon,
 * the two cards to give (or discard) and their confirmation, the contract,
 * redeal claims, write-off, cross and bomb.
 *
 * Every control is built from the engine's legal actions (view.legal); a
 * button's data-action is the exact action text it sends.
 */
import { cardElement, cardShort } from "./cards.js";
import { t } from "./i18n.js";

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(label, action, onClick, className = "") {
  const b = el("button", `btn ${className}`.trim(), label);
  b.type = "button";
  if (action) b.dataset.action = action;
  b.addEventListener("click", () => onClick(action));
  return b;
}

const values = (legal, verb) =>
  legal.filter((a) => a.startsWith(`${verb} `)).map((a) => Number(a.split(" ")[1]));

/** Buttons for the declarer's ways out: redeal, write-off, cross, bomb. */
function extras(legal, ctx) {
  const out = [];
  if (legal.includes("redeal")) out.push(button(t("do.redeal"), "redeal", ctx.act, "quiet"));
  if (legal.includes("writeoff")) out.push(button(t("do.writeoff"), "writeoff", ctx.writeOff, "quiet"));
  if (legal.includes("cross")) out.push(button(t("do.cross"), "cross", ctx.act, "quiet"));
  if (legal.includes("bomb")) out.push(button(t("do.bomb"), "bomb", ctx.act, "quiet"));
  return out;
}

/**
 * A number chooser over the allowed values (bids or contracts): − value +
 * and a button that sends `${verb} ${value}`. Typed digits land in it.
 */
function stepper(list, verb, label, ctx, start = list[0], primary = true) {
  const box = el("div", "stepper");
  let index = Math.max(0, list.indexOf(start));
  const input = el("input", "value");
  input.id = `${verb}-value`;
  input.type = "number";
  input.inputMode = "numeric";
  input.min = list[0];
  input.max = list[list.length - 1];
  input.step = list.length > 1 ? list[1] - list[0] : 5;
  input.value = list[index];
  input.setAttribute("aria-label", label);
  const send = button("", null, () => {
    const v = Number(input.value);
    ctx.act(`${verb} ${list.includes(v) ? v : list[index]}`);
  }, primary ? "primary" : "bid");
  const sync = () => {
    input.value = list[index];
    send.textContent = verb === "bid" ? t("do.bid", { value: list[index] }) : t("do.contract", { value: list[index] });
    send.dataset.action = `${verb} ${list[index]}`;
  };
  const minus = button("−", null, () => { index = Math.max(0, index - 1); sync(); }, "round");
  const plus = button("+", null, () => { index = Math.min(list.length - 1, index + 1); sync(); }, "round");
  minus.setAttribute("aria-label", `${label} −`);
  plus.setAttribute("aria-label", `${label} +`);
  const typed = (text) => {
    const v = Number(text);
    const k = list.indexOf(v);
    if (k >= 0) index = k;
    send.textContent = verb === "bid" ? t("do.bid", { value: v || "…" }) : t("do.contract", { value: v || "…" });
    send.dataset.action = `${verb} ${v}`;
  };
  input.addEventListener("input", () => typed(input.value));
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      ctx.act(`${verb} ${Number(input.value)}`);
    }
  });
  sync();
  // Digits typed at the table (not in the box) show in it and on the button at once.
  if (ctx.typed) {
    input.value = ctx.typed;
    typed(ctx.typed);
  }
  box.append(minus, input, plus, send);
  return box;
}

function bidding(view, ctx, panel) {
  const bids = values(view.legal, "bid");
  const row = el("div", "row");
  // The smallest raise is the one highlighted: a jump is a choice, not the default.
  bids.slice(0, 3).forEach((v, k) => row.append(button(t("do.bid", { value: v }), `bid ${v}`, ctx.act, k === 0 ? "bid primary" : "bid")));
  if (view.legal.includes("pass")) row.append(button(t("do.pass"), "pass", ctx.act, "pass"));
  panel.append(row);
  if (bids.length > 3) panel.append(stepper(bids, "bid", t("bid.more"), ctx, bids[Math.min(3, bids.length - 1)], false));
  const more = extras(view.legal, ctx);
  if (more.length) panel.append(rowOf(more));
  return t("hint.bidding");
}

function rowOf(nodes, className = "row") {
  const row = el("div", className);
  row.append(...nodes);
  return row;
}

/** The give (снос) or discard slots, filled by clicking or dragging cards. */
function giving(view, ctx, panel) {
  const slots = ctx.giveSlots(view);
  const discard = slots.some((s) => s.discard);
  const list = el("div", "give-slots");
  for (const slot of slots) {
    const box = el("div", "give-slot");
    box.dataset.dropSeat = slot.seat;
    const label = discard ? t("discard.slot", { n: slot.seat + 1 }) : t("give.slot", { name: ctx.names[slot.seat] });
    box.append(el("span", "slot-label", label));
    if (slot.card) {
      const chosen = cardElement(slot.card);
      const back = button(t("remove"), null, () => ctx.unpick(slot.card), "quiet small");
      back.setAttribute("aria-label", `${t("remove")}: ${cardShort(slot.card)}`);
      box.append(chosen, back);
      box.classList.add("filled");
    } else {
      box.append(el("span", "slot-empty", t("give.none")));
    }
    list.append(box);
  }
  panel.append(list);
  const ready = slots.every((s) => s.card);
  const confirm = button(discard ? t("do.discard") : t("do.give"), "confirm-give", () => ctx.confirmGive(slots), "primary");
  confirm.disabled = !ready;
  panel.append(rowOf([confirm]));
  // Giving up the hand is kept apart from giving the cards.
  const more = extras(view.legal, ctx);
  if (more.length) panel.append(rowOf(more, "row apart"));
  if (discard) return t("hint.discard");
  return matchMedia?.("(pointer: coarse)").matches ? t("hint.talon.touch") : t("hint.talon");
}

function contract(view, ctx, panel) {
  const list = values(view.legal, "contract");
  panel.append(stepper(list, "contract", t("contract.value"), ctx));
  const more = extras(view.legal, ctx);
  if (more.length) panel.append(rowOf(more, "row apart"));
  return t("hint.contract");
}

/**
 * Draw the controls of `view` for the player into `panel`.
 * ctx: {names, act(text), writeOff(), giveSlots(view), unpick(card),
 * confirmGive(slots), newGame(), typed (digits typed at the table)}.
 * Returns the hint shown above them.
 */
export function renderControls(panel, view, ctx) {
  panel.replaceChildren();
  const legal = view.legal ?? [];
  if (view.phase === "over") {
    panel.append(rowOf([button(t("new-game"), "new-game", ctx.newGame, "primary")]));
    return "";
  }
  if (!legal.length) return "";
  switch (view.phase) {
    case "dark":
      panel.append(rowOf([button(t("do.dark"), "dark", ctx.act), button(t("do.look"), "look", ctx.act, "primary")]));
      return t("hint.dark");
    case "bidding":
      return bidding(view, ctx, panel);
    case "choose":
      panel.append(rowOf(legal.filter((a) => a.startsWith("take ")).map(
        (a) => button(t("do.take", { n: Number(a.split(" ")[1]) + 1 }), a, ctx.act, "primary"))));
      return t("hint.choose");
    case "talon":
      return giving(view, ctx, panel);
    case "claim":
      panel.append(rowOf([button(t("do.redeal"), "redeal", ctx.act, "primary"), button(t("do.decline"), "decline", ctx.act)]));
      return t("hint.claim");
    case "contract":
      return contract(view, ctx, panel);
    case "play": {
      const more = extras(legal, ctx);
      if (more.length) panel.append(rowOf(more));
      return t("hint.play");
    }
    default:
      return "";
  }
}
