/* Verdicts: owns turning a peer's audits of its deals into alarms, each shown once,
 * and the time a deal's keys may take to be revealed.
 *
 * Every peer's own engine checks each deal when the keys are revealed
 * (net_bridge.py, PRIVATE_DEAL.md) and names the seats it proved cheated,
 * with the evidence; a seat that kept its keys past the time allowed is
 * named too. Host and guest alike hand every new state here. The evidence
 * comes as the engine's code and facts (private_deal.Problem), put here in
 * the player's language with the players named.
 */
import { cardShort, isCard } from "../cards.js";
import { refusalText } from "../explain.js";
import { t } from "../i18n.js";

const CARD = /\b[9TJQKA][SCDH]\b/g;

/**
 * One piece of evidence in words: `code` and `facts` from the audit (seats and
 * deck positions 0-based, cards as "AH"), `names` the players by seat.
 */
export function evidenceText({ code, facts = {}, text }, names) {
  const key = `cheat.${code}`;
  const card = (c) => (isCard(c) ? cardShort(c) : String(c ?? ""));
  // A protocol error's words are English (and so are a dispute's from an earlier version);
  // their cards at least read as cards.
  const cards = (words) => String(words ?? "").replace(CARD, (c) => cardShort(c));
  const params = {
    card: card(facts.card),
    holds: card(facts.holds),
    position: Number.isInteger(facts.position) ? facts.position + 1 : "",
    to: names[facts.to] ?? (Number.isInteger(facts.to) ? `#${facts.to + 1}` : ""),
    step: Number.isInteger(facts.step) ? facts.step + 1 : "",
    action: cards(facts.action),
    reason: facts.refusal ? refusalText({ ...facts, code: facts.refusal }) : cards(facts.reason ?? text),
    by: names[facts.by] ?? (Number.isInteger(facts.by) ? `#${facts.by + 1}` : t("cheat.another")),
  };
  // A dispute carries what its sender found, to say in this player's words.
  if (code === "dispute" && facts.claim?.code && facts.claim.code !== "dispute") {
    params.reason = evidenceText({ ...facts.claim, text: facts.reason ?? text }, names);
  }
  const words = t(key, params);
  return words === key ? String(text ?? "") : words;
}

export class Verdicts {
  /** @param {(alarm: {deal: number, seat: number, problem: string}) => void} onAlarm */
  constructor(onAlarm) {
    this.onAlarm = onAlarm;
    this.alarms = [];
    this.checked = 0; // deals audited and found fair
    this._seen = new Set();
    this._timer = null;
    this.dealtAt = {}; // deal → when this peer could read its cards (Date.now(), for the bench)
  }

  /**
   * While `state` waits for keys, start the clock once: after `ms` the
   * peer gives its verdict with what was revealed (`onTimeout(deal)`).
   */
  clock(state, ms, onTimeout) {
    const waiting = state.revealing && !(String(state.deal) in state.verdicts);
    if (!waiting) {
      clearTimeout(this._timer);
      this._timer = null;
      return;
    }
    if (this._timer) return;
    const deal = state.deal;
    this._timer = setTimeout(() => {
      this._timer = null;
      onTimeout(deal);
    }, ms);
  }

  update(state) {
    if (state && state.waiting !== "deal" && !(state.deal in this.dealtAt)) this.dealtAt[state.deal] = Date.now();
    for (const [deal, found] of Object.entries(state?.verdicts ?? {})) {
      if (this._seen.has(deal)) continue;
      this._seen.add(deal);
      if (!found.length) this.checked += 1;
      // One alarm per seat named, with each distinct piece of its evidence once:
      // `problem` in English (the audit's own words), `evidence` to put in the player's.
      const bySeat = new Map();
      for (const [seat, text, code = "protocol", facts = {}] of found) {
        const pieces = bySeat.get(seat) ?? new Map();
        pieces.set(String(text), { code, facts, text: String(text) });
        bySeat.set(seat, pieces);
      }
      for (const [seat, pieces] of bySeat) {
        const evidence = [...pieces.values()];
        const alarm = { deal: Number(deal), seat, problem: evidence.map((e) => e.text).join("; "), evidence };
        this.alarms.push(alarm);
        this.onAlarm(alarm);
      }
    }
  }
}

/**
 * Resolves once no cards are moving at `session`'s table (a face-down pass or
 * a talon's unlocks in flight), so a move may be made; at most `ms` later.
 */
export function cardsSettled(session, ms) {
  const moving = () => {
    const s = session.state;
    return s && s.turn === null && s.waiting === null && !s.revealing && s.winner === null;
  };
  if (!moving()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      if (moving()) return;
      clearTimeout(timer);
      session.removeEventListener("view", done);
      resolve();
    };
    const timer = setTimeout(() => {
      session.removeEventListener("view", done);
      resolve();
    }, ms);
    session.addEventListener("view", done);
  });
}
