// Registers the site's service worker (sw.js, beside index.html; see www/sw.js),
// which keeps the site working offline after the first visit. scripts/offline.mjs
// copies this file into the build under a name carrying its hash and loads it
// from index.html.
//
// A new release's worker installs in the background and waits. When the page
// loads and finds one waiting, it asks it to take over (it does unless another
// window of the site is open) and reloads once it has, before anything is opened:
// a page always runs one release's files, never the old page with new modules.
(() => {
  const sw = navigator.serviceWorker;
  // Service workers need a secure context (https, or http://127.0.0.1 / localhost).
  if (!sw || !window.isSecureContext) return;
  const hadController = Boolean(sw.controller);
  let reloading = false;
  sw.addEventListener("controllerchange", () => {
    // The first worker of a first visit takes control of a page that is already
    // of its build: nothing to reload.
    if (!hadController || reloading) return;
    reloading = true;
    window.location.reload();
  });
  // After the page's own files have loaded: storing the build (every decoder
  // module) must not hold up the first view.
  const start = () =>
    sw
      .register(new URL("sw.js", document.baseURI))
      .then((registration) => {
        // Where the browser blocks service workers, `register` may resolve to nothing.
        if (registration?.waiting) registration.waiting.postMessage({ type: "take-over" });
      })
      .catch((e) => console.warn(`hexlens: offline use is not available (${e})`));
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
})();
