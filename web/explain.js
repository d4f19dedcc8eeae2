/* Explanations the engine gives: owns asking it why a card (or move) would
 * be refused, and what a write-off would score, without changing the game —
 * and putting the answer in the player's words.
 *
 * The UI never works legality or scores out itself: a refusal comes as the
 * engine's stable code (thousand.actions.REFUSAL_CODES), a write-off as the
 * sheet row it would add. Only a local game's engine holds the game; a
 * session of another kind may answer `why(action)` itself.
 */
import { LocalSession } from "./session.js";
import { suitSymbol } from "./cards.js";
import { t } from "./i18n.js";
import { signed } from "./sheet.js";

/** Why a card (or action) is refused, in words, from the engine's stable code. */
export function refusalText(refusal) {
  const suit = refusal.suit ? suitSymbol(refusal.suit) : "";
  const key = `refusal.${refusal.code}`;
  const text = t(key, { suit, low: refusal.low ?? "", high: refusal.high ?? "" });
  return text === key ? t("refusal.not_allowed") : text;
}

/** The engine's answer to "why not `action`?" for the session's seat, or null when it is legal. */
async function why(engine, session, action) {
  try {
    if (session.why) return await session.why(action);
    if (session instanceof LocalSession) return await engine.call("why", session.seat, action);
  } catch (e) {
    return { code: e.code ?? "not_allowed", ...(e.detail ?? {}) };
  }
  return { code: "not_allowed" };
}

/** Words for a card of your hand that does not respond in `view` (a dimmed one, or not your turn). */
export async function cardRefusal(engine, session, view, card) {
  const give = view.legal.find((a) => /^(give|discard) /.test(a));
  const action = view.phase === "talon" && give ? give.replace(/^(\w+) \S+/, `$1 ${card}`) : `play ${card}`;
  const refusal = await why(engine, session, action);
  return refusal ? refusalText(refusal) : null;
}

/** The write-off's question, naming the declarer's loss and each opponent's share when known. */
export async function writeOffQuestion(engine, session, view, names) {
  const value = view.contract ?? view.bid;
  const row = session instanceof LocalSession ? await engine.call("preview", "writeoff").catch(() => null) : null;
  if (!row) return t("confirm.writeoff", { value });
  const d = row.declarer;
  const shares = row.deltas.map((delta, s) => (s !== d ? t("share", { name: names[s], value: signed(delta) }) : null)).filter(Boolean);
  return t("confirm.writeoff.amounts", { loss: signed(row.deltas[d]), shares: shares.join(", ") });
}
