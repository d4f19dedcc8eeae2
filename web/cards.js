/* Cards as the player sees them: owns how a card's text form ("TH", the
 * engine's notation: rank 9 J Q K T A, suit S C D H) is drawn with the rank
 * letters of the UI language, named for a screen reader in it, and ordered
 * in a hand. Presentation
 * only: which card beats which, and what may be played, is the engine's to say.
 */
import { t } from "./i18n.js";

// The letter on a card follows the UI language (Russian decks: В Д К Т).
const rankLetter = (r) => t(`letter.${r}`);
const RANK_CHARS = "9JQKTA";
const RANK_ORDER = "ATKQJ9";
const SUITS = { S: "♠", C: "♣", D: "♦", H: "♥" };
// Alternate the colours in a sorted hand: ♠ ♥ ♣ ♦ (black red black red).
const SUIT_ORDER = "SHCD";
const MARRIAGE = { S: 40, C: 60, D: 80, H: 100, A: 200 };

export function suitSymbol(suit) {
  return SUITS[suit] ?? suit;
}

export function marriageValue(suit) {
  return MARRIAGE[suit] ?? 0;
}

/** Rank and suit parts of a card text, e.g. {rank: "10", suit: "♥", suitChar: "H"}. */
export function cardFace(text) {
  const suit = SUITS[text?.[1]];
  if (!RANK_CHARS.includes(text?.[0]) || !suit || text.length !== 2) throw new Error(`not a card: ${text}`);
  const rank = rankLetter(text[0]);
  return { rank, suit, rankChar: text[0], suitChar: text[1], red: "DH".includes(text[1]) };
}

/** What a screen reader says: "10♥, ten of hearts" in the UI language. */
export function cardLabel(text) {
  const f = cardFace(text);
  return `${f.rank}${f.suit} ${t("card.name", { rank: t(`rank.${f.rankChar}`), suit: t(`suit.${f.suitChar}`) })}`;
}

/** A card's short form for text: "10♥". */
/** Whether `text` names a card, such as "TD". */
export const isCard = (text) => /^[9TJQKA][SCDH]$/.test(text ?? "");

export function cardShort(text) {
  const f = cardFace(text);
  return f.rank + f.suit;
}

/** A suit's name: "hearts" / "червей". */
export function suitName(suit) {
  return t(`suit.${suit}`);
}

/** A face-up card element; `data-card` carries the engine's text form. */
export function cardElement(text, { tag = "div" } = {}) {
  const f = cardFace(text);
  const el = document.createElement(tag);
  el.className = `card suit-${f.suitChar}`;
  el.dataset.card = text;
  if (tag === "div") el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardLabel(text));
  // The face is drawn by CSS from data attributes, so the card's only
  // text for assistive technology is its label.
  el.innerHTML =
    `<span class="corner" data-r="${f.rank}" data-s="${f.suit}"></span>` +
    `<span class="pip" data-s="${f.suit}"></span>` +
    `<span class="corner low" data-r="${f.rank}" data-s="${f.suit}"></span>`;
  return el;
}

/** A face-down card (an opponent's, or a talon nobody may see yet). */
export function cardBack() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** A hand in display order: by suit (colours alternating), high cards first. */
export function sortHand(texts) {
  const key = (c) => SUIT_ORDER.indexOf(c[1]) * 10 + RANK_ORDER.indexOf(c[0]);
  return [...texts].sort((a, b) => key(a) - key(b));
}

/** An action text with its card shown as rank and suit: "play TH" → "play 10♥". */
export function actionText(action) {
  return action.replace(/\b([9JQKTA])([SCDH])\b/g, (_, r, s) => rankLetter(r) + SUITS[s]);
}
