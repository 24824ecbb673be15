// The tree of a decoded file as text, one node a line, `levels` levels deep
// (opening lazy groups on the way with `children`): the example page prints
// it, tests/npm compares the browser's with Node.js's.

/** Most lines written; the rest are counted. */
export const MAX_LINES = 5000;

const hex = (n) => n.toString(16).toUpperCase().padStart(4, "0");

/**
 * @param {import("../../target/npm/web/hexlens.js").HexTree} tree
 * @param {number} levels
 */
export function treeText(tree, levels) {
  const lines = [`${tree.format}, ${tree.fileSize} bytes`];
  let left = 0;
  const stack = [[tree.root(), 0]];
  while (stack.length) {
    const [node, level] = stack.pop();
    if (lines.length > MAX_LINES) {
      left++;
      continue;
    }
    const text = node.text ? ` ${node.text}` : "";
    const error = node.error ? `  ! ${node.error}` : "";
    const more = (node.childCount > 0 || node.lazy) && level + 1 >= levels ? " …" : "";
    lines.push(`${"  ".repeat(level)}${hex(node.start)}-${hex(node.end)} ${node.name}${text}${more}${error}`);
    if (level + 1 < levels) {
      const kids = tree.children(node.id);
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], level + 1]);
    }
  }
  if (left > 0) lines.push(`… and ${left} more nodes not shown`);
  return lines.join("\n");
}
