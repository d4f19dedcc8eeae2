/* The end of a hand: owns the summary of one scored sheet row — each
 * player's card points, marriages, rounded points, the result against the
 * contract, the change and the new score, with bolts, barrel attempts and
 * other marks — and the winner's screen at the end of the match.
 */
import { cardShort } from "./cards.js";
import { t } from "./i18n.js";
import { cell, marksNode, score, signed } from "./sheet.js";

/**
 * A redeal reason in the UI language, from the row's stable `reason_code`
 * (and its threshold `reason_value`); the engine's English words otherwise.
 */
export function reasonText(row) {
  if (!row.reason_code) return row.reason ?? "";
  const key = `reason.${row.reason_code}`;
  const text = t(key, { value: row.reason_value ?? "" });
  return text === key ? row.reason : text;
}

/** One line saying what happened to the contract. */
export function headline(row, names) {
  const name = names[row.declarer];
  if (row.result === "redeal") return t("summary.redeal", { name: names[row.claimant], reason: reasonText(row) });
  return t(`summary.${row.result}`, { name, value: row.contract });
}

/** The columns whose heads a phone shows shortened. */
const SHORT_COLUMNS = ["col.marriages", "col.result", "col.score", "col.marks"];

/** The summary of a scored hand as a node: a headline and a table per player. */
export function renderSummary(row, names) {
  const box = document.createElement("div");
  box.className = "summary";
  box.append(cell("p", headline(row, names), `headline ${row.result}`));
  if (row.talon) box.append(cell("p", `${t("talon")}: ${row.talon.map(cardShort).join(" ")}`, "talon-line"));
  const table = document.createElement("table");
  table.className = "summary-table";
  const head = table.createTHead().insertRow();
  const cols = ["col.player", "col.cards", "col.marriages", "col.total", "col.result", "col.score", "col.marks"];
  const detailed = Array.isArray(row.card_points);
  for (const key of cols) {
    if (!detailed && ["col.cards", "col.marriages", "col.total"].includes(key)) continue;
    const th = cell("th", t(key));
    th.scope = "col";
    // A phone shows the short word (style.css); the whole word stays for screen readers.
    if (SHORT_COLUMNS.includes(key)) th.dataset.short = t(`${key}.short`);
    head.append(th);
  }
  const body = table.createTBody();
  // With four players the dealer sits the hand out (and may score the talon).
  const out = names.length === 4 ? row.dealer : null;
  names.forEach((name, seat) => {
    const tr = body.insertRow();
    const who = cell("th", name);
    who.scope = "row";
    if (seat === row.declarer) who.classList.add("declarer");
    tr.append(who);
    if (seat === out) {
      who.append(cell("small", ` · ${t("sits-out")}`, "sits-out"));
      tr.dataset.out = "true";
    }
    if (detailed && seat === out) {
      tr.append(cell("td", "—"), cell("td", ""), cell("td", "—"));
    } else if (detailed) {
      tr.append(
        cell("td", String(row.card_points[seat])),
        cell("td", String(row.marriage_points[seat] || "")),
        cell("td", seat === row.declarer ? String(row.totals[seat]) : `${row.totals[seat]} → ${row.rounded[seat]}`),
      );
    }
    const delta = row.deltas[seat];
    let kind = "defender";
    let result = detailed && seat !== out ? score(row.rounded[seat]) : signed(delta);
    if (seat === row.declarer) {
      kind = row.result === "made" ? "made" : "failed";
      result = row.result === "made" ? `+${row.contract}` : `−${row.contract}`;
      if (row.dark && row.result === "made") result = signed(delta);
    }
    const total = cell("td", "", "total");
    total.append(cell("b", score(row.scores[seat])), cell("small", ` (${signed(delta)})`, "change"));
    tr.append(cell("td", result, `delta ${kind}`), total);
    const marks = cell("td");
    marks.append(marksNode(row.marks?.[seat]));
    tr.append(marks);
  });
  box.append(table);
  return box;
}

/** The end of the match: who won, and the final scores. */
export function renderWinner(view, names, you) {
  const box = document.createElement("div");
  box.className = "winner-box";
  box.append(cell("p", "♛", "crown"));
  const list = document.createElement("ol");
  list.className = "final-scores";
  [...names.keys()].sort((a, b) => view.scores[b] - view.scores[a]).forEach((seat) => {
    const li = cell("li", "", seat === view.winner ? "won" : "");
    li.append(cell("span", names[seat]), cell("b", score(view.scores[seat])));
    list.append(li);
  });
  box.append(cell("p", t("over.text")), list);
  return { title: view.winner === you ? t("over.you") : t("over.title", { name: names[view.winner] }), body: box };
}
