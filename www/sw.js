// hexlens service worker: makes the site work offline after the first visit.
//
// scripts/offline.mjs (a step of the trunk post-build hook) writes the built
// `sw.js` as this file preceded by one line, `const BUILD = { version, assets };`:
// a hash of every file of the build and of this worker, and the list of those
// files (relative to this script, which sits beside index.html; the site may live
// under any path).
//
// - Install: every file of the build goes into a cache named after this scope and
//   the build's hash. All of it: a file opened offline needs the decoder module of
//   its format (the modules are most of the build, about 2.7 MB in all), and the
//   bundled samples are about 20 KB, so they are stored with the rest rather than
//   when first opened, and every sample opens offline. A file missing on the
//   server fails the install: a build is cached whole or not at all.
// - Requests: GET requests for this scope are answered from this build's cache
//   (the page for a navigation to the site's folder or index.html, whatever its
//   query), anything else from the network. Files opened in the viewer are read
//   in the page (File/Blob), never fetched, so they never reach this worker.
// - Updates: a new build's worker installs beside the running one and waits, so
//   an open tab keeps its page, its wasm and its decoder modules of one build.
//   It takes over when the page asks (register-sw.js does so when the page loads;
//   it does unless another window of the site is open, and the page then reloads
//   once, so that visit runs the new build), or when the last window of the old
//   build closes. Activated, it deletes the other builds' caches of this scope.
"use strict";

const SCOPE = self.registration.scope;
const PREFIX = `hexlens ${SCOPE} `;
const CACHE = PREFIX + BUILD.version;
const INDEX = new URL("index.html", SCOPE).href;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // `no-cache`: revalidate with the server, never a stale copy from the HTTP
      // cache (index.html and the files without a hash in their names).
      await cache.addAll(BUILD.assets.map((a) => new Request(new URL(a, SCOPE), { cache: "no-cache" })));
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      // Controls the pages already open: on a first visit the page that installed
      // this worker (loaded from the network, of this same build); after an update,
      // the one page that asked for it, which then reloads.
      await self.clients.claim();
    })(),
  );
});

/** The site's windows other than `except` (an id), controlled or not. */
async function otherWindows(except) {
  const all = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return all.filter((c) => c.id !== except && c.url.startsWith(SCOPE));
}

self.addEventListener("message", (event) => {
  // Sent by register-sw.js to a waiting worker (to an active one it changes nothing).
  if (event.data?.type !== "take-over") return;
  event.waitUntil(
    (async () => {
      // Another window still runs the old build: replacing it now would leave that
      // page asking for files its build had and this one lacks. A window that is
      // closing, or the page the asking one replaced on a reload, may still be
      // listed for a moment (seconds, on a busy machine): ask again for up to 10 seconds.
      for (let i = 0; i < 34; i++) {
        if ((await otherWindows(event.source?.id)).length === 0) {
          await self.skipWaiting();
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || !req.url.startsWith(SCOPE)) return;
  event.respondWith(answer(req));
});

async function answer(req) {
  const url = new URL(req.url);
  url.search = "";
  url.hash = "";
  const path = url.href;
  const page = req.mode === "navigate" && (path === SCOPE || path === INDEX);
  // The query is not part of a file's name: `static/worker.js?m=llvm` is
  // `static/worker.js`, `?sample=…` is the page.
  // Looked up by name, never `caches.open`: that would create the cache again if a
  // newer build's worker has just deleted it, leaving an empty one behind.
  const hit = await caches.match(page ? INDEX : req, { cacheName: CACHE, ignoreSearch: true });
  if (!hit) return fetch(req);
  // A worker's address is that of the response it was started from: the decode
  // worker must see its `?m=` (which module to load), so a file found under
  // another address is handed over as a response of its own, which carries none.
  if (!page && hit.url !== req.url) {
    return new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
  }
  return hit;
}
