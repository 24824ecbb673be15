// hexlens decode worker. The page starts it with the URL of its own JS module
// and its compiled WebAssembly module, so the worker runs the same code the page
// does without downloading anything again. Every other message goes to
// `worker_handle` in the wasm module, in the order it arrived.
let ready = null;

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg && msg.type === "init") {
    ready = import(msg.js).then(async (m) => {
      await m.default({ module_or_path: msg.wasm });
      return m;
    });
    ready.catch((e) => self.postMessage({ type: "panic", message: "the decoder could not start: " + e }));
    return;
  }
  if (!ready) {
    self.postMessage({ type: "panic", message: "the decoder got a file before it was started" });
    return;
  }
  let m;
  try {
    m = await ready;
  } catch (e) {
    return;
  }
  try {
    m.worker_handle(msg);
  } catch (e) {
    // A panic has already been reported by the panic hook; anything else (a trap,
    // running out of memory) is reported here. Either way this worker is done.
    self.postMessage({ type: "panic", message: String(e && e.message ? e.message : e) });
  }
};
