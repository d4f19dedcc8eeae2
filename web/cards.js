/* Cards as the player sees them: owns how a card's text form ("TH", the
 * engine's notation: rank 9 J Q K T A, suit S C D H) is shown and spoken.
 * Presentation only: which card beats which, and what may be played, is
 * the engine's to say.
 */

const RANKS = {
  "9": ["9", "nine"], J: ["J", "jack"], Q: ["Q", "queen"],
  K: ["K", "king"], T: ["10", "ten"], A: ["A", "ace"],
};
const SUITS = {
  S: ["♠", "spades", "black"], C: ["♣", "clubs", "black"],
  D: ["♦", "diamonds", "red"], H: ["♥", "hearts", "red"],
};

export function suitSymbol(suit) {
  return SUITS[suit]?.[0] ?? suit;
}

/** Rank and suit parts of a card text, e.g. {rank: "10", suit: "♥", color: "red"}. */
export function cardFace(text) {
  const rank = RANKS[text[0]];
  const suit = SUITS[text[1]];
  if (!rank || !suit || text.length !== 2) throw new Error(`not a card: ${text}`);
  return { rank: rank[0], suit: suit[0], color: suit[2], rankName: rank[1], suitName: suit[1] };
}

/** What a screen reader says: "10♥ ten of hearts" (as the engine's card_label). */
export function cardLabel(text) {
  const f = cardFace(text);
  return `${f.rank}${f.suit} ${f.rankName} of ${f.suitName}`;
}

/** A face-up card element; `data-card` carries the engine's text form. */
export function cardElement(text) {
  const f = cardFace(text);
  const el = document.createElement("div");
  el.className = `card ${f.color}`;
  el.dataset.card = text;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardLabel(text));
  el.innerHTML =
    `<span class="corner" aria-hidden="true">${f.rank}<br>${f.suit}</span>` +
    `<span class="pip" aria-hidden="true">${f.suit}</span>`;
  return el;
}

/** A face-down card (an opponent's, or a talon nobody may see yet). */
export function cardBack() {
  const el = document.createElement("div");
  el.className = "card back";
  el.setAttribute("aria-hidden", "true");
  return el;
}

/** An action text with its card shown as rank and suit: "play TH" → "play 10♥". */
export function actionText(action) {
  return action.replace(/\b([9JQKTA])([SCDH])\b/g, (_, r, s) => RANKS[r][0] + SUITS[s][0]);
}
