/* The score sheet (протокол, RULES.md §13): owns drawing the engine's sheet
 * rows as players keep them on paper — one row per hand, each player's
 * change and running score, the declarer's contract with + or −, and marks:
 * a stroke per bolt, ||| for the barrel, R for a write-off, and the rest.
 * Made contracts are green, failed ones red, defenders' points black.
 */
import { t } from "./i18n.js";

const SYMBOLS = {
  bolt: "/", bolt_penalty: "−", barrel: "|||", fall: "↓", zero: "0", knocked_off: "↓",
  writeoff: "R", penalty: "!", samosval: "С", dark: "Т", golden: "★", golden_reset: "0",
  talon: "П", four_nines: "9", win: "♛", cross: "✝", bomb: "B", barrel_380: "|", fall_380: "↓",
  reverse_barrel: "|||", reverse_barrel_out: "×",
};

/** A mark's words: "bolt", "barrel attempt 2". */
export function markText(mark) {
  let m = /^barrel_hand_(\d+)$/.exec(mark);
  if (m) return t("mark.barrel_hand", { n: m[1] });
  m = /^barrel_380_hand_(\d+)$/.exec(mark);
  if (m) return t("mark.barrel_380_hand", { n: m[1] });
  return t(`mark.${mark}`);
}

function markSymbol(mark) {
  const m = /^barrel(?:_380)?_hand_(\d+)$/.exec(mark);
  if (m) return "|".repeat(Number(m[1]));
  return SYMBOLS[mark] ?? "•";
}

/** Marks as a small span of symbols, each with its words as a title and for screen readers. */
export function marksNode(marks) {
  const span = document.createElement("span");
  span.className = "marks";
  for (const mark of marks ?? []) {
    const m = document.createElement("abbr");
    m.className = `mark mark-${mark.replace(/_\d+$/, "")}`;
    m.textContent = markSymbol(mark);
    m.title = markText(mark);
    m.setAttribute("aria-label", markText(mark));
    span.append(m);
  }
  return span;
}

/** A table cell (or any element) with text and a class. */
export function cell(tag, text, className = "") {
  const c = document.createElement(tag);
  if (className) c.className = className;
  if (text !== undefined) c.textContent = text;
  return c;
}

export const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** The whole sheet as a table; `names` by seat; `undone` the hand numbers in which undo was used. */
export function renderSheet(sheet, names, undone = null) {
  const wrap = document.createElement("div");
  wrap.className = "sheet-wrap";
  if (!sheet.length) {
    wrap.append(cell("p", t("sheet.empty")));
    return wrap;
  }
  const table = document.createElement("table");
  table.className = "sheet";
  const head = table.createTHead().insertRow();
  head.append(cell("th", t("col.hand")), cell("th", t("col.contract")));
  for (const name of names) head.append(cell("th", name));
  for (const th of head.children) th.scope = "col";
  const body = table.createTBody();
  for (const row of sheet) {
    const tr = body.insertRow();
    tr.dataset.result = row.result;
    const num = cell("th", String(row.hand));
    num.scope = "row";
    if (undone?.has(row.hand)) {
      const mark = cell("abbr", "↶", "mark mark-undo");
      mark.title = t("undo.used");
      mark.setAttribute("aria-label", t("undo.used"));
      num.append(" ", mark);
      tr.dataset.undo = "1";
    }
    tr.append(num);
    const declarer = row.declarer;
    let contract = "";
    if (row.result === "redeal") contract = t("do.redeal");
    else if (row.contract) contract = `${names[declarer]}: ${row.result === "made" ? "+" : "−"}${row.contract}`;
    tr.append(cell("td", contract, `contract ${row.result}`));
    row.deltas.forEach((delta, seat) => {
      const td = cell("td");
      let kind = "defender";
      if (seat === declarer && row.result !== "redeal") kind = row.result === "made" ? "made" : "failed";
      td.className = `score-cell ${kind}`;
      const d = cell("span", delta ? signed(delta) : "·", "delta");
      const total = cell("b", String(row.scores[seat]), "total");
      td.append(d, total, marksNode(row.marks?.[seat]));
      tr.append(td);
    });
  }
  wrap.append(table, cell("p", t("sheet.legend"), "legend"));
  return wrap;
}
