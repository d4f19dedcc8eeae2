/* UI text: owns every word the page shows, in English, Russian, Ukrainian
 * and Polish, each with every key. Terms follow RULES.md (прикуп, торговля,
 * заказ, марьяж, козырь, бочка, болт, роспись, тёмная, золотой кон). The house
 * rules' descriptions come from the engine (en, ru); Ukrainian and Polish fall
 * back to English for those.
 *
 * Each language's words are a dictionary of their own in i18n/; this module
 * picks one and fills it in.
 *
 *   t("key", {name: "Anna"})   text in the current language, {name} filled in
 */

import en from "./i18n/en.js";
import ru from "./i18n/ru.js";
import uk from "./i18n/uk.js";
import pl from "./i18n/pl.js";

export const LANGUAGES = { en: "English", ru: "Русский", uk: "Українська", pl: "Polski" };
// Each language has every key (a test checks it); English is only a safety net.
export const DICTS = { en, ru, uk, pl };

let current = "en";

/** The language the browser prefers among ours, else English. */
export function browserLanguage() {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in DICTS) return base;
  }
  return "en";
}

/**
 * A seat's name in the current language when it is one of the default
 * names ("You"/"Вы", "Anna"/"Анна", …), so it follows a language switch;
 * a name the player chose stays as it is.
 */
export function localName(name) {
  for (const d of Object.values(DICTS)) {
    if (name === d.you) return t("you");
    const k = d["bot.names"].split(",").indexOf(name);
    if (k >= 0) return t("bot.names").split(",")[k] ?? name;
  }
  return name;
}

/** The seats' names as this page shows them: the default ones in its language. */
export function seatNames(seats) {
  return (seats ?? []).map((s) => localName(s.name));
}

export function setLanguage(lang) {
  current = lang in DICTS ? lang : "en";
  document.documentElement.lang = current;
  return current;
}

export function language() {
  return current;
}

export function t(key, params = {}) {
  const text = DICTS[current][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** A house rule's one-line description in the current language (engine text). */
export function ruleText(option) {
  return current === "ru" ? option.ru : option.en;
}

/** A house-rule group's title: groups are [en, ru] from the engine. */
export function groupText(pair) {
  return current === "ru" ? pair[1] : pair[0];
}

/** Fill the static markup: elements with data-i18n (text), data-i18n-label (aria-label),
 * data-i18n-title and data-i18n-placeholder. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
}
