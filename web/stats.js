/* Statistics: owns the player's record of matches, kept in localStorage
 * beside the saves, and the dialog that shows it.
 *
 * A finished match is recorded once, with the figures the engine reads off
 * its own sheet and log (the bridge's "match_summary": hands, contracts
 * declared and made, points, marriages, bolts, barrel arrivals and falls,
 * final scores); nothing is scored here, only added up. A match replaced
 * before its end counts as abandoned. Games against the computer and with
 * friends are counted apart, and shown per computer level and table size,
 * with a chart of the last matches' final scores (SVG).
 */
import { confirmDialog, openDialog } from "./dialogs.js";
import { t } from "./i18n.js";

const KEY = "thousand.stats";
const KEEP = 500; // matches kept; the oldest go first
const CHART = 12; // matches in the chart
const FIGURES = ["hands", "contracts", "made", "points", "marriages", "bolts", "barrels", "falls"];

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function loadStats() {
  try {
    const data = JSON.parse(storage()?.getItem(KEY) ?? "null");
    if (data && Array.isArray(data.matches) && data.abandoned && typeof data.abandoned === "object") return data;
  } catch {
    // A damaged record starts afresh.
  }
  return { matches: [], abandoned: {}, recorded: [] };
}

function store(data) {
  try {
    storage()?.setItem(KEY, JSON.stringify(data));
  } catch {
    // Statistics are a convenience; a full storage only loses them.
  }
}

export function resetStats() {
  storage()?.removeItem(KEY);
}

/** Who the match was against: "computer" (with the computer seats' level) or "friends". */
function kindOf(session) {
  if (!session.undo) return { kind: "friends", level: null };
  const levels = [...new Set(session.seats.filter((s) => s.kind === "bot").map((s) => s.level ?? "normal"))];
  return { kind: "computer", level: levels.length === 1 ? levels[0] : "mixed" };
}

/** A match's identity, so a finished match reloaded is not counted twice. */
function matchId(session) {
  const game = JSON.parse(session.exportText());
  return `${game.seed}:${JSON.stringify(game.scores ?? null)}:${game.log.length}:${JSON.stringify(game.deals ?? null).length}`;
}

/** Record the session's match if it has just finished (and is not recorded yet). */
export async function recordMatch(engine, session) {
  const id = matchId(session);
  const data = loadStats();
  if (data.recorded?.includes(id)) return false;
  const summary = await engine.call("match_summary", session.seat);
  if (!summary.over) return false;
  data.matches.push({ at: Date.now(), ...kindOf(session), ...summary });
  data.matches = data.matches.slice(-KEEP);
  data.recorded = [...(data.recorded ?? []), id].slice(-KEEP);
  store(data);
  return true;
}

/** Count a match given up before its end (a new game or an import replaced it). */
export function recordAbandoned(session, view) {
  let moved;
  try {
    moved = JSON.parse(session.exportText()).log.length > 0;
  } catch {
    return; // a table without a readable log (a guest's) is not counted
  }
  if (!view || view.phase === "over" || !moved) return;
  const data = loadStats();
  const { kind } = kindOf(session);
  data.abandoned[kind] = (data.abandoned[kind] ?? 0) + 1;
  store(data);
}

function totals(matches) {
  const sum = Object.fromEntries(FIGURES.map((f) => [f, 0]));
  for (const m of matches) for (const f of FIGURES) sum[f] += m[f] ?? 0;
  const best = matches.length ? Math.max(...matches.map((m) => m.score)) : null;
  return { played: matches.length, won: matches.filter((m) => m.won).length, best, ...sum };
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

const percent = (a, b) => (b ? `${Math.round((100 * a) / b)}%` : "—");

/** One table: a column per group of matches (all, each level, each table size), a row per figure. */
function figuresTable(groups) {
  const table = el("table", "stats-table");
  const head = table.createTHead().insertRow();
  head.append(el("td"), ...groups.map(([, label]) => el("th", "", label)));
  for (const th of head.querySelectorAll("th")) th.scope = "col";
  const rows = ["played", "won", "abandoned", "hands", "contracts", "made", "average", "marriages", "bolts", "barrels", "falls", "best"];
  const columns = groups.map(([id, , matches, lost]) => {
    const s = totals(matches);
    return [id, {
      played: s.played, won: s.won, abandoned: lost ?? "", hands: s.hands, contracts: s.contracts,
      made: `${s.made} (${percent(s.made, s.contracts)})`,
      average: s.hands ? Math.round(s.points / s.hands) : "—",
      marriages: s.marriages, bolts: s.bolts, barrels: s.barrels, falls: s.falls, best: s.best ?? "—",
    }];
  });
  const body = table.createTBody();
  for (const figure of rows) {
    const tr = body.insertRow();
    const name = el("th", "", t(`stats.${figure}`));
    name.scope = "row";
    tr.append(name);
    for (const [id, values] of columns) {
      const td = el("td", "", String(values[figure]));
      td.dataset.stat = figure;
      td.dataset.group = id;
      tr.append(td);
    }
  }
  return table;
}

/** Bars of your final score in the last matches; a won match is drawn in the winning colour. */
function chart(matches) {
  const last = matches.slice(-CHART);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const w = 24 * Math.max(last.length, 1);
  svg.setAttribute("viewBox", `0 -10 ${w} 130`);
  svg.setAttribute("class", "stats-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("stats.chart"));
  const top = Math.max(1000, ...last.map((m) => Math.abs(m.score)));
  const zero = 100;
  last.forEach((m, k) => {
    const h = (Math.abs(m.score) / top) * 100;
    const bar = document.createElementNS(ns, "rect");
    bar.setAttribute("x", String(k * 24 + 4));
    bar.setAttribute("width", "16");
    bar.setAttribute("y", String(m.score >= 0 ? zero - h : zero));
    bar.setAttribute("height", String(Math.max(h, 1)));
    bar.setAttribute("class", m.won ? "won" : "lost");
    const title = document.createElementNS(ns, "title");
    title.textContent = String(m.score);
    bar.append(title);
    svg.append(bar);
  });
  const axis = document.createElementNS(ns, "line");
  axis.setAttribute("x1", "0");
  axis.setAttribute("x2", String(w));
  axis.setAttribute("y1", String(zero));
  axis.setAttribute("y2", String(zero));
  axis.setAttribute("class", "axis");
  svg.append(axis);
  return svg;
}

function section(data, kind) {
  const matches = data.matches.filter((m) => m.kind === kind);
  const box = el("section", "stats-kind");
  box.dataset.kind = kind;
  box.append(el("h3", "", t(`stats.${kind}`)));
  if (!matches.length && !data.abandoned[kind]) {
    box.append(el("p", "muted", t("stats.none")));
    return box;
  }
  const groups = [["all", t("stats.all"), matches, data.abandoned[kind] ?? 0]];
  for (const level of [...new Set(matches.map((m) => m.level).filter(Boolean))]) {
    groups.push([`level-${level}`, t(`level.${level}`), matches.filter((m) => m.level === level)]);
  }
  for (const n of [...new Set(matches.map((m) => m.players))].sort()) {
    groups.push([`players-${n}`, t("stats.players", { n }), matches.filter((m) => m.players === n)]);
  }
  const wrap = el("div", "sheet-wrap");
  wrap.append(figuresTable(groups));
  box.append(wrap);
  if (matches.length) box.append(el("p", "muted", t("stats.chart")), chart(matches));
  return box;
}

export async function showStats() {
  const body = el("div", "stats");
  const data = loadStats();
  body.append(section(data, "computer"), section(data, "friends"));
  const choice = await openDialog({
    title: t("stats"),
    body,
    name: "stats",
    wide: true,
    onOpen: (dialog) => { dialog.querySelector(".dialog-body").tabIndex = 0; },
    buttons: [
      { label: t("stats.reset"), value: "reset", danger: true },
      { label: t("close"), value: null, primary: true },
    ],
  });
  if (choice === "reset" && (await confirmDialog(t("stats.reset.confirm"), { yes: t("stats.reset"), name: "confirm-reset" }))) {
    resetStats();
    await showStats();
  }
}
