// What a visit transfers, as a browser sees it: the release build served
// statically to headless Chromium with service workers blocked (the worker's
// install stores the whole build for offline use in the background, after the
// page has loaded: not part of what a visit needs), every file the page and its
// workers fetch counted as its body compressed by `gzip -9` (the gzip program:
// node's zlib gives other sizes). Used by bench/transfer.mjs and budgets.test.mjs.
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { launch, PREFIX, serve } from './harness.mjs';

/** The budgets: before a file is chosen, and with a file open. */
export const FIRST_VISIT_BUDGET = 150_000;
export const VISIT_BUDGET = 350_000;

/** Bytes of `gzip -9` of a file. */
export const gzip9 = (f) => spawnSync('gzip', ['-9', '-c', f], { maxBuffer: 1 << 30 }).stdout.length;

/**
 * Loads the page from `dist`, then opens the bundled sample `sample` from the
 * first page's list. Returns the files fetched before a file was chosen and
 * those opening the sample added, each `{file, gzip}`.
 */
export async function measureTransfer(dist, sample) {
  const site = await serve({ dist });
  const browser = await launch();
  try {
    const fetched = (p) => {
      const file = p.slice(PREFIX.length) || 'index.html';
      return { file, gzip: gzip9(path.join(dist, file)) };
    };
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(site.base);
    await page.locator(`#sample-list .sample[data-file="${sample}"]`).waitFor();
    await page.waitForTimeout(1500);
    const before = site.served.splice(0).map(fetched);
    await page.click(`#sample-list .sample[data-file="${sample}"]`);
    await page.waitForFunction(() => performance.getEntriesByName('hexlens:decoded').length > 0, null, { timeout: 60000 });
    await page.waitForTimeout(1500);
    const opened = site.served.splice(0).map(fetched);
    return { before, opened };
  } finally {
    await browser.close();
    site.server.close();
  }
}

/** Total gzip bytes of a list `measureTransfer` gave. */
export const total = (l) => l.reduce((a, r) => a + r.gzip, 0);
