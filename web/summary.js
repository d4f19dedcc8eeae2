/* The end of a hand: owns the summary of one scored sheet row — each
 * player's card points, marriages, rounded points, the result against the
 * contract, the change and the new score, with bolts, barrel attempts and
 * other marks — and the winner's screen at the end of the match.
 */
import { cardShort } from "./cards.js";
import { language, t } from "./i18n.js";
import { cell, marksNode, signed } from "./sheet.js";

// The engine states redeal reasons in English; these are their Russian words.
const REASONS_RU = [
  [/^hand worth less than (\d+)$/, "на руке меньше $1 очков"],
  [/^four nines in hand$/, "четыре девятки на руке"],
  [/^four jacks in hand$/, "четыре валета на руке"],
  [/^talon worth less than (\d+)$/, "в прикупе меньше $1 очков"],
  [/^two nines in the talon$/, "две девятки в прикупе"],
  [/^three nines in the talon$/, "три девятки в прикупе"],
  [/^three jacks in the talon$/, "три валета в прикупе"],
  [/^four nines with the talon$/, "четыре девятки вместе с прикупом"],
  [/^four nines after the pass$/, "четыре девятки после сноса"],
];

/** A redeal reason in the UI language (Russian or the engine's English). */
export function reasonText(reason) {
  if (language() !== "ru") return reason;
  for (const [pattern, words] of REASONS_RU) if (pattern.test(reason)) return reason.replace(pattern, words);
  return reason;
}

/** One line saying what happened to the contract. */
export function headline(row, names) {
  const name = names[row.declarer];
  if (row.result === "redeal") return t("summary.redeal", { name: names[row.claimant], reason: reasonText(row.reason) });
  return t(`summary.${row.result}`, { name, value: row.contract });
}

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
    head.append(th);
  }
  const body = table.createTBody();
  names.forEach((name, seat) => {
    const tr = body.insertRow();
    const who = cell("th", name);
    who.scope = "row";
    if (seat === row.declarer) who.classList.add("declarer");
    tr.append(who);
    if (detailed) {
      tr.append(
        cell("td", String(row.card_points[seat])),
        cell("td", String(row.marriage_points[seat] || "")),
        cell("td", seat === row.declarer ? String(row.totals[seat]) : `${row.totals[seat]} → ${row.rounded[seat]}`),
      );
    }
    const delta = row.deltas[seat];
    let kind = "defender";
    let result = detailed ? String(row.rounded[seat]) : signed(delta);
    if (seat === row.declarer) {
      kind = row.result === "made" ? "made" : "failed";
      result = row.result === "made" ? `+${row.contract}` : `−${row.contract}`;
      if (row.dark && row.result === "made") result = signed(delta);
    }
    const score = cell("td", "", "total");
    score.append(cell("b", String(row.scores[seat])), cell("small", ` (${signed(delta)})`, "change"));
    tr.append(cell("td", result, `delta ${kind}`), score);
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
    li.append(cell("span", names[seat]), cell("b", String(view.scores[seat])));
    list.append(li);
  });
  box.append(cell("p", t("over.text")), list);
  return { title: view.winner === you ? t("over.you") : t("over.title", { name: names[view.winner] }), body: box };
}
