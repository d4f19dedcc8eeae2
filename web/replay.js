/* Replay: owns the step-through review of a finished hand — every seat's
 * cards face up, the talon, the trick on the table and the move that led
 * there, one step at a time (buttons or the arrow keys).
 * The frames come from the session (engine_bridge.hand_replay).
 */
import { actionText, cardElement, sortHand, suitSymbol } from "./cards.js";
import { t } from "./i18n.js";
import { openDialog } from "./dialogs.js";
import { headline } from "./summary.js";

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function drawFrame(box, replay, k, names) {
  const frame = replay.frames[k];
  const last = k === replay.frames.length - 1;
  box.replaceChildren();
  const step = el("p", "replay-step", k === 0 ? t("replay.start") : t("replay.step", { n: k, total: replay.frames.length - 1 }));
  step.setAttribute("aria-live", "polite");
  if (frame.action !== null) {
    step.textContent += ` — ${names[frame.seat]}: ${actionText(frame.action)}`;
  }
  box.append(step);
  const facts = [];
  if (frame.contract) facts.push(`${t("contract")} ${frame.contract} · ${names[frame.declarer]}`);
  if (frame.trump) facts.push(`${t("trump")} ${suitSymbol(frame.trump)}`);
  if (facts.length) box.append(el("p", "replay-facts", facts.join(" · ")));
  frame.hands.forEach((hand, seat) => {
    const row = el("div", "replay-hand");
    const who = el("span", "name", names[seat]);
    who.append(el("small", "replay-tricks", t("tricks.n", { n: frame.trick_counts[seat] })));
    row.append(who);
    const cards = el("div", "mini-cards");
    for (const c of sortHand(hand)) cards.append(cardElement(c));
    row.append(cards);
    box.append(row);
  });
  const table = el("div", "replay-table");
  const talon = el("div", "mini-cards replay-talon");
  talon.setAttribute("aria-label", t("talon"));
  for (const c of frame.talon) talon.append(cardElement(c));
  table.append(el("span", "name", t("talon")), talon);
  const trick = el("div", "mini-cards replay-trick");
  for (const [seat, c] of frame.trick) {
    const card = cardElement(c);
    card.title = names[seat];
    trick.append(card);
  }
  table.append(el("span", "name", t("trick")), trick);
  box.append(table);
  if (frame.trick_winner !== undefined && frame.trick_winner !== null) {
    box.append(el("p", "replay-winner", t("announce.trick", { name: names[frame.trick_winner] })));
  }
  if (last) box.append(el("p", `headline ${replay.row.result}`, `${t("replay.end")}: ${headline(replay.row, names)}`));
}

/** Open the replay: choose a finished hand, then step through it. */
export async function openReplay(session, sheet, names) {
  const list = el("div", "replay-list");
  if (!sheet.length) list.append(el("p", "", t("replay.none")));
  let picked = null;
  const pickDone = openDialog({
    title: t("replay.pick"),
    body: list,
    name: "replay-pick",
    buttons: [{ label: t("close"), value: null }],
  });
  sheet.forEach((row, index) => {
    const b = el("button", "btn", `${t("hand.no", { n: row.hand })}: ${headline(row, names)}`);
    b.type = "button";
    b.dataset.hand = index;
    b.addEventListener("click", () => {
      picked = index;
      b.closest("dialog").close();
    });
    list.append(b);
  });
  await pickDone;
  if (picked === null) return;
  const replay = await session.replayHand(picked);
  let k = 0;
  const box = el("div", "replay");
  const nav = el("div", "replay-nav");
  const prev = el("button", "btn", t("replay.prev"));
  const next = el("button", "btn primary", t("replay.next"));
  prev.type = next.type = "button";
  prev.dataset.replay = "prev";
  next.dataset.replay = "next";
  const frameBox = el("div", "replay-frame");
  const go = (d) => {
    k = Math.max(0, Math.min(replay.frames.length - 1, k + d));
    prev.disabled = k === 0;
    next.disabled = k === replay.frames.length - 1;
    drawFrame(frameBox, replay, k, names);
  };
  prev.addEventListener("click", () => go(-1));
  next.addEventListener("click", () => go(1));
  nav.append(prev, next);
  box.append(frameBox, nav);
  box.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") { e.preventDefault(); go(-1); }
    if (e.key === "ArrowRight") { e.preventDefault(); go(1); }
  });
  go(0);
  await openDialog({
    title: `${t("replay.title")}: ${t("hand.no", { n: replay.row.hand })}`,
    body: box,
    name: "replay",
    wide: true,
    buttons: [{ label: t("close"), value: null }],
    onOpen: () => next.focus(),
  });
}
