/* Audit: owns a guest's side of the fair deal, and the checking of alarms.
 *
 * For every deal the guest keeps what it was shown: the host's commitment
 * (before the deal), its own seed, and every view of that deal, each as the
 * host signed it. When the host reveals the deal, the guest's own engine
 * (net_bridge.net_audit) rebuilds the match from the revealed seeds and
 * log and compares each of those views with the rebuilt one: its hand, the
 * talon when shown, the cards it received and every card played.
 *
 * A mismatch raises an alarm to every peer with the signed evidence. Each
 * receiver checks the signatures with the host's key and reruns the same
 * audit, so an alarm is shown only when the host's own signed messages
 * prove it: a guest cannot cry wolf, and a cheating host cannot hide.
 */
import { TO_PEERS, check, checkHostBody } from "./protocol.js";

const MAX_KEPT_DEALS = 3;

export class Auditor {
  /**
   * @param {object} o
   * @param {import("../engine.js").Engine} o.engine
   * @param {() => object} o.rules the table's rules (views travel without them)
   * @param {(state: object) => void} o.save persist the audit state
   * @param {object} [o.state] a saved state to continue
   */
  constructor({ engine, rules, save, state = null }) {
    this.engine = engine;
    this.rules = rules;
    this._save = save;
    this.state = state ?? { commits: {}, seeds: {}, views: {}, verdicts: {} };
    this.checked = 0;
  }

  commit(deal, wire) {
    this.state.commits[deal] = wire;
    this._keep();
  }

  seedFor(deal, make) {
    this.state.seeds[deal] ??= make();
    this._keep();
    return this.state.seeds[deal];
  }

  observe(deal, step, wire) {
    (this.state.views[deal] ??= []).push({ step, wire });
    this._keep();
  }

  /** Check revealed deal k; returns the verdict {ok, problems, checked}. */
  async reveal(seat, reveal, revealWire) {
    const k = reveal.deal;
    const views = this.state.views[k] ?? [];
    const verdict = await runAudit(this.engine, {
      rules: this.rules(),
      seat,
      reveal,
      commit: this.state.commits[k] ? JSON.parse(this.state.commits[k].body).commit : null,
      mySeed: this.state.seeds[k] ?? null,
      views: views.map(({ step, wire }) => ({ step, body: JSON.parse(wire.body) })),
    });
    this.checked += verdict.checked;
    this.state.verdicts[k] = { ok: verdict.ok, problems: verdict.problems, checked: verdict.checked };
    const evidence = {
      commit: this.state.commits[k] ?? null,
      reveal: revealWire,
      views: views.map(({ wire }) => wire),
    };
    delete this.state.commits[k];
    delete this.state.seeds[k];
    delete this.state.views[k];
    this._keep();
    return { ...verdict, evidence };
  }

  _keep() {
    // Only the deals not yet revealed need keeping; drop any that piled up.
    for (const part of ["commits", "seeds", "views", "verdicts"]) {
      const keys = Object.keys(this.state[part]).map(Number).sort((a, b) => a - b);
      for (const k of keys.slice(0, Math.max(0, keys.length - MAX_KEPT_DEALS))) delete this.state[part][k];
    }
    this._save(this.state);
  }
}

/** Rebuild one deal in the engine and compare it with what a seat was shown. */
async function runAudit(engine, { rules, seat, reveal, commit, mySeed, views }) {
  const observations = views.map(({ step, body }) => ({ step, view: { ...body.view, rules } }));
  return engine.call("net_audit", {
    rules,
    seat,
    deal: reveal.deal,
    host_seed: reveal.host_seed,
    nonce: reveal.nonce,
    guest_seeds: reveal.guest_seeds,
    seeds: reveal.seeds,
    log: reveal.log,
    commit,
    my_seed: mySeed,
    observations,
  });
}

/**
 * Check another peer's alarm: every piece of evidence must carry the host's
 * signature and concern the accused deal and the accuser's seat, and the
 * audit rerun here must fail. Returns {confirmed, problems} or throws on
 * malformed evidence.
 */
export async function checkAlarm(engine, alarm, verify, rules) {
  check(alarm, TO_PEERS);
  const { evidence, deal, seat } = alarm;
  const open = async (wire, type) => {
    if (!(await verify(wire.body, wire.sig))) throw new Error(`the ${type} is not signed by the host`);
    const body = checkHostBody(JSON.parse(wire.body));
    if (body.t !== type || body.deal !== deal) throw new Error(`the ${type} is not about deal ${deal}`);
    return body;
  };
  const reveal = await open(evidence.reveal, "reveal");
  const commit = evidence.commit && evidence.commit.body ? (await open(evidence.commit, "commit")).commit : null;
  const views = [];
  for (const wire of evidence.views) {
    const body = await open(wire, "view");
    if (body.view.seat !== seat) throw new Error("a view in the evidence is not the accuser's");
    views.push({ step: body.step, body });
  }
  const verdict = await runAudit(engine, { rules, seat, reveal, commit, mySeed: null, views });
  return { confirmed: !verdict.ok, problems: verdict.problems };
}
