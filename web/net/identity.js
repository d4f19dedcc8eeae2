/* Identity: owns the host's signing key and what it proves.
 *
 * In a WebRTC mesh every peer can message every other, so a guest must be
 * able to tell the host's messages from a fellow guest's forgeries. The
 * host makes an ECDSA P-256 key pair for its table, and the room id in the
 * link is the fingerprint of its public key: a guest who knows the link
 * accepts a public key only if it hashes to the room id, and then accepts
 * only messages signed with it. Signed messages also make a fair-deal alarm
 * checkable by everyone (see audit.js). The private key never leaves the
 * host's browser (it is kept in localStorage so a reloaded host is still
 * the host).
 */
import { base64url, fromBase64url } from "./transport.js";

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256" };
const SIGNING = { name: "ECDSA", hash: "SHA-256" };
const text = new TextEncoder();

/** The room id a public key (raw, base64url) belongs to. */
export async function roomOf(publicKey) {
  const digest = await crypto.subtle.digest("SHA-256", fromBase64url(publicKey));
  return base64url(digest).slice(0, 22);
}

export async function sha256Hex(value) {
  const digest = await crypto.subtle.digest("SHA-256", text.encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A new host identity: {room, publicKey, privateJwk}, all plain data to save. */
export async function newIdentity() {
  const pair = await crypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"]);
  const publicKey = base64url(await crypto.subtle.exportKey("raw", pair.publicKey));
  const privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  return { room: await roomOf(publicKey), publicKey, privateJwk };
}

/** The host's signer: sign(text) → base64url signature. */
export async function signer({ privateJwk }) {
  const key = await crypto.subtle.importKey("jwk", privateJwk, ALGORITHM, false, ["sign"]);
  return async (body) => base64url(await crypto.subtle.sign(SIGNING, key, text.encode(body)));
}

/** A checker for one host's signatures, or null when the key is not the room's. */
export async function verifier(room, publicKey) {
  if (typeof publicKey !== "string" || publicKey.length > 200 || (await roomOf(publicKey)) !== room) return null;
  let key;
  try {
    key = await crypto.subtle.importKey("raw", fromBase64url(publicKey), ALGORITHM, false, ["verify"]);
  } catch {
    return null;
  }
  return async (body, signature) => {
    if (typeof body !== "string" || typeof signature !== "string" || signature.length > 200) return false;
    try {
      return await crypto.subtle.verify(SIGNING, key, fromBase64url(signature), text.encode(body));
    } catch {
      return false;
    }
  };
}

/** 32 random bytes as lowercase hex: a seed for the fair deal. */
export function randomSeed() {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
}
