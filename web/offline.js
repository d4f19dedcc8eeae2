/* Offline support, page side: owns registering the service worker (sw.js)
 * and telling the player when a new version has taken over.
 */

/** Whether this page load was answered by the service worker (files are cached). */
export function servedFromCache() {
  return Boolean(navigator.serviceWorker?.controller);
}

/**
 * Call `onUpdate` when a newer version replaces the one this page was
 * loaded from. Watched from the start: the browser checks for an update on
 * every navigation, before the page registers anything.
 */
export function watchForUpdate(onUpdate) {
  if (!("serviceWorker" in navigator)) return;
  const hadController = servedFromCache();
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The first install also "changes" the controller; that is no update.
    if (hadController) onUpdate();
  });
}

/** Register sw.js next to this page; resolves with the registration, or null. */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker
    .register(new URL("./sw.js", import.meta.url), { scope: "./" })
    .catch((e) => {
      // The game still plays online without it; say so in the console only.
      console.warn("offline play unavailable:", e.message);
      return null;
    });
}

/**
 * Resolves once the service worker answers this page's requests: at once
 * when it already does or there is none, else when the one `registering`
 * took over, or when it failed (within a minute at most).
 */
export function controlled(registering) {
  if (!("serviceWorker" in navigator) || servedFromCache()) return Promise.resolve();
  return new Promise((resolve) => {
    navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true });
    registering.then((registration) => registration ?? resolve(), () => resolve());
    setTimeout(resolve, 60_000);
  });
}
