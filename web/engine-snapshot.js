/* Engine snapshot store: owns the saved copy of a booted engine.
 *
 * A memory snapshot is Python's whole memory right after the engine was
 * installed and imported, before any game was started in it. It is kept in
 * Cache Storage (one entry, beside the service worker's cache) with the
 * build version it belongs to, the memory's length and the SHA-256 of what
 * is stored, so a later visit can start from it instead of installing the
 * engine again. Over 40% of that memory is pages of zeros, which are not
 * stored (a map of the pages kept comes first, then those pages): reading
 * back 18 MB instead of 31 is what a later visit waits on, and a zero page
 * needs no copy. Nothing else is compressed (unpacking would cost more than
 * the read saves). The bytes are read while Pyodide's own files load, and
 * only checked bytes reach Python (a damaged memory may never finish
 * restoring). It is only a cache: the game itself lives in localStorage,
 * and a snapshot that is missing, from another version, damaged or not
 * readable is deleted and the worker boots the normal way.
 */

const CACHE = "thousand-engine-snapshot";
const KEY = new URL("./engine-snapshot", import.meta.url).href;
const VERSION = "x-thousand-version";
const SHA256 = "x-thousand-sha256";
const SIZE = "x-thousand-size";
/** findSnapshot's reason when nothing is saved: the first visit. */
export const NONE = "none saved";
/** The page of the map: a memory page of this many zero bytes is not stored. */
const PAGE = 4096;

const isZero = (bytes, start, end) => {
  for (let i = start; i < end; i++) if (bytes[i] !== 0) return false;
  return true;
};

/** A memory as it is stored: the map of its non-zero pages (a bit each), then those pages. */
export function packMemory(memory) {
  const pages = Math.ceil(memory.length / PAGE);
  const map = new Uint8Array(Math.ceil(pages / 8));
  const kept = [];
  for (let i = 0; i < pages; i++) {
    const page = memory.subarray(i * PAGE, Math.min((i + 1) * PAGE, memory.length));
    if (isZero(page, 0, page.length)) continue;
    map[i >> 3] |= 1 << (i & 7);
    kept.push(page);
  }
  const stored = new Uint8Array(map.length + kept.reduce((sum, page) => sum + page.length, 0));
  stored.set(map);
  let at = map.length;
  for (const page of kept) {
    stored.set(page, at);
    at += page.length;
  }
  return stored;
}

/** Write a stored memory back into `memory` (its length, all zeros); throws when they do not fit. */
export function unpackMemory(stored, memory) {
  const pages = Math.ceil(memory.length / PAGE);
  let at = Math.ceil(pages / 8);
  for (let i = 0; i < pages && at <= stored.length; i++) {
    if (!(stored[i >> 3] & (1 << (i & 7)))) continue;
    const start = i * PAGE;
    const length = Math.min(PAGE, memory.length - start);
    memory.set(stored.subarray(at, at + length), start);
    at += length;
  }
  if (at !== stored.length) {
    throw new Error(`the saved engine snapshot is damaged: ${stored.length} bytes stored, its map says ${at}`);
  }
}

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
 * that its bytes come off the disk while Python's own files load. Give the
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
 * `{size, read, unpack(memory)}`: the memory's length; a promise that
 * settles when the stored bytes are read; and a function that checks them
 * (their SHA-256, their map) and writes them into `memory` (`size` zero
 * bytes), so that Python can start loading while they are read. A damaged
 * or unreadable copy rejects both promises and is deleted. Or
 * `{size: 0, reason}` when there is none, it belongs to another version
 * (deleted) or Cache Storage failed.
 */
export async function findSnapshot(version, reading = readSnapshot()) {
  const { failed, cache, response, data } = await reading;
  if (failed) return { size: 0, reason: failed };
  if (!response) return { size: 0, reason: NONE };
  const saved = response.headers.get(VERSION);
  if (saved !== version) {
    await cache.delete(KEY).catch(() => {});
    return { size: 0, reason: `saved by version ${saved}, this is ${version}` };
  }
  const size = Number(response.headers.get(SIZE));
  if (!Number.isSafeInteger(size) || size <= 0) {
    await cache.delete(KEY).catch(() => {});
    return { size: 0, reason: `the saved engine snapshot is damaged: its size is ${size}` };
  }
  const drop = (e) => {
    cache.delete(KEY).catch(() => {});
    throw e;
  };
  const read = data.catch(drop);
  const unpack = (memory) =>
    read
      .then(async (stored) => {
        if ((await sha256(stored)) !== response.headers.get(SHA256)) {
          throw new Error("the saved engine snapshot is damaged: its SHA-256 does not match");
        }
        unpackMemory(stored, memory);
      })
      .catch(drop);
  read.catch(() => {});
  return { size, read, unpack, reason: null };
}

/** Keep `memory` as the snapshot of `version`, replacing any other. */
export async function saveSnapshot(version, memory) {
  const cache = await caches.open(CACHE);
  const stored = packMemory(memory);
  const headers = {
    "content-type": "application/octet-stream",
    [VERSION]: version,
    [SHA256]: await sha256(stored),
    [SIZE]: String(memory.length),
  };
  await cache.put(KEY, new Response(stored, { headers }));
}

/** Delete the saved snapshot (one that failed to restore). */
export async function dropSnapshot() {
  if (canKeepSnapshots()) await (await caches.open(CACHE)).delete(KEY);
}
