/* The new-game settings: owns the form that chooses the number of players,
 * a preset, every house rule, each computer seat's level and your name.
 *
 * The house rules are generated from the engine's own option list
 * (Rules.options(): id, group, kind, choices, bounds, en/ru text), grouped
 * as RULES.md §12, so the form and the engine cannot disagree.
 */
import { groupText, ruleText, t } from "./i18n.js";

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function choiceLabel(value, option = null) {
  if (value === null) return t("off");
  // An option may word a shared value its own way ("none" → "unchanged").
  for (const key of [option && `choice.${option.id}.${value}`, `choice.${value}`].filter(Boolean)) {
    const text = t(key);
    if (text !== key) return text;
  }
  return String(value);
}

function same(a, b) {
  return Object.keys(a).every((k) => a[k] === b[k]);
}

/** One option's control; returns [row, read()]. */
function optionRow(option, value) {
  const row = el("div", `rule rule-${option.kind}`);
  row.dataset.rule = option.id;
  const id = `rule-${option.id}`;
  const label = el("label", "rule-text", ruleText(option));
  label.htmlFor = id;
  const code = el("code", "rule-id", option.id);
  code.setAttribute("aria-hidden", "true");
  if (option.kind === "bool") {
    const box = el("input");
    box.type = "checkbox";
    box.id = id;
    box.checked = Boolean(value);
    row.append(box, label, code);
    return [row, () => box.checked, (v) => { box.checked = Boolean(v); }];
  }
  if (option.kind === "choice") {
    const select = el("select");
    select.id = id;
    const values = option.optional ? [null, ...option.choices] : option.choices;
    for (const v of values) {
      const o = el("option", "", choiceLabel(v, option));
      o.value = JSON.stringify(v);
      select.append(o);
    }
    select.value = JSON.stringify(value);
    row.append(label, code, select);
    return [row, () => JSON.parse(select.value), (v) => { select.value = JSON.stringify(v); }];
  }
  // A whole number, optionally switched off.
  const input = el("input", "num");
  input.type = "number";
  input.id = id;
  if (option.low !== null) input.min = option.low;
  if (option.high !== null) input.max = option.high;
  input.step = option.step;
  const wrap = el("span", "num-wrap");
  let toggle = null;
  if (option.optional) {
    toggle = el("input");
    toggle.type = "checkbox";
    toggle.id = `${id}-on`;
    toggle.setAttribute("aria-label", `${ruleText(option)}: ${t("on")}`);
    toggle.addEventListener("change", () => { input.disabled = !toggle.checked; });
    wrap.append(toggle);
  }
  wrap.append(input);
  const fallback = option.default ?? option.low ?? 0;
  const set = (v) => {
    input.value = v ?? fallback;
    if (toggle) {
      toggle.checked = v !== null && v !== undefined;
      input.disabled = !toggle.checked;
    }
  };
  set(value);
  row.append(label, code, wrap);
  const read = () => {
    if (toggle && !toggle.checked) return null;
    const n = Math.round(Number(input.value));
    if (!Number.isFinite(n)) return option.default;
    const lo = option.low ?? -Infinity;
    const hi = option.high ?? Infinity;
    return Math.min(hi, Math.max(lo, Math.round(n / option.step) * option.step));
  };
  return [row, read, set];
}

/**
 * Build the settings form. `data` is the bridge's options() result;
 * `setup` is {name, preset, rules: {id: value}, levels: [per seat]}.
 * Returns {node, read()} where read() gives the new setup.
 */
export function renderSettings(data, setup) {
  const form = el("form", "settings");
  form.addEventListener("submit", (e) => e.preventDefault());
  let rules = { ...data.presets.classic, ...setup.rules };
  const readers = {};
  const setters = {};

  // Your name
  const nameRow = el("div", "field");
  const nameLabel = el("label", "", t("settings.name"));
  nameLabel.htmlFor = "setting-name";
  const name = el("input");
  name.id = "setting-name";
  name.maxLength = 24;
  name.value = setup.name;
  name.autocomplete = "nickname";
  nameRow.append(nameLabel, name);

  // Players
  const players = el("fieldset", "field players");
  players.append(el("legend", "", t("settings.players")));
  const playerOption = data.options.find((o) => o.id === "players");
  for (const n of [2, 3, 4].filter((v) => playerOption.choices.includes(v))) {
    const label = el("label", "pill");
    const radio = el("input");
    radio.type = "radio";
    radio.name = "players";
    radio.value = n;
    radio.id = `setting-players-${n}`;
    radio.checked = rules.players === n;
    radio.addEventListener("change", () => {
      rules = { ...readRules(), players: n };
      drawBots();
      syncPreset();
    });
    label.append(radio, document.createTextNode(` ${n}`));
    players.append(label);
  }

  // Preset
  const presetRow = el("div", "field");
  const presetLabel = el("label", "", t("settings.preset"));
  presetLabel.htmlFor = "setting-preset";
  const preset = el("select");
  preset.id = "setting-preset";
  for (const p of [...Object.keys(data.presets), "custom"]) {
    const o = el("option", "", t(`preset.${p}`));
    o.value = p;
    preset.append(o);
  }
  preset.addEventListener("change", () => {
    if (preset.value === "custom") return;
    rules = { ...data.presets[preset.value] };
    for (const [id, set] of Object.entries(setters)) set(rules[id]);
    for (const radio of players.querySelectorAll("input")) radio.checked = Number(radio.value) === rules.players;
    drawBots();
  });
  presetRow.append(presetLabel, preset);

  // Computer seats
  const bots = el("fieldset", "field bots");
  let levels = [...(setup.levels ?? [])];
  const botNames = t("bot.names").split(",");
  function drawBots() {
    const old = [...bots.querySelectorAll("select")].map((s) => s.value);
    if (old.length) levels = [null, ...old];
    bots.replaceChildren(el("legend", "", t("settings.bots")));
    for (let seat = 1; seat < rules.players; seat++) {
      const row = el("div", "bot-row");
      const label = el("label", "", botNames[seat - 1] ?? `#${seat}`);
      label.htmlFor = `setting-level-${seat}`;
      const select = el("select");
      select.id = `setting-level-${seat}`;
      for (const level of data.levels) {
        const o = el("option", "", t(`level.${level}`));
        o.value = level;
        select.append(o);
      }
      select.value = levels[seat] ?? levels.find(Boolean) ?? "normal";
      row.append(label, select);
      bots.append(row);
    }
    // What each level does, one line each.
    const notes = el("dl", "level-notes");
    for (const level of data.levels) {
      notes.append(el("dt", "", t(`level.${level}`)), el("dd", "", t(`level.${level}.about`)));
    }
    bots.append(notes);
  }
  drawBots();

  // House rules, grouped
  const rulesBox = el("div", "rule-groups");
  rulesBox.append(el("h3", "", t("settings.rules")));
  for (const [group, pair] of Object.entries(data.groups)) {
    const details = el("details", "rule-group");
    details.dataset.group = group;
    details.append(el("summary", "", groupText(pair)));
    for (const option of data.options.filter((o) => o.group === group && o.id !== "players")) {
      const [row, read, set] = optionRow(option, rules[option.id]);
      readers[option.id] = read;
      setters[option.id] = set;
      row.addEventListener("change", syncPreset);
      details.append(row);
    }
    rulesBox.append(details);
  }

  function readRules() {
    const out = { ...rules };
    for (const [id, read] of Object.entries(readers)) out[id] = read();
    return out;
  }
  function syncPreset() {
    const now = readRules();
    const match = Object.keys(data.presets).find((p) => same(data.presets[p], now));
    preset.value = match ?? "custom";
  }
  syncPreset();

  form.append(nameRow, players, presetRow, bots, rulesBox);
  return {
    node: form,
    read() {
      const r = readRules();
      return {
        name: name.value.trim() || t("you"),
        preset: preset.value,
        rules: r,
        levels: [null, ...[...bots.querySelectorAll("select")].map((s) => s.value)],
      };
    },
  };
}
