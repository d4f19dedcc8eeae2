/* Transport: owns the WebRTC room, the table link and the connection settings.
 *
 * A thin wrapper over Trystero's BitTorrent-tracker strategy (vendored in
 * dist/vendor/ by build.py): peers find each other through WebSocket relays
 * (public WebTorrent trackers by default) and then talk directly, end to end
 * encrypted. The link's `key` is Trystero's password, so a relay only ever
 * sees encrypted session descriptions. Messages are JSON texts on one
 * Trystero action; this module counts them (for the bench) and refuses
 * oversized ones before anyone parses them. It knows nothing of the game.
 *
 * Relays: the `relay=` link parameter, else the saved setting, else
 * Trystero's defaults. STUN stays Trystero's default; a saved TURN server
 * is added for players behind strict NATs.
 */
import { joinRoom, selfId } from "../vendor/trystero/torrent.mjs";

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

export function isRelayURL(text) {
  try {
    return ["ws:", "wss:"].includes(new URL(text).protocol);
  } catch {
    return false;
  }
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
 * One peer's membership of a table's room. Events: "message" ({peer, text,
 * size}), "join" ({peer}), "leave" ({peer}).
 */
export class Transport extends EventTarget {
  constructor({ room, key, relays = [], settings = loadSettings() }) {
    super();
    this.id = selfId;
    this.relays = relays.length ? relays : settings.relays;
    this.stats = { sent: 0, sentBytes: 0, received: 0, receivedBytes: 0, refused: 0 };
    const config = { appId: APP_ID, password: key };
    if (this.relays.length) config.relayConfig = { urls: this.relays };
    if (settings.turn) config.turnConfig = [settings.turn];
    if (settings.iceServers) config.rtcConfig = { iceServers: settings.iceServers };
    this.room = joinRoom(config, room);
    this.peers = new Set();
    const channel = this.room.makeAction("m");
    this._send = channel.send;
    channel.onMessage = (data, context) => this._receive(data, context?.peerId ?? context);
    this.room.onPeerJoin = (peer) => {
      this.peers.add(peer);
      this.dispatchEvent(new CustomEvent("join", { detail: { peer } }));
    };
    this.room.onPeerLeave = (peer) => {
      this.peers.delete(peer);
      this.dispatchEvent(new CustomEvent("leave", { detail: { peer } }));
    };
  }

  /** Send a message (any JSON value) to one peer, a list of peers, or (null) everyone. */
  send(message, target = null) {
    const text = typeof message === "string" ? message : JSON.stringify(message);
    const targets = target === null ? [...this.peers] : [target].flat().filter((p) => this.peers.has(p));
    if (!targets.length) return Promise.resolve();
    this.stats.sent += targets.length;
    this.stats.sentBytes += text.length * targets.length;
    return this._send(text, { target: targets }).catch((e) => console.warn("thousand net: send failed", e));
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
    this.peers.clear();
    return this.room.leave();
  }
}
