// Hex pane scrolling, several runs: the per-step work and the frame intervals of
// bench/browser.mjs's scroll measure (150 steps of three rows, one per animation
// frame), on a file whose tree has about 1,000,000 nodes, in headless Chromium.
//
//   node bench/scroll.mjs [--runs 5] [--profile FILE.json]
//
// Serves HEXLENS_DIST (default target/bench-dist: build it first, as
// bench/browser.mjs does without --no-build) and prints, per run and as the
// median over the runs: the work of a step (scroll event → rows drawn and laid
// out; p95 and worst), the frame intervals (median, p95, worst; measured when
// each frame's callback ran, so they include its timing jitter) and how many
// intervals passed 25 ms (dropped frames), and the intervals between the frames'
// own time stamps (the argument of requestAnimationFrame's callback). --profile writes a CPU profile of the
// last run's steps (Chrome DevTools format) and prints the functions with the
// most self time (names where the page's wasm keeps them).
import { launch, serve } from '../tests/browser/harness.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeParts } from './gen-inputs.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const opt = (f, d) => (args.includes(f) ? args[args.indexOf(f) + 1] : d);
const DIST = path.resolve(process.env.HEXLENS_DIST || path.join(ROOT, 'target/bench-dist'));
const RUNS = Number(opt('--runs', '5'));
const PROFILE = opt('--profile', null);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hexlens-scroll-'));
const file = path.join(tmp, 'parts-1m.dxbc');
writeParts(file, 166667);

const site = await serve({ dist: DIST });
const base = site.base;
const browser = await launch();

async function run(profile) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(base);
  await page.waitForSelector('input[type=file]', { state: 'attached' });
  await page.setInputFiles('input[type=file]', file);
  await page.waitForFunction(() => performance.getEntriesByName('hexlens:decoded').length > 0, null, { timeout: 600000, polling: 50 });
  await page.waitForSelector('#hex .hrow:not(.pending) .c');
  await page.waitForTimeout(500);
  let cdp;
  if (profile && process.env.TRACE) await browser.startTracing(page, { path: profile + '.trace', categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'benchmark'] });
  if (profile) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
  }
  const stats = await page.evaluate(async () => {
    // Each frame's callback: when it ran, and the frame's own time stamp.
    const stamps = [];
    const frame = () => new Promise((r) => requestAnimationFrame((ts) => { stamps.push(ts); r(performance.now()); }));
    const settle = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = r; ch.port2.postMessage(0); });
    const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
    const layout = () => document.getElementById('hex').getBoundingClientRect().height + document.body.offsetHeight;
    const el = document.getElementById('hex');
    const work = [];
    const frames = [];
    let last = await frame();
    for (let i = 0; i < 150; i++) {
      const t = performance.now();
      el.scrollTop += 60;
      el.dispatchEvent(new Event('scroll'));
      await settle();
      layout();
      work.push(performance.now() - t);
      const now = await frame();
      frames.push(now - last);
      last = now;
    }
    return {
      workP95: pct(work, 0.95), workMax: Math.max(...work),
      frameMedian: pct(frames, 0.5), frameP95: pct(frames, 0.95), frameMax: Math.max(...frames),
      dropped: frames.filter((f) => f > 25).length,
      stampP95: pct(stamps.slice(1).map((t, i) => t - stamps[i]), 0.95),
      stampMax: Math.max(...stamps.slice(1).map((t, i) => t - stamps[i])),
      rows: document.querySelectorAll('#hex .hrow').length,
    };
  });
  if (profile && process.env.TRACE) await browser.stopTracing();
  if (profile) {
    const { profile: prof } = await cdp.send('Profiler.stop');
    fs.writeFileSync(profile, JSON.stringify(prof));
    const self = new Map();
    const dt = prof.timeDeltas;
    const byId = new Map(prof.nodes.map((n) => [n.id, n]));
    prof.samples.forEach((id, i) => {
      const n = byId.get(id);
      const name = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}`;
      self.set(name, (self.get(name) || 0) + (dt[i] || 0) / 1000);
    });
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    console.log(`profile: ${total.toFixed(0)} ms sampled; most self time:`);
    for (const [n, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${t.toFixed(1).padStart(8)} ms  ${n.slice(0, 150)}`);
  }
  await page.close();
  return stats;
}

const f1 = (v) => v.toFixed(1);
const all = [];
for (let i = 0; i < RUNS; i++) {
  const s = await run(PROFILE && i === RUNS - 1 ? PROFILE : null);
  all.push(s);
  console.log(`run ${i + 1}: step work p95 ${f1(s.workP95)} ms, worst ${f1(s.workMax)} ms; frames median ${f1(s.frameMedian)}, p95 ${f1(s.frameP95)}, worst ${f1(s.frameMax)} ms; ${s.dropped} of 150 over 25 ms; frame stamps p95 ${f1(s.stampP95)}, worst ${f1(s.stampMax)} ms (${s.rows} rows in the DOM)`);
}
const med = (k) => { const v = all.map((s) => s[k]).sort((a, b) => a - b); return v[Math.floor(v.length / 2)]; };
console.log(`median of ${RUNS} runs: step work p95 ${f1(med('workP95'))} ms, worst ${f1(med('workMax'))} ms; frames p95 ${f1(med('frameP95'))} ms, worst ${f1(med('frameMax'))} ms; ${med('dropped')} of 150 over 25 ms; frame stamps p95 ${f1(med('stampP95'))} ms, worst ${f1(med('stampMax'))} ms`);
await browser.close();
site.server.close();
fs.rmSync(tmp, { recursive: true, force: true });
