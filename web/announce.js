/* Announcements for screen readers: owns the polite live region and the
 * words for what just happened — a card played, a marriage declared, a
 * trick taken, a bid, and whose turn it is.
 */
import { cardLabel, marriageValue, suitName } from "./cards.js";
import { t } from "./i18n.js";

let region = null;

/** Say `text` in the live region (the same text twice is still said twice). */
export function announce(text) {
  region ??= document.getElementById("announcer");
  if (!region || !text) return;
  region.textContent = "";
  // A fresh text node in a new task makes screen readers speak repeats too.
  setTimeout(() => { region.textContent = text; }, 30);
}

/** The words for a view's last action, as seen by `you`; "" when there is nothing to say. */
export function describe(view, names, you) {
  const last = view.last_action;
  if (!last) return "";
  const who = names[last.seat];
  const [verb, arg, extra] = last.action.split(" ");
  const parts = [];
  if (verb === "play") {
    parts.push(t("announce.played", { name: who, card: cardLabel(arg) }));
    if (extra === "declare") {
      const suit = arg[0] === "A" ? "A" : arg[1];
      parts.push(t("announce.declared", { name: who, suit: suit === "A" ? t("marriage.A") : suitName(suit), value: marriageValue(suit) }));
    }
    if (last.trick) parts.push(t("announce.trick", { name: names[last.trick.winner] }));
  } else if (verb === "bid") parts.push(t("announce.bid", { name: who, value: arg }));
  else if (verb === "pass") parts.push(t("announce.pass", { name: who }));
  else if (verb === "contract") parts.push(t("announce.contract", { name: who, value: arg }));
  else if (verb === "give") parts.push(t("announce.gave", { name: who, to: names[Number(extra)] }));
  if (view.turn === you && view.phase !== "over") parts.push(t("announce.yourturn"));
  return parts.join(". ");
}
