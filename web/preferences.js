/* The player's preferences in the menu: owns the fieldset that sets the
 * display and the helps — the four-colour deck, the speed (in words), sound
 * and its volume, undo against the computer, and the first-game guide.
 * Every change is saved at once; `onChange()` lets the page apply it.
 */
import { t } from "./i18n.js";
import { SPEEDS } from "./motion.js";
import { setGuide } from "./guide.js";

function checkbox(id, label, checked, onChange) {
  const wrap = document.createElement("label");
  wrap.className = "field inline check";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = id;
  box.checked = checked;
  box.addEventListener("change", () => onChange(box.checked));
  wrap.append(box, document.createTextNode(` ${label}`));
  return wrap;
}

/**
 * The fieldset. `prefs` is the saved preferences object, `speed` the speed
 * in effect, `soundOn` whether sound is on now; `save(prefs)` stores them.
 */
export function preferencesFieldset({ prefs, speed, soundOn, save, onChange, extra = [] }) {
  const display = document.createElement("fieldset");
  display.className = "display";
  const legend = document.createElement("legend");
  legend.textContent = t("settings.display");
  const changed = () => {
    save(prefs);
    onChange();
  };

  const four = checkbox("four-colour", t("four-colour"), Boolean(prefs.fourColour), (on) => {
    prefs.fourColour = on;
    changed();
  });

  const pace = document.createElement("label");
  pace.className = "field inline";
  const select = document.createElement("select");
  select.id = "speed";
  for (const word of Object.keys(SPEEDS)) {
    const o = document.createElement("option");
    o.value = word;
    o.textContent = t(`speed.${word}`);
    select.append(o);
  }
  select.value = speed;
  select.addEventListener("change", () => {
    prefs.speed = select.value;
    changed();
  });
  pace.append(document.createTextNode(`${t("delay")} `), select);

  const sound = checkbox("sound", t("sound"), soundOn, (on) => {
    prefs.sound = on;
    changed();
  });
  const volume = document.createElement("input");
  volume.type = "range";
  volume.id = "volume";
  volume.min = 0;
  volume.max = 100;
  volume.step = 10;
  volume.value = Math.round(100 * (prefs.volume ?? 0.5));
  volume.setAttribute("aria-label", t("sound.volume"));
  volume.addEventListener("change", () => {
    prefs.volume = Number(volume.value) / 100;
    changed();
  });
  sound.append(" ", volume);

  const undo = checkbox("undo-on", t("undo.setting"), prefs.undo !== false, (on) => {
    prefs.undo = on;
    changed();
  });
  const guide = checkbox("guide-on", t("guide.setting"), !prefs.guide?.off, (on) => {
    setGuide(prefs, on);
    changed();
  });
  display.append(legend, ...extra, four, pace, sound, undo, guide);
  return display;
}
