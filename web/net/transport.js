/* Transport: owns the WebRTC rooms, the table link and the connection settings.
 *
 * Peers find each other through two independent kinds of relay at once,
 * Trystero's BitTorrent-tracker and Nostr strategies (vendored in
 * dist/vendor/ by build.py), and then talk directly, end to end encrypted:
 * the table works as long as either kind of relay does. The link's `key`
 * is Trystero's password, so a relay only ever sees encrypted session
 * descriptions. A peer met through both is one peer here: its messages go
 * over the first connection made and move to the other if that one drops.
 * Messages are JSON texts on one Trystero action; this module counts them
 * (for the bench) and refuses oversized ones before anyone parses them. It
 * knows nothing of the game.
 *
 * Relays: the `relay=` link parameter, else the saved setting, else every
 * strategy's public defaults. A relay is a WebSocket URL, of a tracker, or
 * of a Nostr relay when written `nostr:wss://…`; a list names exactly the
 * relays to use, so a strategy it does not mention stays off. STUN stays
 * Trystero's default; a saved TURN server is added for players behind
 * strict NATs.
 */
import * as nostr from "../vendor/trystero/nostr.mjs";
import * as torrent from "../vendor/trystero/torrent.mjs";

/** The signalling strategies, by the prefix that marks their relays (none: torrent). */
export const STRATEGIES = { torrent, nostr };
const selfId = torrent.selfId;

export const APP_ID = "thousand-card-game/1";
export const MAX_MESSAGE = 1024 * 1024;
const SETTINGS_KEY = "thousand:net-settings";

/** Saved connection settings: {relays: [url], turn: {urls, username, credential} | null, iceServers}. */
export function loadSettings() {
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {};
  } catch {
    saved = {};
  }
  const relays = Array.isArray(saved.relays) ? saved.relays.filter(isRelayURL) : [];
  const turn = saved.turn && typeof saved.turn.urls === "string" && saved.turn.urls ? saved.turn : null;
  // `iceServers` replaces every STUN/TURN server (the tests use [] to stay on this machine).
  const iceServers = Array.isArray(saved.iceServers) ? saved.iceServers : null;
  return { relays, turn, iceServers };
}

export function saveSettings({ relays = [], turn = null, iceServers = null }) {
  const current = loadSettings();
  localStorage.setItem(
    SETTINGS_KEY,
    JSON.stringify({ relays: relays.filter(isRelayURL), turn, iceServers: iceServers ?? current.iceServers }),
  );
}

/** A relay's strategy and WebSocket URL: `wss://…` (a tracker), `torrent:wss://…` or `nostr:wss://…`; null if neither. */
export function relayKind(text) {
  const match = /^(torrent|nostr):(.*)$/.exec(String(text));
  const [kind, url] = match ? [match[1], match[2]] : ["torrent", String(text)];
  try {
    return ["ws:", "wss:"].includes(new URL(url).protocol) ? { kind, url } : null;
  } catch {
    return null;
  }
}

export function isRelayURL(text) {
  return relayKind(text) !== null;
}

/** The relay URLs of each strategy to run: every strategy's defaults (null) when the list is empty. */
export function relayPlan(relays) {
  if (!relays.length) return Object.fromEntries(Object.keys(STRATEGIES).map((kind) => [kind, null]));
  const plan = {};
  for (const relay of relays.map(relayKind).filter(Boolean)) (plan[relay.kind] ??= []).push(relay.url);
  return plan;
}

/** A performance mark on the page's timeline, the first time only. */
export function markOnce(name, options) {
  if (!performance.getEntriesByName(name).length) performance.mark(name, options);
}

/** A random id of `bytes` bytes, base64url. */
export function randomId(bytes = 16) {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export function base64url(bytes) {
  let text = "";
  for (const b of new Uint8Array(bytes)) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text) {
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

const ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The table named by a link's fragment (`#room=…&key=…[&relay=…]`), or null. */
export function parseLink(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const room = params.get("room");
  const key = params.get("key");
  if (!room || !key || !ID.test(room) || !ID.test(key)) return null;
  const relays = (params.get("relay") || "").split(",").filter(isRelayURL);
  return { room, key, relays };
}

/** The link friends open: this page's address with the table in its fragment. */
export function makeLink({ room, key, relays = [] }, page = location.href) {
  const url = new URL(page);
  url.search = "";
  const params = new URLSearchParams({ room, key });
  if (relays.length) params.set("relay", relays.join(","));
  url.hash = params.toString();
  return url.href;
}

/**
 * One peer's membership of a table's rooms (one per strategy). Events:
 * "message" ({peer, text, size}), "join" ({peer}), "leave" ({peer}).
 */
export class Transport extends EventTarget {
  constructor({ room, key, relays = [], settings = loadSettings() }) {
    super();
    this.id = selfId;
    this.relays = relays.length ? relays : settings.relays;
    this.stats = { sent: 0, sentBytes: 0, received: 0, receivedBytes: 0, refused: 0 };
    this.sentByKind = {}; // label → {messages, bytes}, as the sender labels them (for the bench)
    this.startedAt = Date.now();
    performance.mark("thousand:net-rooms"); // the page's timeline: joining the rooms…
    this.peers = new Set();
    this.routes = new Map(); // peer → the strategies it is connected through, first one in use
    this.metAt = new Map(); // peer → when it was first met (performance.now())
    this.rooms = {};
    this.configs = {};
    // Before Trystero's own goodbye (it leaves the rooms on beforeunload): a last word to the peers.
    addEventListener("beforeunload", () => this.dispatchEvent(new Event("closing")));
    for (const [kind, urls] of Object.entries(relayPlan(this.relays))) {
      const config = { appId: APP_ID, password: key };
      if (urls) config.relayConfig = { urls };
      if (settings.turn) config.turnConfig = [settings.turn];
      if (settings.iceServers) config.rtcConfig = { iceServers: settings.iceServers };
      this.configs[kind] = config;
      this._join(kind, config, room);
    }
    this.roomId = room;
    // When the browser says it is offline the connections are as good as
    // gone: leave now, so the peers see it at once, and come back when online.
    this._offline = () => this.pause();
    this._online = () => this.resume();
    addEventListener("offline", this._offline);
    addEventListener("online", this._online);
  }

  /** Leave every room for now (the peers see us leave); resume() joins again. */
  pause() {
    if (this.paused) return;
    this.paused = true;
    const rooms = Object.values(this.rooms);
    for (const peer of [...this.peers]) {
      this.peers.delete(peer);
      this.routes.delete(peer);
      this.dispatchEvent(new CustomEvent("leave", { detail: { peer } }));
    }
    for (const { room } of rooms) {
      room.onPeerJoin = null;
      room.onPeerLeave = null;
      room.leave();
    }
  }

  resume() {
    if (!this.paused || this.left) return;
    this.paused = false;
    for (const [kind, config] of Object.entries(this.configs)) this._join(kind, config, this.roomId);
  }

  _join(kind, config, roomId) {
    const room = STRATEGIES[kind].joinRoom(config, roomId);
    const channel = room.makeAction("m");
    this.rooms[kind] = { room, send: channel.send };
    // The page's timeline: the first relay socket open, of any strategy.
    for (const socket of Object.values(STRATEGIES[kind].getRelaySockets?.() ?? {})) {
      socket?.addEventListener?.("open", () => markOnce("thousand:net-relay"), { once: true });
    }
    channel.onMessage = (data, context) => this._receive(data, context?.peerId ?? context);
    room.onPeerJoin = (peer) => {
      const route = this.routes.get(peer) ?? [];
      if (!route.includes(kind)) route.push(kind);
      this.routes.set(peer, route);
      if (this.peers.has(peer)) return;
      if (!this.peers.size) performance.mark(`thousand:net-peer-${kind}`); // …the first peer met, and how
      this.metAt.set(peer, performance.now());
      this.peers.add(peer);
      this.dispatchEvent(new CustomEvent("join", { detail: { peer, kind } }));
    };
    room.onPeerLeave = (peer) => {
      const route = (this.routes.get(peer) ?? []).filter((k) => k !== kind);
      if (route.length) {
        this.routes.set(peer, route);
        return;
      }
      this.routes.delete(peer);
      this.metAt.delete(peer);
      if (!this.peers.delete(peer)) return;
      this.dispatchEvent(new CustomEvent("leave", { detail: { peer } }));
    };
  }

  /** Each strategy's relays: how many there are and how many have an open socket now. */
  relayState() {
    const state = {};
    for (const kind of Object.keys(this.rooms)) {
      const sockets = Object.values(STRATEGIES[kind].getRelaySockets?.() ?? {});
      state[kind] = { total: sockets.length, open: sockets.filter((s) => s?.readyState === 1).length };
    }
    return state;
  }

  /**
   * Send a message (any JSON value) to one peer, a list of peers, or (null)
   * everyone; `kind` labels it in `sentByKind` (default: its `t`).
   */
  send(message, target = null, kind = message?.t) {
    const text = typeof message === "string" ? message : JSON.stringify(message);
    const targets = target === null ? [...this.peers] : [target].flat().filter((p) => this.peers.has(p));
    if (!targets.length) return Promise.resolve();
    this.stats.sent += targets.length;
    this.stats.sentBytes += text.length * targets.length;
    const label = (this.sentByKind[kind ?? "?"] ??= { messages: 0, bytes: 0 });
    label.messages += targets.length;
    label.bytes += text.length * targets.length;
    return this._send(text, { target: targets }).catch((e) => console.warn("thousand net: send failed", e));
  }

  /** Hand a text to each target's connection in use, uncounted and unchecked. */
  _send(text, { target }) {
    const byKind = {};
    for (const peer of [target].flat()) {
      const kind = this.routes.get(peer)?.[0];
      if (kind) (byKind[kind] ??= []).push(peer);
    }
    return Promise.all(Object.entries(byKind).map(([kind, peers]) => this.rooms[kind].send(text, { target: peers })));
  }

  /** Round-trip time to a peer in ms (Trystero's ping over the connection in use), or null. */
  async ping(peer) {
    const kind = this.routes.get(peer)?.[0];
    if (!kind) return null;
    try {
      return await this.rooms[kind].room.ping(peer);
    } catch {
      return null;
    }
  }

  _receive(data, peer) {
    // Only texts are part of the protocol; a binary or object payload, or an
    // oversized one, is refused here before anything parses it.
    if (typeof data !== "string" || data.length > MAX_MESSAGE || typeof peer !== "string") {
      this.stats.refused += 1;
      this.dispatchEvent(new CustomEvent("refused", { detail: { peer, reason: "not a JSON text within size" } }));
      return;
    }
    this.stats.received += 1;
    this.stats.receivedBytes += data.length;
    // The tests set thousandNetConfig.record to see every message that arrives.
    if (globalThis.thousandNetConfig?.record) (this.recorded ??= []).push({ peer, text: data, time: Date.now() });
    this.dispatchEvent(new CustomEvent("message", { detail: { peer, text: data, size: data.length } }));
  }

  leave() {
    this.left = true;
    removeEventListener("offline", this._offline);
    removeEventListener("online", this._online);
    this.peers.clear();
    this.routes.clear();
    return Promise.all(Object.values(this.rooms).map(({ room }) => room.leave()));
  }
}
