// hexlens decode worker. Loads one of the decoder's wasm modules (hexlens-worker-NAME,
// built apart from the page's, which holds no decoder; NAME comes from this script's
// ?m= parameter, chosen by the page from the file's first bytes) and hands every
// message from the page to its `worker_handle`, in the order the messages arrived.
const name = new URL(self.location.href).searchParams.get("m");
const known = ["llvm", "pdb", "dyno", "llvm1", "cdac", "tools", "listing", "ksy"];
let ready;
if (known.includes(name)) {
  importScripts("../hexlens-worker-" + name + ".js");
  ready = wasm_bindgen({ module_or_path: "../hexlens-worker-" + name + "_bg.wasm" });
} else {
  ready = Promise.reject(new Error("no decoder module called " + name));
}
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
