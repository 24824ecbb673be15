// The example page: decodes the picked file with the hexlens npm package's
// web build (scripts/build-npm.sh web) and prints its tree as text. Nothing
// from the file is ever parsed as HTML: it goes into textContent only.
import init, { open } from "../../target/npm/web/hexlens.js";
import { treeText } from "./tree-text.js";

const $ = (id) => document.getElementById(id);
const ready = init();
let worker = null;

function show(status, text = "", failed = false) {
  $("status").textContent = status;
  $("status").className = failed ? "failed" : "";
  $("tree").textContent = text;
}

/** On this thread: `open` reads the file whole first (no FileReaderSync here). */
async function onThisThread(file, levels) {
  await ready;
  const tree = await open(file);
  try {
    return { text: treeText(tree, levels), format: tree.format };
  } finally {
    tree.free();
  }
}

/** In a worker, which reads the file lazily. */
function inWorker(file, levels) {
  worker ??= new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => (data.error ? reject(new Error(data.error)) : resolve(data));
    worker.onerror = (e) => reject(new Error(e.message || "the worker failed"));
    worker.postMessage({ file, levels });
  });
}

async function decodePicked() {
  const file = $("file").files[0];
  if (!file) return;
  const levels = Math.max(1, Math.min(64, Number($("depth").value) || 4));
  const where = $("worker").checked ? "in a worker" : "on the page";
  show(`Decoding ${file.name} ${where}…`);
  try {
    const t0 = performance.now();
    const r = $("worker").checked ? await inWorker(file, levels) : await onThisThread(file, levels);
    const ms = Math.round(performance.now() - t0);
    show(`done: ${file.name} is ${r.format} (${where}, ${ms} ms)`, r.text);
  } catch (e) {
    show(`failed: ${e.message}`, "", true);
  }
}

$("file").addEventListener("change", decodePicked);
$("worker").addEventListener("change", decodePicked);
$("depth").addEventListener("change", decodePicked);
