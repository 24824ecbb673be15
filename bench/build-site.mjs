// Builds the release site into `dist` as scripts/test-browser.sh does (the web
// tools installed first): for the browser benchmarks.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export function buildSite(dist) {
  const env = {
    ...process.env,
    PATH: `${ROOT}/tests/browser/node_modules/.bin:${os.homedir()}/.cargo/bin:${process.env.PATH}`,
    TRUNK_SKIP_VERSION_CHECK: 'true',
  };
  execFileSync(path.join(ROOT, 'scripts/setup-web.sh'), ['--browser'], { stdio: 'inherit', env });
  execFileSync('trunk', ['build', '--release', '--public-url', './', '--dist', dist], { stdio: 'inherit', env, cwd: ROOT });
}
