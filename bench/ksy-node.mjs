// Times Kaitai Struct's own parser for a .ksy, compiled to JavaScript (not in
// debug mode) and run in node: the parse of FILE and every instance read,
// after node has started, the format is compiled and the file is in memory.
// Prints the median of RUNS runs in ms as JSON. The compiler and runtime are
// the test oracle's packages (tests/ksy/oracle, scripts/setup-ksy-oracle.sh):
// used here to measure, never shipped.
//
// node bench/ksy-node.mjs FORMAT.ksy FILE [RUNS]
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../tests/ksy/oracle/package.json', import.meta.url));
const yaml = require('js-yaml');
const compiler = require('kaitai-struct-compiler');
const KaitaiStream = require('kaitai-struct/KaitaiStream');

const [ksy, file, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 5);
const spec = yaml.load(fs.readFileSync(ksy, 'utf8'));
const importer = {
  importYaml: (name) => Promise.resolve(yaml.load(fs.readFileSync(path.join(path.dirname(ksy), name + '.ksy'), 'utf8'))),
};
const files = await compiler.compile('javascript', spec, importer, false);
const cache = new Map();
const load = (name) => {
  if (name === 'kaitai-struct/KaitaiStream') return KaitaiStream;
  const f = name.replace(/^\.\//, '') + '.js';
  if (cache.has(f)) return cache.get(f).exports;
  const module = { exports: {} };
  cache.set(f, module);
  vm.compileFunction(files[f], ['module', 'exports', 'require'], { filename: f })(module, module.exports, load);
  return module.exports;
};
const top = Object.keys(files).find((f) => f.toLowerCase() === spec.meta.id.replace(/_/g, '') + '.js');
const Top = load('./' + top.slice(0, -3))[top.slice(0, -3)];

// Every instance of every object, read (as hexlens's dump reads them).
const getters = new Map();
function instances(obj) {
  const proto = Object.getPrototypeOf(obj);
  if (!getters.has(proto)) {
    getters.set(proto, Object.entries(Object.getOwnPropertyDescriptors(proto)).filter(([, d]) => d.get).map(([k]) => k));
  }
  return getters.get(proto);
}
function force(root) {
  const stack = [root];
  const seen = new Set();
  while (stack.length) {
    const o = stack.pop();
    if (!o || typeof o !== 'object' || seen.has(o)) continue;
    seen.add(o);
    if (Array.isArray(o)) {
      for (const x of o) if (x && typeof x === 'object' && x._io) stack.push(x);
      continue;
    }
    if (!o._io) continue;
    for (const k of instances(o)) {
      try {
        const v = o[k];
        if (v && typeof v === 'object') stack.push(v);
      } catch {
        // A failing instance is an error on its node in hexlens too.
      }
    }
    for (const [k, v] of Object.entries(o)) {
      if (k[0] !== '_' && v && typeof v === 'object') stack.push(v);
    }
  }
}

const bytes = fs.readFileSync(file);
const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
const times = [];
for (let r = 0; r < runs; r++) {
  const t = performance.now();
  const obj = new Top(new KaitaiStream(buf));
  force(obj);
  times.push(performance.now() - t);
}
const first = times[0];
times.sort((a, b) => a - b);
console.log(JSON.stringify({ parse_ms: Number(times[runs >> 1].toFixed(3)), first_ms: Number(first.toFixed(3)), runs }));
