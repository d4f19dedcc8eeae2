/* What just happened: owns the words for each change of the table — a bid
 * or pass (the automatic 100 of the first hand too), the talon taken and
 * what it holds when it is shown, cards passed (face down where the rules
 * hide them), the contract, a card played, a marriage declared and the new
 * trump, a trick taken, a write-off, a redeal and its reason — and the polite
 * live region that says them to screen readers. The same words are shown
 * in the middle of the table (table.js showStory).
 *
 * It reads the engine's view (its `last_action` and sheet rows) and decides
 * nothing: the reason for a redeal comes as the engine's code.
 */
import { cardLabel, cardShort, isCard, marriageValue, suitName, suitSymbol } from "./cards.js";
import { t } from "./i18n.js";
import { headline } from "./summary.js";
import { signed } from "./sheet.js";

let region = null;

/** Say `text` in the live region (the same text twice is still said twice). */
export function announce(text) {
  region ??= document.getElementById("announcer");
  if (!region || !text) return;
  region.textContent = "";
  // A fresh text node in a new task makes screen readers speak repeats too.
  setTimeout(() => { region.textContent = text; }, 30);
}


function marriageWords(card) {
  const suit = card[0] === "A" ? "A" : card[1];
  if (suit === "A") return { suit: t("marriage.A"), value: marriageValue("A"), trump: "" };
  return { suit: `${suitSymbol(suit)} ${suitName(suit)}`, value: marriageValue(suit), trump: suitSymbol(suit) };
}

/** The talon taken at the end of the bidding: by whom, for how much, and its cards if shown. */
function talonTaken(view, names, you) {
  if (view.declarer === null || view.declarer === undefined) return "";
  const name = names[view.declarer];
  const value = view.bid ?? view.high_bid;
  if (view.phase === "choose") return t("story.choose", { name, value });
  if (Array.isArray(view.talon)) {
    const cards = view.talon.map(cardShort).join(" ");
    return view.declarer === you ? t("story.talon.you", { value, cards }) : t("story.talon", { name, value, cards });
  }
  return t("story.talon.hidden", { name, value });
}

/** The first words of a new deal: its number, and who sits on the automatic 100 and why. */
function newDeal(view, names) {
  const parts = [t("hand.no", { n: view.hand_no })];
  const first = view.bids?.[0];
  if (view.phase === "bidding" && first && view.bids.length === 1 && first[1] !== "pass") {
    parts.push(t("story.auto", { name: names[first[0]], value: first[1] }));
  } else if (view.phase === "dark") {
    parts.push(t("story.dark-or-look", { name: names[view.turn] }));
  }
  return parts.join(" · ");
}

/** The words for a scored sheet row that ended a deal early: a redeal, a write-off. */
function rowWords(row, names) {
  if (row.result === "writeoff") {
    const shares = row.deltas
      .map((d, s) => (s !== row.declarer && d ? `${names[s]} ${signed(d)}` : null))
      .filter(Boolean).join(", ");
    return t("story.writeoff", { name: names[row.declarer], value: row.contract ?? row.bid, shares });
  }
  return headline(row, names);
}

/**
 * The story of one change: what `view` shows that `previous` did not, as
 * seen by `you`. `fresh` are the sheet rows scored by this change.
 * Returns {text, ended, dealt, phase, spoken}: the line for the table, what ended
 * the last deal when a new one is dealt (`dealt`), and the fuller words for a
 * screen reader (cards named in words); "" where there is nothing to say.
 */
export function describe(view, names, you, previous = null, fresh = []) {
  const last = view.last_action;
  const shown = [];
  const spoken = [];
  const say = (text, words = text) => {
    if (!text) return;
    shown.push(text);
    spoken.push(words);
  };
  const dealt = previous && view.hand_no !== previous.hand_no || fresh.some((r) => r.result === "redeal");
  if (last && previous) {
    const who = names[last.seat];
    const [verb, arg, extra] = last.action.split(" ");
    if (verb === "play") {
      say(t("announce.played", { name: who, card: cardShort(arg) }), t("announce.played", { name: who, card: cardLabel(arg) }));
      if (extra === "declare") {
        const m = marriageWords(arg);
        say(m.trump ? t("story.declared", { name: who, ...m }) : t("story.declared.ace", { name: who, ...m }));
      }
      if (last.trick) say(t("announce.trick", { name: names[last.trick.winner] }));
    } else if (verb === "bid") say(t("announce.bid", { name: who, value: arg }));
    else if (verb === "pass") say(t("announce.pass", { name: who }));
    else if (verb === "contract") say(t("announce.contract", { name: who, value: arg }));
    else if (verb === "give") {
      const to = Number(extra);
      if (isCard(arg) && to === you) say(t("story.gave.you", { name: who, card: cardShort(arg) }), t("story.gave.you", { name: who, card: cardLabel(arg) }));
      else if (isCard(arg)) say(t("story.gave.card", { name: who, to: names[to], card: cardShort(arg) }));
      else say(t("announce.gave", { name: who, to: names[to] }));
    } else if (verb === "discard") say(t("story.discard", { name: who }));
    else if (verb === "take") say(t("story.take", { name: who, n: Number(arg) + 1 }));
    else if (verb === "dark") say(t("story.dark", { name: who }));
    else if (verb === "look") say(t("story.look", { name: who }));
    else if (verb === "decline") say(t("story.decline", { name: who }));
    // The bidding just ended: the talon goes to the declarer.
    if ((verb === "pass" || verb === "bid") && ["talon", "choose", "contract"].includes(view.phase) && !dealt) {
      say(talonTaken(view, names, you));
    }
  }
  for (const row of fresh) if (row.result !== "made" && row.result !== "failed") say(rowWords(row, names));
  // A new deal: what ended the last one is kept apart from the new deal's first line.
  const ended = dealt ? shown.splice(0).join(". ") : "";
  if (dealt && view.phase !== "over") say(newDeal(view, names));
  if (view.turn === you && view.phase !== "over" && spoken.length) spoken.push(t("announce.yourturn"));
  return { text: shown.join(". "), ended, dealt, phase: view.phase, spoken: spoken.join(". ") };
}
