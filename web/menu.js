/* The menu and the welcome screen: owns what each offers and the language
 * switch they share. Each resolves with the player's choice; main.js acts
 * on it (a new game, the rules, a table with friends...).
 */
import { LANGUAGES, language, t } from "./i18n.js";
import { openDialog } from "./dialogs.js";

/** The menu's entries, in order: a choice and its label. */
function menuItems(netText) {
  return [
    ["new", t("new-game")],
    ["friends", netText("host.title")],
    ["settings", t("settings")],
    ["sheet", t("sheet")],
    ["rules", t("rules")],
    ["stats", t("stats")],
    ["replay", t("replay")],
    ["export", t("export")],
    ["import", t("import")],
  ];
}

/**
 * The language switch. `switchTo(code)` applies a choice; then `onChange`
 * runs (a dialog redraws itself in the new language).
 */
function languageSelect(switchTo, onChange = null) {
  const label = document.createElement("label");
  label.className = "field inline";
  label.textContent = t("language");
  const select = document.createElement("select");
  select.id = "language";
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    o.lang = code;
    select.append(o);
  }
  select.value = language();
  select.addEventListener("change", () => {
    switchTo(select.value);
    onChange?.(select);
  });
  label.append(select);
  return label;
}

/**
 * The menu: its entries above the display preferences, which
 * `displayWith(extra)` builds with the controls `extra` (here the language
 * switch) first. Resolves with
 * the entry chosen, "language" after a switch of language (the menu is
 * then to be opened again, in it), or undefined when it was closed.
 * `focus`: a selector of what has the focus when it opens.
 */
export async function menuChoice({ netText, displayWith, switchLanguage, focus = null }) {
  const box = document.createElement("div");
  box.className = "menu";
  const list = document.createElement("div");
  list.className = "menu-items";
  for (const [value, label] of menuItems(netText)) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn";
    b.dataset.menu = value;
    b.textContent = label;
    b.addEventListener("click", () => {
      box.dataset.choice = value;
      b.closest("dialog").close();
    });
    list.append(b);
  }
  const relang = languageSelect(switchLanguage, (select) => {
    box.dataset.choice = "language";
    select.closest("dialog").close();
  });
  box.append(list, displayWith([relang]));
  await openDialog({
    title: t("menu.title"),
    body: box,
    name: "menu",
    onOpen: (dialog) => (focus ? dialog.querySelector(focus)?.focus() : null),
  });
  return box.dataset.choice;
}

/**
 * The welcome of a first visit: Play, or the rules, a saved game, the
 * settings or a table with friends first. Resolves with that choice, or
 * "language" after a switch of language (the welcome is then to be shown
 * again, in it).
 */
export async function welcomeChoice({ netText, switchLanguage }) {
  const box = document.createElement("div");
  box.className = "welcome";
  const p = document.createElement("p");
  p.textContent = t("welcome");
  const hint = document.createElement("p");
  hint.className = "muted";
  hint.textContent = t("play.hint");
  box.append(p, hint, languageSelect(switchLanguage, (select) => {
    box.dataset.relang = "1";
    select.closest("dialog").close();
  }));
  const choice = await openDialog({
    title: `${t("title")} · 1000`,
    body: box,
    name: "welcome",
    buttons: [
      { label: t("rules"), value: "rules" },
      { label: t("import"), value: "import" },
      { label: t("settings"), value: "settings" },
      { label: netText("host.title"), value: "friends" },
      { label: t("play"), value: "play", primary: true },
    ],
  });
  return box.dataset.relang ? "language" : choice;
}
