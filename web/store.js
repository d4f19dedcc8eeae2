/* Local storage: owns what the page keeps between visits — the game in
 * progress (saved after every action) and the player's preferences.
 *
 * A save that cannot be read is never thrown away: setAside() moves it to a
 * key of its own (thousand.game.bad.<time>), so a bug report can include it.
 */

const GAME_KEY = "thousand.game";
const PREFS_KEY = "thousand.prefs";
export const SAVE_FORMAT = "thousand-web/1";

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled by the browser
  }
}

/** Write the game in progress: {seat, seats, game: the engine's JSON text}. */
export function saveGame(record) {
  storage()?.setItem(GAME_KEY, JSON.stringify({ format: SAVE_FORMAT, saved: Date.now(), ...record }));
}

/**
 * The saved game, checked for shape: null when there is none, or
 * {record} / {error, raw} when it cannot be used.
 */
export function loadGame() {
  const raw = storage()?.getItem(GAME_KEY);
  if (raw === null || raw === undefined) return null;
  let record;
  try {
    record = JSON.parse(raw);
  } catch (e) {
    return { error: `it is not JSON (${e.message})`, raw };
  }
  if (!record || typeof record !== "object" || record.format !== SAVE_FORMAT) {
    return { error: "it was not written by this game", raw };
  }
  const { seat, seats, game } = record;
  if (!Number.isInteger(seat) || !Array.isArray(seats) || typeof game !== "string"
    || seat < 0 || seat >= seats.length || seats.some((s) => !s || typeof s.name !== "string")) {
    return { error: "parts of it are missing or damaged", raw };
  }
  return { record };
}

export function clearGame() {
  storage()?.removeItem(GAME_KEY);
}

/** Move the saved game out of the way; returns the key it now has. */
export function setAside(raw = storage()?.getItem(GAME_KEY)) {
  const key = `${GAME_KEY}.bad.${new Date().toISOString()}`;
  const s = storage();
  if (s) {
    try {
      if (raw !== null && raw !== undefined) s.setItem(key, raw);
    } catch {
      // Full storage: the bad save cannot be kept, but it must not block play.
    }
    s.removeItem(GAME_KEY);
  }
  return key;
}

export function loadPrefs() {
  try {
    const prefs = JSON.parse(storage()?.getItem(PREFS_KEY) ?? "{}");
    return prefs && typeof prefs === "object" ? prefs : {};
  } catch {
    return {};
  }
}

export function savePrefs(prefs) {
  try {
    storage()?.setItem(PREFS_KEY, JSON.stringify(prefs));
  } catch {
    // Preferences are a convenience; a full storage only loses them.
  }
}

const SUMMARY_KEY = "thousand.summary";

/** Note that a hand's summary is open (`mark`: which game and row), so a reload shows it again. */
export function rememberSummary(mark) {
  try {
    storage()?.setItem(SUMMARY_KEY, JSON.stringify(mark));
  } catch {
    // Only the reopening after a reload is lost.
  }
}

/** The summary left open at the last visit, or null. */
export function pendingSummary() {
  try {
    return JSON.parse(storage()?.getItem(SUMMARY_KEY) ?? "null");
  } catch {
    return null;
  }
}

export function forgetSummary() {
  storage()?.removeItem(SUMMARY_KEY);
}
