#!/usr/bin/env node
// Test-only oracle: decodes FILE with Kaitai Struct's own compiler (GPL-3.0+,
// used here as a test tool, never shipped) and its JavaScript runtime, and
// prints every field it read with its absolute byte span and value, as JSON.
//
//   node oracle.mjs FORMAT.ksy FILE [--ksy-path DIR]... [--timeout-ms N]
//        [--max-entries N] [--max-output-mb N] [--max-memory-mb N]
//        [--time] [--repeat N]
//
// See README.md beside this file for the output's schema. The decode runs in a
// worker thread so that a hostile input can be stopped by a time limit.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';

const USAGE = `usage: node oracle.mjs FORMAT.ksy FILE [--ksy-path DIR]... [--timeout-ms N]
       [--max-entries N] [--max-output-mb N] [--max-memory-mb N] [--time] [--repeat N]`;

const DEFAULTS = {
    timeoutMs: 20000,
    maxEntries: 2000000,
    maxOutputMb: 256,
    maxMemoryMb: 4096,
    repeat: 1,
    time: false,
};
const HEX_CAP = 4096;

function usage(msg) {
    if (msg) process.stderr.write(`oracle: ${msg}\n`);
    process.stderr.write(USAGE + '\n');
    process.exit(2);
}

function parseArgs(argv) {
    const opts = { ...DEFAULTS, ksyPaths: [] };
    const positional = [];
    const num = (name, v, min) => {
        if (v === undefined || !/^\d+$/.test(v) || Number(v) < min) usage(`${name} needs an integer >= ${min}`);
        return Number(v);
    };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        switch (a) {
            case '--ksy-path': {
                const d = argv[++i];
                if (d === undefined) usage('--ksy-path needs a directory');
                if (!fs.existsSync(d) || !fs.statSync(d).isDirectory()) usage(`--ksy-path ${d}: not a directory`);
                opts.ksyPaths.push(path.resolve(d));
                break;
            }
            case '--timeout-ms': opts.timeoutMs = num(a, argv[++i], 1); break;
            case '--max-entries': opts.maxEntries = num(a, argv[++i], 1); break;
            case '--max-output-mb': opts.maxOutputMb = num(a, argv[++i], 1); break;
            case '--max-memory-mb': opts.maxMemoryMb = num(a, argv[++i], 64); break;
            case '--repeat': opts.repeat = num(a, argv[++i], 1); opts.time = true; break;
            case '--time': opts.time = true; break;
            case '-h': case '--help': process.stdout.write(USAGE + '\n'); process.exit(0); break;
            default:
                if (a.startsWith('--')) usage(`unknown option ${a}`);
                positional.push(a);
        }
    }
    if (positional.length !== 2) usage('expected FORMAT.ksy and FILE');
    const [ksy, file] = positional;
    for (const f of [ksy, file]) {
        if (!fs.existsSync(f) || !fs.statSync(f).isFile()) usage(`${f}: no such file`);
    }
    opts.ksy = path.resolve(ksy);
    opts.file = path.resolve(file);
    return opts;
}

// ---------------------------------------------------------------- main thread

function runMain() {
    const opts = parseArgs(process.argv.slice(2));
    let stage = 'start';
    let finished = false;
    const finish = (text) => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        process.stdout.write(text.endsWith('\n') ? text : text + '\n');
    };
    const worker = new Worker(new URL(import.meta.url), {
        workerData: opts,
        resourceLimits: { maxOldGenerationSizeMb: opts.maxMemoryMb },
        // Anything the worker prints goes to stderr: stdout carries the JSON alone.
        stdout: true,
        stderr: false,
    });
    worker.stdout.pipe(process.stderr);
    const timer = setTimeout(() => {
        const during = stage;
        finish(JSON.stringify({ ok: false, stage: 'timeout', during, timeout_ms: opts.timeoutMs }));
        worker.terminate();
    }, opts.timeoutMs);
    worker.on('message', (m) => {
        if (m.type === 'stage') stage = m.stage;
        else if (m.type === 'done') finish(m.chunks.join(''));
    });
    worker.on('error', (e) => {
        const memory = e && (e.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap/i.test(String(e.message)));
        finish(JSON.stringify({
            ok: false, stage: memory ? 'memory' : 'crash', during: stage, error: errorText(e),
        }));
    });
    worker.on('exit', (code) => {
        if (!finished) finish(JSON.stringify({ ok: false, stage: 'crash', during: stage, error: `worker exited with code ${code}` }));
    });
}

function errorText(e) {
    if (e === null || e === undefined) return String(e);
    if (typeof e === 'object') {
        const msg = typeof e.message === 'string' ? e.message : String(e);
        const name = typeof e.name === 'string' && e.name !== 'Error' ? e.name
            : (e.constructor && e.constructor.name && e.constructor.name !== 'Error' && !e.constructor.name.startsWith('$') ? e.constructor.name : '');
        return name ? `${name}: ${msg}` : msg;
    }
    return String(e);
}

// ---------------------------------------------------------------- worker

// The compiler's naming (io.kaitai.struct.Utils): ids are snake_case in the
// .ksy; the JavaScript target names fields lowerCamelCase, classes UpperCamelCase.
const capitalize = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
function lowerCamelCase(s) {
    if (s.startsWith('_')) return '_' + lowerCamelCase(s.slice(1));
    const [first, ...rest] = s.split('_');
    return first + rest.map(capitalize).join('');
}
function upperCamelCase(s) {
    if (s.startsWith('_')) return '_' + upperCamelCase(s.slice(1));
    return s.split('_').map(capitalize).join('');
}

async function runWorker(opts) {
    const stage = (s) => parentPort.postMessage({ type: 'stage', stage: s });
    const require = createRequire(import.meta.url);
    const result = await decode(opts, stage, require);
    parentPort.postMessage({ type: 'done', chunks: result });
}

async function decode(opts, stage, require) {
    stage('compile');
    let yaml, compiler, KaitaiStream;
    try {
        yaml = require('js-yaml');
        compiler = require('kaitai-struct-compiler');
        KaitaiStream = require('kaitai-struct/KaitaiStream');
    } catch (e) {
        return [JSON.stringify({ ok: false, stage: 'setup', error: `${errorText(e)} (run scripts/setup-ksy-oracle.sh)` })];
    }

    // JS field name -> .ksy id, from every .ksy read (the main one and its imports).
    const idNames = new Map();
    const collectIds = (spec) => {
        if (!spec || typeof spec !== 'object') return;
        if (Array.isArray(spec.seq)) {
            for (const a of spec.seq) {
                if (a && typeof a.id === 'string' && !idNames.has(lowerCamelCase(a.id))) idNames.set(lowerCamelCase(a.id), a.id);
            }
        }
        if (spec.instances && typeof spec.instances === 'object') {
            for (const k of Object.keys(spec.instances)) {
                if (!idNames.has(lowerCamelCase(k))) idNames.set(lowerCamelCase(k), k);
            }
        }
        if (spec.types && typeof spec.types === 'object') {
            for (const t of Object.values(spec.types)) collectIds(t);
        }
    };
    const loadYaml = (file) => {
        const spec = yaml.load(fs.readFileSync(file, 'utf8'), { filename: file });
        collectIds(spec);
        return spec;
    };

    let files;
    let mainSpec;
    try {
        mainSpec = loadYaml(opts.ksy);
        const mainDir = path.dirname(opts.ksy);
        // The compiler resolves the import paths itself: a relative import
        // comes as mode "rel" with a path relative to the main .ksy's folder
        // (it joins the importing file's folder for nested imports); an
        // absolute one ("/common/riff") comes as mode "abs" without the
        // leading slash, as do relative imports made by an absolute-imported file.
        const importer = {
            importYaml(name, mode) {
                try {
                    let candidates;
                    if (mode === 'abs') candidates = opts.ksyPaths.map((d) => path.join(d, name + '.ksy'));
                    else candidates = [path.join(mainDir, name + '.ksy')];
                    const found = candidates.find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
                    if (!found) {
                        const where = mode === 'abs'
                            ? (opts.ksyPaths.length ? `under ${opts.ksyPaths.join(', ')}` : '(no --ksy-path given)')
                            : `at ${candidates[0]}`;
                        throw new Error(`import ${mode === 'abs' ? '/' : ''}${name}: no ${name}.ksy ${where}`);
                    }
                    return Promise.resolve(loadYaml(found));
                } catch (e) {
                    return Promise.reject(e);
                }
            },
        };
        files = await compiler.compile('javascript', mainSpec, importer, true);
    } catch (e) {
        return [JSON.stringify({ ok: false, stage: 'compile', error: errorText(e) })];
    }

    stage('load');
    let Top;
    try {
        Top = loadModules(files, mainSpec, KaitaiStream);
    } catch (e) {
        return [JSON.stringify({ ok: false, stage: 'load', error: errorText(e), files: Object.keys(files) })];
    }

    stage('read');
    const bytes = fs.readFileSync(opts.file);
    const rootBuffer = new ArrayBuffer(bytes.length);
    new Uint8Array(rootBuffer).set(bytes);

    const limits = { maxEntries: opts.maxEntries, maxChars: opts.maxOutputMb * 1024 * 1024 };
    const runs = [];
    let root = null;
    let readError = null;
    let forced = null;
    for (let r = 0; r < opts.repeat; r++) {
        const t0 = performance.now();
        const obj = new Top(new KaitaiStream(rootBuffer), null, null);
        let err = null;
        try {
            obj._read();
        } catch (e) {
            err = e;
        }
        const f = forceAll(obj, limits.maxEntries);
        runs.push(performance.now() - t0);
        root = obj;
        readError = err;
        forced = f;
    }

    stage('walk');
    const out = walk(root, rootBuffer, forced, limits, idNames);
    const head = readError
        ? { ok: false, stage: 'read', error: errorText(readError) }
        : { ok: true };
    head.root = Top.name;
    head.file_size = bytes.length;
    if (out.truncated || forced.truncated) head.truncated = true;
    if (opts.time) {
        const sorted = [...runs].sort((a, b) => a - b);
        const mid = sorted.length >> 1;
        head.parse_ms = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
        head.repeat = opts.repeat;
        head.parse_ms_runs = runs;
    }
    const headText = JSON.stringify(head);
    return [headText.slice(0, -1), ',"fields":[', ...out.chunks, ']}'];
}

// Evaluates the generated UMD modules with a require() that maps
// 'kaitai-struct/KaitaiStream' to the runtime and './Name' to the generated
// file Name.js; returns the top-level class.
function loadModules(files, mainSpec, KaitaiStream) {
    // Count the bit reads (readBitsInt calls readBitsIntBe).
    const bitReads = { n: 0 };
    for (const m of ['readBitsIntBe', 'readBitsIntLe']) {
        const orig = KaitaiStream.prototype[m];
        if (typeof orig !== 'function') continue;
        KaitaiStream.prototype[m] = function (n) {
            bitReads.n++;
            return orig.call(this, n);
        };
    }
    const cache = new Map();
    const requireGenerated = (name) => {
        if (name === 'kaitai-struct/KaitaiStream' || name === 'kaitai-struct') {
            return name === 'kaitai-struct' ? { KaitaiStream } : KaitaiStream;
        }
        const file = (name.startsWith('./') ? name.slice(2) : name) + '.js';
        if (cache.has(file)) return cache.get(file).exports;
        if (!Object.prototype.hasOwnProperty.call(files, file)) {
            throw new Error(`generated code requires '${name}', which the oracle cannot provide (a custom process routine or an opaque type?)`);
        }
        const module = { exports: {} };
        cache.set(file, module);
        const source = instrument(files[file]);
        const fn = vm.compileFunction(source, ['module', 'exports', 'require', '__oracleBitReads'], { filename: `ksy-generated/${file}` });
        fn.call(module.exports, module, module.exports, requireGenerated, bitReads);
        return module.exports;
    };
    const id = mainSpec && mainSpec.meta && mainSpec.meta.id;
    let topName = typeof id === 'string' ? upperCamelCase(id) : null;
    if (!topName || !Object.prototype.hasOwnProperty.call(files, topName + '.js')) {
        // Fall back to the one generated file no other file requires.
        const required = new Set();
        for (const src of Object.values(files)) {
            for (const m of src.matchAll(/require\('\.\/([^']+)'\)/g)) required.add(m[1]);
        }
        const roots = Object.keys(files).filter((f) => f.endsWith('.js') && !required.has(f.slice(0, -3)));
        if (roots.length !== 1) throw new Error(`cannot tell the top-level module among ${Object.keys(files).join(', ')}`);
        topName = roots[0].slice(0, -3);
    }
    const exp = requireGenerated('./' + topName);
    const Top = exp[topName];
    if (typeof Top !== 'function') throw new Error(`${topName}.js does not export ${topName}`);
    return Top;
}

// Debug-mode code records `{ start: IO.pos, ioOffset: IO.byteOffset }` for
// every field and then `DBG.end = IO.pos;`. Add the stream itself (so that an
// instance read through another stream, `io:`, can be placed) and the bits
// left unread in the current byte at both ends, with the count of bit reads
// so far (a field with a bit read between its ends has a bit span).
const IO_EXPR = String.raw`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*`;
function instrument(src) {
    let starts = 0;
    const out = src
        .replace(new RegExp(String.raw`\{ start: (${IO_EXPR})\.pos, ioOffset: \1\.byteOffset \}`, 'g'), (_, io) => {
            starts++;
            return `{ start: ${io}.pos, ioOffset: ${io}.byteOffset, _oracleIo: ${io}, _oracleBits: ${io}.bitsLeft, _oracleBitReads: __oracleBitReads.n }`;
        })
        .replace(new RegExp(String.raw`^(\s*)(this\._debug\..*)\.end = (${IO_EXPR})\.pos;$`, 'gm'),
            (_, ws, dbg, io) => `${ws}${dbg}.end = ${io}.pos; ${dbg}._oracleEndBits = ${io}.bitsLeft; ${dbg}._oracleEndBitReads = __oracleBitReads.n;`);
    if (starts === 0 && /\.end = /.test(src)) throw new Error('generated code does not have the expected debug records (compiler version?)');
    return out;
}

const isStruct = (v) => v !== null && typeof v === 'object' && v._debug !== undefined && v._io !== undefined;

// The instance names of a generated class: getters on its prototype.
const gettersCache = new Map();
function instanceNames(obj) {
    const proto = Object.getPrototypeOf(obj);
    let names = gettersCache.get(proto);
    if (!names) {
        names = [];
        for (const [k, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
            if (k !== 'constructor' && typeof d.get === 'function') names.push(k);
        }
        gettersCache.set(proto, names);
    }
    return names;
}

// Gets every instance of every object reachable from root (what the timed
// part measures besides _read), remembering the instances that threw.
function forceAll(root, maxObjects) {
    const errors = new Map(); // obj -> Map(name -> error)
    const seen = new Set([root]);
    const stack = [root];
    let truncated = false;
    const push = (v) => {
        if (isStruct(v)) {
            if (!seen.has(v)) {
                if (seen.size >= maxObjects) { truncated = true; return; }
                seen.add(v);
                stack.push(v);
            }
        } else if (Array.isArray(v)) {
            for (const e of v) if (isStruct(e)) push(e);
        }
    };
    while (stack.length) {
        const obj = stack.pop();
        for (const k of Object.keys(obj._debug)) {
            if (!k.startsWith('_m_')) push(obj[k]);
        }
        for (const name of instanceNames(obj)) {
            let v;
            try {
                v = obj[name];
            } catch (e) {
                let m = errors.get(obj);
                if (!m) errors.set(obj, (m = new Map()));
                m.set(name, e);
                v = obj['_m_' + name];
            }
            push(v);
        }
    }
    return { errors, truncated };
}

// Where streams lie: each backing ArrayBuffer has regions; a region maps
// buffer offsets to file offsets (`decoded: false`) or to offsets inside a
// processed buffer (`decoded: true`, with the file span it was decoded from).
class Places {
    constructor(rootBuffer) {
        this.rootBuffer = rootBuffer;
        this.regions = new Map([[rootBuffer, [{ lo: 0, hi: rootBuffer.byteLength, base: 0, decoded: false, from: null }]]]);
        this.streams = new Map(); // KaitaiStream -> { coord, decoded, from }
    }
    region(buffer, off) {
        const list = this.regions.get(buffer);
        if (!list) return null;
        for (let i = list.length - 1; i >= 0; i--) {
            const r = list[i];
            if (off >= r.lo && off <= r.hi) return r;
        }
        return null;
    }
    // Placement of a stream, or null when it is not known.
    of(io) {
        let p = this.streams.get(io);
        if (p) return p;
        const r = this.region(io._buffer, io.byteOffset);
        if (!r) return null;
        p = { coord: r.base + (io.byteOffset - r.lo), decoded: r.decoded, from: r.from };
        this.streams.set(io, p);
        return p;
    }
    // A stream `child` created for a field read from `parent` at [start, end):
    // the runtime makes substreams as views of the parent's buffer (placed by
    // `of`); a field with `terminator`/`pad-right` gets a copy of a prefix of
    // its bytes, and a `process`ed one a buffer of its own (decoded).
    discover(child, parent, start, end) {
        if (this.of(child) || typeof start !== 'number') return;
        const pp = this.of(parent);
        const size = child.size;
        const lo = child.byteOffset;
        const region = { lo, hi: lo + size, base: 0, decoded: true, from: null };
        if (pp && typeof start === 'number') {
            const c = pp.coord + start;
            const avail = Math.max(0, parent.size - start);
            let same = size <= avail;
            if (same) {
                const a = new Uint8Array(child._buffer, lo, size);
                const b = new Uint8Array(parent._buffer, parent.byteOffset + start, size);
                for (let i = 0; i < size; i++) if (a[i] !== b[i]) { same = false; break; }
            }
            if (same) {
                Object.assign(region, { base: c, decoded: pp.decoded, from: pp.from });
            } else {
                region.from = pp.decoded ? pp.from : { start: c, end: typeof end === 'number' ? pp.coord + end : null };
            }
        }
        let list = this.regions.get(child._buffer);
        if (!list) this.regions.set(child._buffer, (list = []));
        list.push(region);
    }
}

function valueOf(v, entry) {
    switch (typeof v) {
        case 'number':
            if (Number.isNaN(v)) return 'NaN';
            if (v === Infinity) return 'Infinity';
            if (v === -Infinity) return '-Infinity';
            if (Number.isInteger(v) && !Number.isSafeInteger(v)) entry.unsafe = true;
            return v;
        case 'bigint':
            if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) entry.unsafe = true;
            return Number(v);
        case 'boolean':
        case 'string':
            return v;
        case 'undefined':
            return null;
        case 'object': {
            if (v === null) return null;
            if (v instanceof Uint8Array) {
                const n = v.length;
                const hex = Buffer.from(v.buffer, v.byteOffset, Math.min(n, HEX_CAP)).toString('hex');
                return n > HEX_CAP ? { hex_prefix: hex, len: n } : { hex };
            }
            if (Array.isArray(v)) return { array: v.length };
            if (isStruct(v)) return { struct: true, type: v.constructor && v.constructor.name };
            if (typeof v.readU1 === 'function' && typeof v.seek === 'function') return { stream: true };
            return { other: String(v) };
        }
        default:
            return { other: String(v) };
    }
}

// Reports every field, element and instance reachable from root, depth first
// in read order (seq fields in the order read, then the instances).
function walk(root, rootBuffer, forced, limits, idNames) {
    const places = new Places(rootBuffer);
    const nameOf = (k) => idNames.get(k) ?? k;

    // Which stream each debug record's positions are in.
    const ioOf = (obj, dbg) => (dbg && dbg._oracleIo) || obj._io;

    // Pass 1: place every stream (in walk order, so that an `io:` instance
    // whose stream is found later is still placed).
    {
        const seen = new Set([root]);
        const stack = [root];
        const see = (obj, v, dbg) => {
            if (isStruct(v)) {
                if (v._io !== ioOf(obj, dbg)) places.discover(v._io, ioOf(obj, dbg), dbg && dbg.start, dbg && dbg.end);
                if (!seen.has(v) && seen.size < limits.maxEntries) { seen.add(v); stack.push(v); }
            }
        };
        while (stack.length) {
            const obj = stack.pop();
            const items = [];
            for (const k of Object.keys(obj._debug)) {
                const dbg = obj._debug[k];
                items.push([obj[k], dbg]);
            }
            const reversed = [];
            for (const [v, dbg] of items) {
                if (Array.isArray(v)) {
                    v.forEach((e, i) => reversed.push([e, dbg && dbg.arr && dbg.arr[i]]));
                } else reversed.push([v, dbg]);
            }
            for (let i = reversed.length - 1; i >= 0; i--) see(obj, reversed[i][0], reversed[i][1]);
        }
    }

    // Pass 2: report.
    const chunks = [];
    let chunk = '';
    let chars = 0;
    let count = 0;
    let truncated = false;
    const emit = (entry) => {
        if (count >= limits.maxEntries) { truncated = true; return false; }
        const s = (count ? ',' : '') + JSON.stringify(entry);
        if (chars + s.length > limits.maxChars) { truncated = true; return false; }
        count++;
        chars += s.length;
        chunk += s;
        if (chunk.length > (1 << 20)) { chunks.push(chunk); chunk = ''; }
        return true;
    };
    const span = (obj, dbg, entry) => {
        const io = ioOf(obj, dbg);
        const p = io ? places.of(io) : null;
        const has = (x) => typeof x === 'number';
        const hasSpan = dbg && (has(dbg.start) || has(dbg.end));
        if (!hasSpan) {
            entry.start = null;
            entry.end = null;
            entry.decoded = p ? p.decoded : false;
            return;
        }
        const base = p ? p.coord : 0;
        entry.start = has(dbg.start) ? base + dbg.start : null;
        entry.end = has(dbg.end) ? base + dbg.end : null;
        entry.decoded = p ? p.decoded : true;
        if (p && p.decoded && p.from) entry.decoded_from = p.from;
        if (!p) entry.unplaced = true;
        if (!has(dbg.end)) entry.incomplete = true;
        // Bit fields: the runtime's pos has already moved past a partly read
        // byte; the span in bits is pos * 8 - bitsLeft at both ends, for a
        // field that made bit reads (a byte read leaves bitsLeft as it was).
        const sb = dbg._oracleBits || 0;
        const eb = dbg._oracleEndBits || 0;
        const bitRead = dbg._oracleEndBitReads !== undefined && dbg._oracleEndBitReads !== dbg._oracleBitReads;
        if (bitRead && (sb || eb)) {
            entry.bit_start = entry.start === null ? null : entry.start * 8 - sb;
            entry.bit_end = entry.end === null ? null : entry.end * 8 - eb;
        }
    };

    // Depth first, in read order: a generator per object yields its entries
    // and asks to descend into each struct right after the struct's entry.
    const visited = new Set([root]);
    function* entriesOf(obj, prefix) {
        const dbgAll = obj._debug || {};
        const fields = [];
        for (const k of Object.keys(dbgAll)) {
            if (!k.startsWith('_m_')) fields.push({ key: k, instance: false });
        }
        for (const name of instanceNames(obj)) fields.push({ key: name, instance: true });
        const errs = forced.errors.get(obj);
        for (const f of fields) {
            const p = [...prefix, nameOf(f.key)];
            let v;
            let error = f.instance && errs ? errs.get(f.key) : undefined;
            if (f.instance) {
                if (error === undefined) {
                    try { v = obj[f.key]; } catch (e) { error = e; }
                }
                if (error !== undefined) v = obj['_m_' + f.key];
            } else {
                v = obj[f.key];
            }
            const dbg = dbgAll[f.instance ? '_m_' + f.key : f.key];
            const entry = { path: p, start: null, end: null, value: null, instance: f.instance, decoded: false };
            span(obj, dbg, entry);
            entry.value = valueOf(v, entry);
            if (error !== undefined) entry.error = errorText(error);
            const descend = isStruct(v) && !visited.has(v);
            if (isStruct(v) && !descend) entry.value.ref = true;
            yield entry;
            if (descend) {
                visited.add(v);
                yield { descend: v, path: p };
            } else if (Array.isArray(v)) {
                for (let i = 0; i < v.length; i++) {
                    const e = v[i];
                    const ed = dbg && dbg.arr && dbg.arr[i] ? dbg.arr[i] : (dbg && dbg._oracleIo ? { _oracleIo: dbg._oracleIo } : undefined);
                    const ep = [...p, `[${i}]`];
                    const ee = { path: ep, start: null, end: null, value: null, instance: f.instance, decoded: false };
                    span(obj, ed, ee);
                    ee.value = valueOf(e, ee);
                    const d = isStruct(e) && !visited.has(e);
                    if (isStruct(e) && !d) ee.value.ref = true;
                    yield ee;
                    if (d) {
                        visited.add(e);
                        yield { descend: e, path: ep };
                    }
                }
            }
        }
    }
    const stack = [entriesOf(root, [])];
    while (stack.length) {
        const r = stack[stack.length - 1].next();
        if (r.done) { stack.pop(); continue; }
        if (r.value.descend) { stack.push(entriesOf(r.value.descend, r.value.path)); continue; }
        if (!emit(r.value)) break;
    }
    if (chunk) chunks.push(chunk);
    return { chunks, truncated };
}

if (isMainThread) {
    runMain();
} else {
    runWorker(workerData).catch((e) => {
        parentPort.postMessage({ type: 'done', chunks: [JSON.stringify({ ok: false, stage: 'crash', error: errorText(e) })] });
    });
}
