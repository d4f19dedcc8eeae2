/* Service worker: owns offline play.
 *
 * build.py writes the site's version and every file's content hash into
 * BUILD below, so any change to the site changes this script and the
 * browser installs the new worker. Files are cached under a key that
 * includes their hash ("pyodide/pyodide.asm.wasm?sha=<hash>"), so an update
 * downloads only the files that changed and keeps the rest. Requests for
 * listed files are answered from the cache first; anything else goes to
 * the network. All URLs are relative to this script, so the site works
 * under any sub-path.
 */
const BUILD = /*BUILD*/ null;
const CACHE = "thousand";
const BASE = new URL("./", self.location).href;

function keyFor(path) {
  const integrity = BUILD.files[path];
  // A query, not a fragment: the Cache API ignores fragments when matching.
  return `${BASE}${path}?sha=${encodeURIComponent(integrity ?? BUILD.version)}`;
}

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(
    Object.entries(BUILD.files).map(async ([path, integrity]) => {
      const key = keyFor(path);
      if (await cache.match(key)) return;
      // cache: "reload" skips the HTTP cache, which may hold an older copy;
      // integrity makes a file that is not the one this build names fail the
      // install instead of being served forever.
      const init = { cache: "reload" };
      if (integrity) init.integrity = integrity;
      const response = await fetch(new Request(BASE + path, init));
      if (!response.ok) throw new Error(`precache ${path}: HTTP ${response.status}`);
      await cache.put(key, response);
    }),
  );
}

async function dropStale() {
  const cache = await caches.open(CACHE);
  const wanted = new Set(Object.keys(BUILD.files).map(keyFor));
  for (const request of await cache.keys()) {
    if (!wanted.has(request.url)) await cache.delete(request);
  }
}

self.addEventListener("install", (event) => {
  // Taking over at once is safe: the page and its worker load every module
  // at start, and the page offers a reload when a new version takes over.
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(dropStale().then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(BASE)) return;
  let path = request.url.slice(BASE.length).split(/[?#]/)[0];
  if (request.mode === "navigate" && (path === "" || path === "index.html")) path = "index.html";
  if (!(path in BUILD.files)) return;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(keyFor(path)))
      .then((hit) => hit ?? fetch(request)),
  );
});
