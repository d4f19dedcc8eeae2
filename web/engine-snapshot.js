/* Engine snapshot store: owns the saved copy of a booted engine.
 *
 * A memory snapshot is Python's whole memory right after the engine was
 * installed and imported, before any game was started in it. It is kept in
 * Cache Storage (one entry, beside the service worker's cache) with the
 * build version it belongs to and its SHA-256, so a later visit can start
 * from it instead of installing the engine again. It is only a cache: the
 * game itself lives in localStorage, and a snapshot that is missing, from
 * another version, damaged or not readable is deleted and the worker boots
 * the normal way.
 */

const CACHE = "thousand-engine-snapshot";
const KEY = new URL("./engine-snapshot", import.meta.url).href;
const VERSION = "x-thousand-version";
const SHA256 = "x-thousand-sha256";
/** findSnapshot's reason when nothing is saved: the first visit. */
export const NONE = "none saved";

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether this page may keep a snapshot at all (Cache Storage needs a secure context). */
export function canKeepSnapshots() {
  return typeof caches !== "undefined";
}

/**
 * The snapshot saved for `version`: `{bytes}`, a promise of its checked
 * bytes (rejected, and the copy deleted, when it is damaged or unreadable),
 * so that Python can start loading while they are read; or `{bytes: null,
 * reason}` when there is none, or it belongs to another version (deleted).
 */
export async function findSnapshot(version) {
  if (!canKeepSnapshots()) return { bytes: null, reason: "no Cache Storage" };
  let cache;
  let response;
  try {
    cache = await caches.open(CACHE);
    response = await cache.match(KEY);
  } catch (e) {
    return { bytes: null, reason: `Cache Storage failed: ${e.message}` };
  }
  if (!response) return { bytes: null, reason: NONE };
  const saved = response.headers.get(VERSION);
  if (saved !== version) {
    await cache.delete(KEY).catch(() => {});
    return { bytes: null, reason: `saved by version ${saved}, this is ${version}` };
  }
  const bytes = (async () => {
    const data = new Uint8Array(await response.arrayBuffer());
    if (data.length === 0 || (await sha256(data)) !== response.headers.get(SHA256)) {
      throw new Error("the saved engine snapshot is damaged: its SHA-256 does not match");
    }
    return data;
  })();
  bytes.catch(() => cache.delete(KEY).catch(() => {}));
  return { bytes, reason: null };
}

/** Keep `bytes` as the snapshot of `version`, replacing any other. */
export async function saveSnapshot(version, bytes) {
  const cache = await caches.open(CACHE);
  const headers = {
    "content-type": "application/octet-stream",
    [VERSION]: version,
    [SHA256]: await sha256(bytes),
  };
  await cache.put(KEY, new Response(bytes, { headers }));
}

/** Delete the saved snapshot (one that failed to restore). */
export async function dropSnapshot() {
  if (canKeepSnapshots()) await (await caches.open(CACHE)).delete(KEY);
}
