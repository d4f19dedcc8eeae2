/* Stand-in: owns giving a person's seat to a computer player once its
 * player has left a network table, on every side of the table.
 *
 * Only the host decides. A seat whose player said goodbye (closed or
 * reloaded the page: presence "left") may be replaced at once; a seat whose
 * connection is gone ("away") may be replaced once it has been away for
 * `awayMs` (30 s), counted down on its line, since a dropped connection
 * often comes back by itself. Nothing happens without the host: it sees a
 * "Replace with a computer" button on that seat's line of the connection
 * picture.
 *
 * Replacing publishes one signed public message, `{t: "replace", deal,
 * seat, level}`, that every peer's engine applies at the same place of the
 * public log (private_table.py): the host's peer plays that seat from then
 * on, its keys derived from the host's master secret, and the deal in
 * progress, whose cards nobody can open any more, is void and dealt again
 * from its start (same dealer, fresh keys; it scores nothing). The seat
 * keeps its player's name and shows as a computer run by the host, who
 * knows its cards; every page says so. A guest's engine, which knows the
 * lobby's computer seats, checks a replace (only a person's seat, the deal
 * on the table, a level); one that fails is refused with an error and
 * changes nothing. A player who comes back to a seat that was replaced is
 * told so and watches.
 */
import { t } from "../i18n.js";
import { COMPUTER_LEVELS, ProtocolError } from "./protocol.js";

/** The computer that takes over a seat, unless the host says otherwise. */
export const STAND_IN_LEVEL = "normal";

/** Seconds until the host may replace `seat` (0: now), or null if it may not be replaced. */
export function awayLeft(session, seat, left = false, now = Date.now()) {
  const s = session.record.seats[seat];
  if (s?.kind !== "guest" || session.record.phase !== "playing") return null;
  if (left) return 0;
  if (session.peerOf[seat]) return null;
  const since = session.awaySince[seat] ?? now;
  return Math.max(0, Math.ceil((since + session.config.awayMs - now) / 1000));
}

/**
 * The host gives `seat` to a computer of `level`; resolves true once the
 * replace is published and the deal is dealt again, false if that seat may
 * not be replaced now (a connected or recently dropped player, not a
 * person's seat, the game not in play).
 */
export function replaceSeat(session, seat, level = STAND_IN_LEVEL) {
  return session._enqueue(async () => {
    const left = session.presence?.left?.has(seat) ?? false;
    if (!COMPUTER_LEVELS.includes(level) || awayLeft(session, seat, left) !== 0 || !session.state) return false;
    const s = session.record.seats[seat];
    const msg = { t: "replace", deal: session.state.deal, seat, level };
    await session._publish([msg]); // the host's own engine applies it first in line, as every peer's does
    if (!session.state.replaced?.[String(seat)]) return false;
    session.record.seats[seat] = { kind: "bot", name: s.name, level, standIn: true, token: s.token };
    session.peerOf[seat] = null;
    for (const p of session.peers.values()) if (p.seat === seat) p.seat = null;
    session.presence?.left.delete(seat);
    session._status({ kind: "replaced", seat, name: s.name });
    await session._tableChanged();
    session._drive();
    return true;
  });
}

/** The table story's line for a seat given to a computer, as `you` sees it. */
export function replacedStory({ seat, name }, you) {
  return seat === you ? t("net.replaced.you") : t("net.replaced.story", { name: name || `#${seat + 1}` });
}

/** A guest comes back with the token of a seat given to a computer: it is told so, and watches. */
export function refuseReturning(session, peer, token) {
  if (!token) return false;
  const seat = session.record.seats.findIndex((s) => s.standIn && s.token === token);
  if (seat < 0) return false;
  session._sendSigned({ t: "welcome", seat: null, token: null, count: 0 }, peer);
  session._sendSigned(session.tableInfo(), peer);
  throw new ProtocolError("seat-replaced", `a computer plays seat ${seat + 1} now: the host replaced you while you were away`);
}

/**
 * A guest's engine follows the host's replace `m`; resolves whether this
 * guest still plays a seat after it. A replace the table or the engine
 * refuses is an error shown on the page, and changes nothing.
 */
export async function followReplace(session, m) {
  try {
    session.state = await session.engine.call("net_private_receive", m);
  } catch (e) {
    session.state = { ...session.state, out: [] }; // nothing is owed for a message refused
    session._status({ kind: "error", code: "bad-replace", message: t("net.replace.refused", { reason: e.message }) });
    return true;
  }
  session._status({ kind: "replaced", seat: m.seat, name: session.table.seats[m.seat]?.name ?? "" });
  if (m.seat !== session.seat) return true;
  session.seat = null; // this page watches from now on
  session._persist({ seat: null, replaced: true });
  return false;
}

/**
 * The seats the lobby gave to computers, in a table's `seats`: no person's,
 * so its engine refuses a replace of any of them (private_table.py).
 */
export function lobbyComputers(seats) {
  return seats.flatMap((s, i) => (s.kind === "bot" && !s.standIn ? [i] : []));
}
