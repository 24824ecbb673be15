import { serve, launch, openFile } from './harness.mjs';
import fs from 'fs';
const { server, base } = await serve();
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const page = await ctx.newPage();
await page.goto(base);
await openFile(page, 'parts.dxbc', fs.readFileSync('/tmp/parts.dxbc'));
await page.waitForTimeout(500);
const cdp = await ctx.newCDPSession(page);
const events = [];
cdp.on('Tracing.dataCollected', (d) => events.push(...d.value));
const done = new Promise((r) => cdp.on('Tracing.tracingComplete', r));
await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.frame,cc,viz,gpu,blink', transferMode: 'ReportEvents' });
const res = await page.evaluate(async (which) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  const settle = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = r; ch.port2.postMessage(0); });
  const el = document.querySelector(which);
  const frames = []; let last = await frame();
  for (let i = 0; i < 150; i++) {
    el.scrollTop += 60; el.dispatchEvent(new Event('scroll')); await settle();
    document.body.offsetHeight;
    const now = await frame(); frames.push(now - last); last = now;
  }
  frames.sort((a, b) => a - b);
  return { p95: frames[Math.floor(0.95 * frames.length)], max: frames[frames.length - 1], med: frames[75] };
}, process.argv[2] || '#hex');
await cdp.send('Tracing.end');
await done;
console.log(JSON.stringify(res));
const threads = {};
for (const e of events) if (e.name === 'thread_name') threads[`${e.pid}:${e.tid}`] = e.args.name;
const agg = {};
for (const e of events) {
  if (e.ph !== 'X' || !e.dur) continue;
  const t = threads[`${e.pid}:${e.tid}`] || e.tid;
  const k = `${t} | ${e.name}`;
  agg[k] = (agg[k] || 0) + e.dur / 1000;
}
Object.entries(agg).sort((a, b) => b[1] - a[1]).slice(0, 30).forEach(([k, v]) => console.log(v.toFixed(1).padStart(8), k));
await browser.close(); server.close();
