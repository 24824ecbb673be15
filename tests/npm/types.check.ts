// Type-checked (never run) by scripts/test-npm.sh with `tsc --noEmit --strict`
// against the package's declarations: the API's types say what it returns.
import { decode, detect, formats, open, type HexNode, type HexDump, type HexTree, type HexLine } from "../../target/npm/node/hexlens.js";

const data = new Uint8Array(8);
const format: string | undefined = detect(data);
const tree: HexTree = decode(data, { scan: false, prefetch: 0 });
const described: HexTree = decode(data, { ksy: "meta: {id: t}\n", imports: { riff: "meta: {id: riff}\n" }, at: 4 });
const root: HexNode = tree.root();
const id: number = root.id;
const parent: number | undefined = root.parent;
const kids: HexNode[] = tree.children(id);
const found: HexNode | undefined = tree.find("Header/Magic");
const value: number | bigint | string | boolean | undefined = found?.value;
const bits: { start: number; end: number } | undefined = root.bits;
const lazy: true | undefined = kids[0]?.lazy;
const dump: HexDump = tree.toJSON();
const errors: string[] = dump.errors.map((e) => `${e.path} ${e.start}-${e.end}: ${e.message}`);
const children = dump.tree.children?.map((c) => c.name);
const names: string[] = formats().map((f) => f.name + f.extensions.join());
const text: string = tree.dumpJSON("Header") + tree.dumpText();
const lines: HexLine[] = tree.listing("Parts/[3]", { dialect: 19, function: "main", name: "x.bc" });
const spans: [number, number][] = lines[0]?.spans ?? [];
const all: string[] = tree.listing().map((l) => `${l.program}:${l.line} ${l.text}`);
const later: Promise<HexTree> = open(new Blob([data]));
tree.free();

// What the types forbid.
// @ts-expect-error: a path is not an id
tree.node("Header");
// @ts-expect-error: no such option
decode(data, { scna: true });
// @ts-expect-error: no such dialect
tree.listing("", { dialect: 15 });
// @ts-expect-error: not an input
decode(42);
// @ts-expect-error: format is read only
tree.format = "raw";

export { format, parent, value, bits, lazy, errors, children, names, text, later };
