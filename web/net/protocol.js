/* Protocol: owns the shape of every message between the peers of a table.
 *
 * Guests send plain JSON texts. The host sends signed envelopes,
 * `<ECDSA signature of body, base64url>.<body, a JSON text>`, so a guest
 * can tell the host's messages from anyone else's (identity.js); the body
 * travels as it is, not quoted inside another JSON text.
 * Every body carries `to` (the recipient's peer id, or "*") and `n`, the
 * host's running message number for this page load (`epoch`), so a signed
 * message cannot be replayed to another peer or out of order.
 *
 * The table's public messages are numbered (`pub`, index `i`). The host
 * relays a guest's own message back to it as `own`: only its number and
 * its digest, which the guest matches with what it sent. A guest that
 * cannot (no such message, or a gap in the numbers) asks for the whole
 * messages from the first it lacks (`resend`); the host sends them whole.
 *
 * `parse(text, schemas)` checks a text against a table of schemas: exact
 * key sets, types, ranges and lengths. Nothing that fails reaches the game;
 * the caller answers with an error and logs it.
 */

export const VERSION = 3;
export const MAX_NAME = 24;
export const MAX_CHAT = 200;
/** The quick reactions of the chat, sent by name and shown in each player's language. */
export const REACTIONS = ["gg", "wp", "oops"];
/** Each seat's connection as the host sees it (the presence message). */
export const PRESENCE = ["host", "bot", "empty", "connected", "reconnecting", "away", "left", "replaced"];
/** The computer players a person's seat may be given to (private_table.COMPUTER_LEVELS). */
export const COMPUTER_LEVELS = ["easy", "normal", "strong"];

// --- field checks ---------------------------------------------------------------------------

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const text = (max, min = 0) => (v) => typeof v === "string" && v.length >= min && v.length <= max;
const int = (lo, hi) => (v) => Number.isInteger(v) && v >= lo && v <= hi;
const hex64 = (v) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v);
const token = (v) => typeof v === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(v);
const nullable = (check) => (v) => v === null || check(v);
const bool = (v) => typeof v === "boolean";
const object = (v) => isObject(v);
const list = (check, max) => (v) => Array.isArray(v) && v.length <= max && v.every(check);
const SEAT = int(0, 3);
const DEAL = int(0, 100_000);
const ACTION = text(40, 1);
const oneOf = (values) => (v) => values.includes(v);
const presenceSeat = (v) =>
  isObject(v) &&
  Object.keys(v).length === 3 &&
  oneOf(PRESENCE)(v.status) &&
  nullable(int(0, 60_000))(v.rtt) &&
  nullable(int(0, 3600))(v.awayLeft);

const POSITION = int(0, 23);
/** What a dispute may say it found (private_table.py's CLAIMS and CLAIM_FACTS). */
const CLAIMS = ["move", "protocol", "played_other", "shown_known"];
const CLAIM = (v) =>
  isObject(v) &&
  Object.entries(v).every(
    ([k, x]) => ["action", "refusal", "suit", "low", "high", "card", "position", "holds"].includes(k) && (text(40)(x) || int(-1000, 1000)(x)),
  );
/** A locked card: a compressed point of the curve P-256 as 66 hex digits (mental_poker.py). */
const VALUE = (v) => typeof v === "string" && /^0[23][0-9a-f]{64}$/.test(v);
const UNLOCKS = (v) =>
  isObject(v) && Object.keys(v).length <= 24 && Object.entries(v).every(([j, x]) => /^(1?\d|2[0-3])$/.test(j) && VALUE(x));

/**
 * The private deal's public messages (PRIVATE_DEAL.md): what a seat sends
 * and the host relays to everyone, numbered, as `pub`. Each names its deal
 * and its seat, which the host checks is the sender's.
 */
export const PRIVATE = {
  shuffle: { deal: DEAL, seat: SEAT, deck: (v) => Array.isArray(v) && v.length === 24 && v.every(VALUE) },
  unlock: { deal: DEAL, seat: SEAT, stage: (v) => v === "deal" || v === "talon", values: UNLOCKS },
  act: { deal: DEAL, seat: SEAT, action: ACTION, position: nullable(POSITION), y: nullable(VALUE) },
  pass: { deal: DEAL, seat: SEAT, value: VALUE },
  // An opponent is ready for the contract after the pass (any redeal claim of its own answered).
  ready: { deal: DEAL, seat: SEAT },
  reveal: { deal: DEAL, seat: SEAT, secret: hex64 },
  // The evidence in English (`reason`) and as a code and facts to put in each player's words.
  dispute: { deal: DEAL, seat: SEAT, accused: int(-1, 3), reason: text(400), code: oneOf(CLAIMS), facts: CLAIM },
};

/** What guests may send to the host: hello, and their part of the private deal. */
export const TO_HOST = {
  hello: { v: int(VERSION, VERSION), name: text(MAX_NAME, 1), token: nullable(token), have: int(0, 10_000_000) },
  ...PRIVATE,
  // An act carries the guest's number `n`, which the host's ok or error answers.
  act: { ...PRIVATE.act, n: int(0, 2 ** 31) },
  // Chat: a line of text or one of the quick reactions, never both.
  chat: { text: nullable(text(MAX_CHAT, 1)), react: nullable(oneOf(REACTIONS)) },
  // The guest closes or reloads its page.
  bye: {},
  // The guest lacks public message `from` (and maybe later ones): send them whole.
  resend: { from: int(0, 10_000_000) },
};

/**
 * Every public message: the seats' own, and the host's `replace`, which
 * gives a person's seat to a computer (standin.js). Guests may not send it.
 */
export const PUBLIC = { ...PRIVATE, replace: { deal: DEAL, seat: SEAT, level: oneOf(COMPUTER_LEVELS) } };

const publicMessage = (v) => {
  try {
    check(v, PUBLIC);
    return true;
  } catch {
    return false;
  }
};

const seatInfo = (v) =>
  isObject(v) &&
  text(MAX_NAME)(v.name) &&
  ["host", "guest", "bot", "empty"].includes(v.kind) &&
  ["connected", "away", "empty"].includes(v.status) &&
  (v.level === null || text(20)(v.level)) &&
  typeof v.standIn === "boolean";

/** Bodies of the host's signed messages. */
export const FROM_HOST = {
  // `time` orders the host's page loads: a guest keeps to the latest host.
  host: { pub: text(200, 1), time: int(0, 2 ** 53) },
  welcome: { seat: nullable(SEAT), token: nullable(token), count: int(0, 10_000_000) },
  table: {
    phase: (v) => ["lobby", "playing", "over"].includes(v),
    players: int(2, 4),
    rules: object,
    hints: bool, // whether the host allows hints at this table
    seats: list(seatInfo, 4),
  },
  // One public message of the private deal, number `i` of the match.
  pub: { i: int(0, 10_000_000), m: publicMessage },
  // Public message `i` is the one this guest sent, of digest `h` (digest() below);
  // `re` is the number of the guest's act it carries, if it was an act.
  own: { i: int(0, 10_000_000), h: (v) => typeof v === "string" && /^[0-9a-f]{24}$/.test(v), re: nullable(int(0, 2 ** 31)) },
  // `re` is the number of the guest's act being answered (`n` is the envelope's).
  error: { code: text(40, 1), message: text(500), re: nullable(int(0, 2 ** 31)) },
  started: {},
  presence: { seats: list(presenceSeat, 4) },
  chat: { seat: SEAT, text: nullable(text(MAX_CHAT, 1)), react: nullable(oneOf(REACTIONS)) },
};
const ENVELOPE_KEYS = ["t", "to", "epoch", "n"];

export class ProtocolError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "ProtocolError";
    this.code = code;
  }
}

/** Check a decoded value against one schema table; returns it or throws ProtocolError. */
export function check(value, schemas, extraKeys = []) {
  if (!isObject(value)) throw new ProtocolError("malformed", "a message is a JSON object");
  const schema = Object.hasOwn(schemas, value.t) ? schemas[value.t] : null;
  if (typeof value.t !== "string" || !schema) {
    throw new ProtocolError("malformed", `unknown message type ${JSON.stringify(String(value.t)).slice(0, 40)}`);
  }
  const allowed = new Set(["t", ...extraKeys, ...Object.keys(schema)]);
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) throw new ProtocolError("malformed", `${value.t}: unexpected field ${key.slice(0, 30)}`);
  }
  for (const [key, valid] of Object.entries(schema)) {
    if (!valid(value[key])) throw new ProtocolError("malformed", `${value.t}: bad or missing ${key}`);
  }
  return value;
}

/** Parse a guest's text against a schema table. */
export function parse(textValue, schemas) {
  let value;
  try {
    value = JSON.parse(textValue);
  } catch {
    throw new ProtocolError("malformed", "not JSON");
  }
  return check(value, schemas);
}

/** Check a host body (already parsed) including its envelope fields. */
export function checkHostBody(body) {
  check(body, FROM_HOST, ENVELOPE_KEYS);
  if (!text(64, 1)(body.to) || !text(64, 1)(body.epoch) || !int(0, 2 ** 40)(body.n)) {
    throw new ProtocolError("malformed", `${body.t}: bad envelope`);
  }
  return body;
}

/** A value as JSON with every object's keys sorted: the same text on every peer. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** A public message's digest: the first 96 bits of SHA-256 of its canonical JSON, as hex. */
export async function digest(message) {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical(message)));
  return [...new Uint8Array(bytes).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export { bool, isObject };

/** The host's signed envelope of a body: the signature, a dot, the body. */
export function envelope(sig, body) {
  return `${sig}.${body}`;
}

/** A host's envelope from a received text as {sig, body}, or null if it is none. */
export function openEnvelope(text) {
  if (typeof text !== "string") return null;
  const dot = text.indexOf(".");
  if (dot < 1 || dot > 200 || !/^[A-Za-z0-9_-]+$/.test(text.slice(0, dot)) || text[dot + 1] !== "{") return null;
  return { sig: text.slice(0, dot), body: text.slice(dot + 1) };
}
