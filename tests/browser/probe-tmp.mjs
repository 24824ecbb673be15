import { serve, launch, openFile, waitForFile } from './harness.mjs';
import fs from 'fs';
const file = process.argv[2];
const { server, base } = await serve();
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: 1400, height: 900 } });
const page = await ctx.newPage();
await page.goto(base);
await page.locator('input[type=file]').first().setInputFiles(file);
await page.waitForFunction(() => document.querySelector('[role=tree] [role=treeitem]') && document.querySelector('#tree')?.dataset.decoded === 'true', null, { timeout: 120000 });
const mem = () => page.evaluate(() => window.wasmBindings.debug_memory());
console.log('open', JSON.stringify(await mem()));
for (let step = 0; step < 14; step++) {
  const r = await page.evaluate(async () => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
    const size = (r) => Number(r.dataset.end) - Number(r.dataset.start);
    const closed = [...document.querySelectorAll('.trow[aria-expanded=false]')];
    if (!closed.length) return null;
    const row = closed.reduce((a, b) => (size(b) > size(a) ? b : a));
    const id = row.dataset.id; const lazy = row.classList.contains('lazy');
    const name = `${row.dataset.path} (${size(row)} bytes)`;
    const t0 = performance.now();
    row.querySelector('.twisty').dispatchEvent(new MouseEvent('click', { bubbles: true }));
    for (let i = 0; i < 6000; i++) { await frame(); const r = document.querySelector(`.trow[data-id="${id}"]`); if (r && !r.classList.contains('lazy') && r.getAttribute('aria-expanded') === 'true') break; }
    return { name, lazy, ms: Math.round(performance.now() - t0) };
  });
  if (!r) break;
  const m = await mem();
  console.log(step, JSON.stringify(r), 'worker MiB', (m.workerWasm / 2 ** 20).toFixed(1));
}
await browser.close(); server.close();
