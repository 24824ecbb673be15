// hexlens decode worker. Loads the decoder's own wasm module (hexlens-worker,
// built apart from the page's, which holds no decoder) and hands every message
// from the page to its `worker_handle`, in the order the messages arrived.
importScripts("../hexlens-worker.js");
const ready = wasm_bindgen({ module_or_path: "../hexlens-worker_bg.wasm" });
ready.catch((e) => self.postMessage({ type: "panic", message: "the decoder could not start: " + e }));

self.onmessage = async (event) => {
  try {
    await ready;
  } catch (e) {
    return;
  }
  try {
    wasm_bindgen.worker_handle(event.data);
  } catch (e) {
    // A panic has already been reported by the panic hook; anything else (a trap,
    // running out of memory) is reported here. Either way this worker is done.
    self.postMessage({ type: "panic", message: String(e && e.message ? e.message : e) });
  }
};
