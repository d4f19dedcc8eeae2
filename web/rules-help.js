/* Rules help: owns the "how to play" dialog — the classic game explained
 * for players in short sections with card pictures — and, below it, the
 * house rules of the game in progress: every option that differs from the
 * classic preset, in the engine's own words (Rules.options(), en/ru) —
 * and, at a network table, the host's table setting for hints.
 *
 * The explanation is written here in English and Russian; Ukrainian and
 * Polish show the English explanation (their interface strings are their own).
 */
import { cardElement } from "./cards.js";
import { openDialog } from "./dialogs.js";
import { language, ruleText, t } from "./i18n.js";
import { choiceLabel } from "./settings.js";

/** Each section: [title, paragraphs, cards to picture (optional)]. */
const TEXT = {
  en: [
    ["The deck and card points", [
      "Thousand is played with 24 cards: nine, jack, queen, king, ten and ace of each suit. With three players each gets 7 cards and 3 go face down to the talon.",
      "Cards score: ace 11, ten 10, king 4, queen 3, jack 2, nine 0 — 120 points in the deck. In a suit the ten beats the king.",
    ], ["AH", "TH", "KH", "QH", "JH", "9H"]],
    ["Bidding and the obligatory 100", [
      "The player after the dealer must start the bidding at 100. In turn each player raises by 5 or passes; a pass is final.",
      "Without a marriage in your hand you may not bid more than 120. The last bidder becomes the declarer. If nobody raises the 100, its bidder plays it and takes the talon unseen.",
    ]],
    ["The talon and passing cards", [
      "The declarer takes the talon (shown to everyone when the bid was raised) and then gives one card to each opponent, so that everybody holds the same number of cards.",
    ]],
    ["The contract and the write-off", [
      "Having seen the talon, the declarer names the contract: the bid or more. Before the first card is led the declarer may instead write the hand off: the contract is lost, and each opponent gets half of it.",
    ]],
    ["Tricks, marriages and trump", [
      "The declarer leads first; the winner of each trick leads the next. You must follow suit; if you cannot, you must play a trump if you have one; otherwise any card. The highest trump, or else the highest card of the suit led, takes the trick.",
      "A king and queen of one suit are a marriage: hearts 100, diamonds 80, clubs 60, spades 40. After you have taken a trick, lead one of them and declare it: you score its value and its suit becomes trump.",
    ], ["KH", "QH", "KD", "QD", "KC", "QC", "KS", "QS"]],
    ["Scoring, bolts, the barrel and winning", [
      "If the declarer's card points and marriages reach the contract, the declarer scores the contract; otherwise loses it. The others score their own points, rounded to the nearest 5.",
      "A hand without a single trick is a bolt; every third bolt costs 120.",
      "At 880 you sit on the barrel: you have three hands to reach 1000 as a declarer, with a contract of at least 120. Failing that you fall off and lose 120; the third fall takes you back to 0.",
      "The first to reach 1000 wins the match.",
    ]],
  ],
  ru: [
    ["Колода и очки карт", [
      "В «Тысячу» играют колодой из 24 карт: девятка, валет, дама, король, десятка и туз каждой масти. Втроём каждому сдают по 7 карт, 3 карты рубашкой вверх уходят в прикуп.",
      "Очки карт: туз 11, десятка 10, король 4, дама 3, валет 2, девятка 0 — в колоде 120 очков. В масти десятка старше короля.",
    ], ["AH", "TH", "KH", "QH", "JH", "9H"]],
    ["Торговля и обязательные 100", [
      "Игрок после сдающего обязан открыть торговлю со 100. Дальше по очереди каждый повышает на 5 или пасует; пас окончателен.",
      "Без марьяжа на руке нельзя заказать больше 120. Последний торговавшийся становится разыгрывающим. Если 100 никто не перебил, их объявивший играет и берёт прикуп не показывая.",
    ]],
    ["Прикуп и снос", [
      "Разыгрывающий берёт прикуп (его видят все, если ставку перебивали) и отдаёт по одной карте каждому противнику, чтобы у всех стало поровну карт.",
    ]],
    ["Заказ и роспись", [
      "Посмотрев прикуп, разыгрывающий объявляет заказ: ставку или больше. До первого хода он может вместо этого расписаться: заказ списывается, а каждый противник получает его половину.",
    ]],
    ["Взятки, марьяжи и козырь", [
      "Первым ходит разыгрывающий, дальше ходит взявший взятку. Нужно ходить в масть; если её нет — козырем, если он есть; иначе любой картой. Взятку берёт старший козырь, а без него — старшая карта масти хода.",
      "Король и дама одной масти — марьяж: черви 100, бубны 80, трефы 60, пики 40. Взяв хотя бы одну взятку, зайдите с короля или дамы и объявите марьяж: вы получаете его очки, а его масть становится козырем.",
    ], ["KH", "QH", "KD", "QD", "KC", "QC", "KS", "QS"]],
    ["Счёт, болты, бочка и победа", [
      "Если очки взяток и марьяжей разыгрывающего не меньше заказа, он записывает заказ, иначе заказ вычитается. Остальные записывают свои очки, округлённые до 5.",
      "Роздача без единой взятки — болт; каждый третий болт стоит 120 очков.",
      "С 880 очков вы на бочке: за три роздачи нужно набрать 1000, сыграв заказ не меньше 120. Иначе вы падаете с бочки и теряете 120; третье падение возвращает счёт к 0.",
      "Первый набравший 1000 выигрывает партию.",
    ]],
  ],
};

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The options of `rules` that differ from the classic preset: [{option, value}]. */
export function houseRules(rules, data) {
  // Before the engine has started there is no option list to compare with.
  if (!data) return [];
  const classic = data.presets.classic;
  return data.options
    .filter((o) => rules && o.id in rules && rules[o.id] !== classic[o.id])
    .map((option) => ({ option, value: rules[option.id] }));
}

function valueText(option, value) {
  if (option.kind === "bool") return value ? t("on") : t("off");
  return choiceLabel(value, option);
}

/**
 * The house-rules part: each differing option in words, or "classic rules";
 * `table` ({hints}) is a network table's own settings, null against the computer.
 */
export function renderHouseRules(rules, data, table = null) {
  const box = el("section", "house-rules");
  box.append(el("h3", "", t("rules.house")));
  const list = houseRules(rules, data);
  if (!rules || !data) box.append(el("p", "muted", t("rules.house.none")));
  else if (!list.length) box.append(el("p", "", t("rules.house.classic")));
  else {
    const ul = el("ul", "house-list");
    for (const { option, value } of list) {
      const li = el("li", "", `${ruleText(option)}: `);
      li.dataset.rule = option.id;
      li.append(el("b", "", valueText(option, value)));
      ul.append(li);
    }
    box.append(ul);
  }
  if (table) box.append(tableHintsLine(table.hints));
  return box;
}

/** "Hints are (not) allowed at this table": a network table's setting, for every player to see. */
export function tableHintsLine(allowed) {
  const p = el("p", "table-hints", t(allowed ? "net.hints.on" : "net.hints.off"));
  p.dataset.hints = allowed ? "allowed" : "off";
  return p;
}

/** The whole "how to play" text, then the house rules of `rules` (the game in progress, or null). */
export function renderRules(rules, data, table = null) {
  const box = el("div", "rules-help");
  for (const [title, paragraphs, cards] of TEXT[language()] ?? TEXT.en) {
    const section = el("section", "rules-section");
    section.append(el("h3", "", title));
    for (const p of paragraphs) section.append(el("p", "", p));
    if (cards) {
      const row = el("div", "rules-cards");
      for (const c of cards) row.append(cardElement(c));
      section.append(row);
    }
    box.append(section);
  }
  box.append(renderHouseRules(rules, data, table));
  return box;
}

export function showRules(rules, data, table = null) {
  return openDialog({
    title: t("rules"),
    body: renderRules(rules, data, table),
    name: "rules",
    wide: true,
    // A long text scrolls: it takes the focus, so the keyboard can scroll it too.
    onOpen: (dialog) => { dialog.querySelector(".dialog-body").tabIndex = 0; },
  });
}
