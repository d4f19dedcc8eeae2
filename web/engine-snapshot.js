/* Engine snapshot store: owns the saved copy of a booted engine.
 *
 * A memory snapshot is Python's whole memory right after the engine was
 * installed and imported, before any game was started in it. It is kept in
 * Cache Storage (one entry, beside the service worker's cache) with the
 * build version it belongs to, its length and its SHA-256, so a later
 * visit can start from it instead of installing the engine again. The
 * bytes are kept as they are (no compression: reading them back is one
 * copy off the disk); they are read and hashed while Pyodide's own files
 * load, and only checked bytes reach Python (a damaged memory may never
 * finish restoring). It is only a cache: the game itself lives in
 * localStorage, and a snapshot that is missing, from another version,
 * damaged or not readable is deleted and the worker boots the normal way.
 */

const CACHE = "thousand-engine-snapshot";
const KEY = new URL("./engine-snapshot", import.meta.url).href;
const VERSION = "x-thousand-version";
const SHA256 = "x-thousand-sha256";
const SIZE = "x-thousand-size";
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
 * Start reading the saved snapshot, before the build version is known, so
 * that its 31 MB come off the disk while Python's own files load. Give the
 * result to findSnapshot. Never rejects.
 */
export function readSnapshot() {
  if (!canKeepSnapshots()) return Promise.resolve({ failed: "no Cache Storage" });
  return (async () => {
    const cache = await caches.open(CACHE);
    const response = await cache.match(KEY);
    if (!response) return { cache, response: null };
    const data = response.arrayBuffer().then((buffer) => new Uint8Array(buffer));
    data.catch(() => {});
    return { cache, response, data };
  })().catch((e) => ({ failed: `Cache Storage failed: ${e.message}` }));
}

/**
 * The snapshot saved for `version`, from what readSnapshot started:
 * `{bytes, size}`, a promise of its checked bytes (rejected, and the copy
 * deleted, when they are unreadable, of the wrong length or do not match
 * their SHA-256) and the length they are stated to have, so that Python can
 * start loading while they are read and hashed; or `{bytes: null, reason}` when there is none, it belongs to
 * another version (deleted) or Cache Storage failed.
 */
export async function findSnapshot(version, reading = readSnapshot()) {
  const { failed, cache, response, data } = await reading;
  if (failed) return { bytes: null, reason: failed };
  if (!response) return { bytes: null, reason: NONE };
  const saved = response.headers.get(VERSION);
  if (saved !== version) {
    await cache.delete(KEY).catch(() => {});
    return { bytes: null, reason: `saved by version ${saved}, this is ${version}` };
  }
  const size = Number(response.headers.get(SIZE));
  const bytes = data.then(async (bytes) => {
    if (bytes.length === 0 || bytes.length !== size) {
      throw new Error(`the saved engine snapshot is damaged: ${bytes.length} bytes, not ${size}`);
    }
    if ((await sha256(bytes)) !== response.headers.get(SHA256)) {
      throw new Error("the saved engine snapshot is damaged: its SHA-256 does not match");
    }
    return bytes;
  });
  bytes.catch(() => cache.delete(KEY).catch(() => {}));
  return { bytes, size, reason: null };
}

/** Keep `bytes` as the snapshot of `version`, replacing any other. */
export async function saveSnapshot(version, bytes) {
  const cache = await caches.open(CACHE);
  const headers = {
    "content-type": "application/octet-stream",
    [VERSION]: version,
    [SHA256]: await sha256(bytes),
    [SIZE]: String(bytes.length),
  };
  await cache.put(KEY, new Response(bytes, { headers }));
}

/** Delete the saved snapshot (one that failed to restore). */
export async function dropSnapshot() {
  if (canKeepSnapshots()) await (await caches.open(CACHE)).delete(KEY);
}
