/* Sound: owns the game's sounds, synthesised with the Web Audio API (no
 * audio files): a card played, a trick taken, a marriage declared, your turn
 * after a computer move, the end of a hand, and the barrel.
 *
 * Sound is on unless the player switched it off (remembered in the
 * preferences) or the browser tells the page it may not play audio.
 * Nothing is made while it is off: no audio context, no sources.
 */

/** Each sound as notes: [frequency Hz, seconds, waveform]. */
const VOICES = {
  card: [[520, 0.05, "triangle"]],
  trick: [[440, 0.06, "triangle"], [587, 0.09, "triangle"]],
  marriage: [[523, 0.09, "sine"], [659, 0.09, "sine"], [784, 0.18, "sine"]],
  turn: [[880, 0.09, "sine"]],
  hand: [[392, 0.12, "sine"], [523, 0.2, "sine"]],
  barrel: [[196, 0.16, "square"], [262, 0.16, "square"], [330, 0.26, "square"]],
};

let context = null;
let on = true;
let volume = 0.5;

/** Sound's default when the player has not chosen: off when the browser forbids audio. */
export function soundDefault() {
  return navigator.getAutoplayPolicy?.("audiocontext") !== "disallowed";
}

export function setSound({ enabled, level }) {
  on = Boolean(enabled);
  if (typeof level === "number") volume = Math.min(1, Math.max(0, level));
  if (!on && context) context.suspend().catch(() => {});
}

function audio() {
  context ??= new AudioContext();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

export function playSound(name) {
  const notes = VOICES[name];
  if (!on || !volume || !notes || typeof AudioContext === "undefined") return;
  const ctx = audio();
  let at = ctx.currentTime + 0.01;
  for (const [freq, length, wave] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.25 * volume, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + length + 0.02);
    at += length * 0.85;
  }
}

/** The sounds a new view calls for, read off its last action; `you` is your seat. */
export function soundsFor(view, before, you) {
  const last = view.last_action;
  if (!last || !before) return [];
  const out = [];
  if (last.action.startsWith("play ")) out.push(last.action.endsWith(" declare") ? "marriage" : "card");
  if (last.trick) out.push("trick");
  const scored = view.sheet.length > before.sheet.length ? view.sheet[view.sheet.length - 1] : null;
  if (scored && scored.result !== "redeal") out.push(scored.marks?.[you]?.includes("barrel") ? "barrel" : "hand");
  else if (view.turn === you && last.seat !== you && view.phase !== "over") out.push("turn");
  return out;
}

/** Play the sounds of a new view (see soundsFor), one after another. */
export function soundView(view, before, you) {
  soundsFor(view, before, you).forEach((name, k) => setTimeout(() => playSound(name), k * 140));
}
