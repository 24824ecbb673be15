// Decodes a File in a Web Worker: here `decode` reads it through
// FileReaderSync, only the pages the decoders ask for.
import init, { decode } from "../../target/npm/web/hexlens.js";
import { treeText } from "./tree-text.js";

const ready = init();

self.onmessage = async ({ data }) => {
  try {
    await ready;
    const tree = decode(data.file);
    const text = treeText(tree, data.levels);
    const format = tree.format;
    tree.free();
    self.postMessage({ text, format });
  } catch (e) {
    self.postMessage({ error: String(e?.message ?? e) });
  }
};
