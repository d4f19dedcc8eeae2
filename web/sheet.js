/* The score sheet (протокол, RULES.md §13): owns drawing the engine's sheet
 * rows as players keep them on paper — one row per hand, each player's
 * change and running score, the declarer's contract with + or −, and marks:
 * a stroke per bolt, ||| for the barrel, R for a write-off, and the rest,
 * explained in a legend under the sheet (readable on touch, not only as a
 * hover title). Made contracts are green, failed ones red, defenders'
 * points black. It also owns how a score is written: one minus sign (−).
 */
import { t } from "./i18n.js";

const SYMBOLS = {
  bolt: "/", bolt_penalty: "−", barrel: "|||", fall: "↓", zero: "0", knocked_off: "↓",
  writeoff: "R", penalty: "!", samosval: "", dark: "", golden: "★", golden_reset: "0",
  talon: "", four_nines: "9", win: "♛", cross: "✝", bomb: "B", barrel_380: "|", fall_380: "↓",
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

// Letters that stand for words take the letter of the UI language's word.
const LETTERED = new Set(["talon", "samosval", "dark"]);

function markSymbol(mark) {
  const m = /^barrel(?:_380)?_hand_(\d+)$/.exec(mark);
  if (m) return "|".repeat(Number(m[1]));
  if (LETTERED.has(mark)) return t(`mark.${mark}.symbol`);
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

/** A score as written on the sheet: −100 with a true minus sign. */
export const score = (n) => (n < 0 ? `−${-n}` : String(n));

/** A change of score: +20, −100, 0. */
export const signed = (n) => (n > 0 ? `+${n}` : score(n));

/** The marks that occur in `sheet`, each once, with its symbol and words. */
function legend(sheet) {
  const seen = new Map();
  for (const row of sheet) {
    for (const marks of row.marks ?? []) {
      for (const mark of marks) seen.set(mark.replace(/_hand_\d+$/, "_hand_1"), mark);
    }
  }
  const list = document.createElement("dl");
  list.className = "mark-legend";
  for (const mark of seen.values()) {
    const term = cell("dt", "");
    term.append(marksNode([mark]));
    list.append(term, cell("dd", markText(mark)));
  }
  return list;
}

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
    // A redeal does not use up the hand's number: the hand dealt again keeps it.
    const num = cell("th", row.result === "redeal" ? "↻" : String(row.hand));
    num.scope = "row";
    if (row.result === "redeal") num.setAttribute("aria-label", t("do.redeal"));
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
      const total = cell("b", score(row.scores[seat]), "total");
      td.append(d, total, marksNode(row.marks?.[seat]));
      tr.append(td);
    });
  }
  wrap.append(table, cell("p", t("sheet.legend"), "legend"), legend(sheet));
  return wrap;
}

/** Scroll an open sheet to its latest hand (the sheet dialog's onOpen). */
export function showLatest(dialog) {
  const rows = dialog.querySelectorAll(".sheet tbody tr");
  rows[rows.length - 1]?.scrollIntoView({ block: "nearest" });
}
