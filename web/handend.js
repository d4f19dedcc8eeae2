/* The end of a hand: owns what the player sees once a hand is scored — the
 * final trick kept on the table a moment before the summary covers it, the
 * summary itself (opened again after a reload until it is closed), and the
 * winner's screen at the end of the match.
 *
 * The rows come from the engine's sheet; nothing here scores anything.
 */
import { t } from "./i18n.js";
import { openDialog } from "./dialogs.js";
import { renderSummary, renderWinner } from "./summary.js";
import { forgetSummary, pendingSummary, rememberSummary } from "./store.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which game and sheet row a summary belongs to (the seed names the game). */
function markOf(session, rows) {
  let seed = null;
  try {
    seed = JSON.parse(session.exportText?.() ?? "null")?.seed ?? null;
  } catch {
    seed = null;
  }
  return { seed: String(seed), rows };
}

/**
 * Open the summary of the last of `view.sheet`'s rows. ctx: {session, names(),
 * pause (ms the final trick stays first), showTrick(trick|null), onWinner()}.
 */
export async function showHandEnd(view, ctx) {
  const row = view.sheet[view.sheet.length - 1];
  const release = ctx.session.hold?.();
  try {
    const trick = view.last_action?.hand_over ? view.last_action.trick : null;
    if (trick && ctx.pause > 0) {
      ctx.showTrick(trick);
      await sleep(ctx.pause);
      ctx.showTrick(null);
    }
    rememberSummary(markOf(ctx.session, view.sheet.length));
    await openDialog({
      title: t("summary.title", { n: row.hand }),
      body: renderSummary(row, ctx.names()),
      name: "summary",
      wide: true,
      buttons: [{ label: t("continue"), value: true, primary: true }],
    });
    forgetSummary();
  } finally {
    release?.();
  }
  if (view.phase === "over") await ctx.onWinner();
}

/** After a reload: the summary that was open when the page went away, shown again. */
export function reopenSummary(view, ctx) {
  const mark = pendingSummary();
  if (!mark || !view.sheet.length) return false;
  const now = markOf(ctx.session, view.sheet.length);
  if (mark.seed !== now.seed || mark.rows !== now.rows) {
    forgetSummary();
    return false;
  }
  showHandEnd(view, { ...ctx, pause: 0 });
  return true;
}

/** The winner's screen; resolves with the choice: "new", "sheet", "replay" or null. */
export function showWinner(view, names, you) {
  const { title, body } = renderWinner(view, names, you);
  return openDialog({
    title,
    body,
    name: "winner",
    buttons: [
      { label: t("sheet"), value: "sheet" },
      { label: t("replay"), value: "replay" },
      { label: t("new-game"), value: "new", primary: true },
    ],
  });
}
