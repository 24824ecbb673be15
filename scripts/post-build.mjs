#!/usr/bin/env node
// The one trunk post-build hook (Trunk.toml [[hooks]]): runs the build's
// finishing steps one after the other. Trunk 0.21 starts every hook of a stage at
// once and waits for them all, and these steps depend on each other: each
// rewrites index.html, and the last lists and hashes the files the others leave.
//
//   1. minify-assets.mjs: minifies the CSS and the JS bindings, updates their
//      integrity hashes in index.html;
//   2. externalize-scripts.mjs: moves trunk's inline scripts into files;
//   3. offline.mjs: the web app manifest, the icons, the service worker and the
//      script that registers it.
//
// Each step gets trunk's environment (TRUNK_STAGING_DIR, TRUNK_PUBLIC_URL, …);
// the first that fails stops the build with its exit status.

import { spawnSync } from 'node:child_process';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
for (const step of ['minify-assets.mjs', 'externalize-scripts.mjs', 'offline.mjs']) {
  const run = spawnSync(process.execPath, [path.join(here, step)], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`post-build: ${step} failed (${run.error ?? `exit status ${run.status ?? run.signal}`})`);
    process.exit(run.status || 1);
  }
}
