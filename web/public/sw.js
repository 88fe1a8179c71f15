/* global self, caches -- a service worker */
/* Kora's service worker: hashed assets from the cache first, pages from the network (the cached shell when
   offline). The API, the identity provider, Socket.IO and the dev pages are never touched. */
const CACHE = 'kora-v1';
const SHELL = '/index.html';
const BYPASS = /^\/(api|oidc|socket\.io|dev|metrics)(\/|$)/;
/**
 * How long a look-up in Cache Storage may take before the network answers instead. The cache is a shortcut, never
 * something a page waits on: a look-up that never settled would hold every script the page asks for, in every tab
 * this worker controls, until the browser is restarted.
 */
const CACHE_WAIT_MS = 2000;

/** The cached answer for `request`, or undefined when there is none, the look-up fails or it takes too long. */
function fromCache(request) {
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(resolve, CACHE_WAIT_MS, undefined);
  });
  return Promise.race([caches.match(request), late])
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.add(SHELL))
      .catch(() => undefined)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || BYPASS.test(url.pathname)) return;

  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => fromCache(SHELL).then((cached) => cached || Response.error())));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      fromCache(request).then(
        (cached) =>
          cached ||
          fetch(request).then((response) => {
            if (response.ok) {
              // Kept in the cache after the answer, while the worker is kept alive for it; a failure only costs the
              // next load a trip to the network.
              const copy = response.clone();
              event.waitUntil(
                caches
                  .open(CACHE)
                  .then((cache) => cache.put(request, copy))
                  .catch(() => undefined),
              );
            }
            return response;
          }),
      ),
    );
  }
});
