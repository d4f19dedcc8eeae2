/* Hints: owns asking the strong computer player what it would do in your
 * place, and showing its answer on the table.
 *
 * The question goes to the engine worker with your seat only (the session's
 * hint(), the bridge's "hint"): the bot thinks from your seat's view, as it
 * does when it plays. A suggested card gets `data-hint` (the action) and a
 * visible mark; a suggested bid, contract, pass or write-off is marked on
 * its control, and a stepper is set to the suggested value. Nothing is
 * played: the hint only points.
 *
 * Against the computer a hint is always offered. At a network table it is
 * offered only when the host allows hints (`session.hintsAllowed`, a table
 * setting every player sees); this worker does not hold that game, so the
 * seat's own view, as the host sent it, goes to the bridge's
 * "hint_for_view" and the bot thinks from that alone.
 */
import { cardShort } from "./cards.js";
import { t } from "./i18n.js";

const atNetworkTable = (session) => session.role === "host" || session.role === "guest";

/** Whether this session offers a Hint button. */
export function hintsOffered(session) {
  if (!session) return false;
  return atNetworkTable(session) ? session.hintsAllowed === true : typeof session.hint === "function";
}

/** The strong computer player's suggestion for `view`, this session's seat's view: {action, reason}. */
export function askForHint(session, view) {
  if (!hintsOffered(session)) return Promise.reject(new Error("hints are not allowed at this table"));
  if (!atNetworkTable(session)) return session.hint();
  return session.engine.call("hint_for_view", view, view.seat + 1);
}

/** The hint's words: "Play 10♥ — declare the marriage". */
export function hintText(action, reason, names) {
  const [verb, card, arg] = action.split(" ");
  let move;
  if (verb === "play") move = t("hint.play-card", { card: cardShort(card) });
  else if (verb === "give") move = t("hint.give-card", { card: cardShort(card), name: names[Number(arg)] ?? arg });
  else if (verb === "discard") move = t("hint.give-card", { card: cardShort(card), name: t("do.discard") });
  else if (verb === "bid") move = t("hint.bid", { value: card });
  else if (verb === "contract") move = t("hint.contract-value", { value: card });
  else move = t(`do.${verb}`);
  const why = reason ? t(`hint.reason.${reason}`) : "";
  return t("hint.says", { move }) + (why && !why.startsWith("hint.") ? ` — ${why}` : "");
}

/** The control that carries `action`: a card in your hand or a button of the panel. */
function target(action) {
  const [verb, card, value] = action.split(" ");
  if (["play", "give", "discard"].includes(verb)) return document.querySelector(`#hand [data-card="${card}"]`);
  const exact = document.querySelector(`#actions [data-action="${action}"]`);
  if (exact || !["bid", "contract"].includes(verb)) return exact;
  // A value beyond the quick buttons: set the stepper to it.
  const input = document.getElementById(`${verb}-value`);
  if (!input) return null;
  input.value = card ?? value;
  input.dispatchEvent(new Event("input"));
  return input.closest(".stepper")?.querySelector(".btn.primary") ?? null;
}

/** Mark the suggestion on the table just drawn; returns the marked element (or null). */
export function markHint(action) {
  for (const old of document.querySelectorAll("[data-hint]")) delete old.dataset.hint;
  if (!action) return null;
  const el = target(action);
  if (el) el.dataset.hint = action;
  return el;
}
