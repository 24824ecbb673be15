#!/usr/bin/env bash
# Installs the npm packages of the Kaitai Struct test oracle (tests/ksy/oracle:
# kaitai-struct-compiler, the kaitai-struct JavaScript runtime, js-yaml) with
# `npm ci`, exactly as its package-lock.json pins them; skips the install when
# tests/ksy/oracle/node_modules already holds every locked package at its
# locked version (safe to run every time). Needs node and npm (Node.js 18+).
# The compiler is GPL-3.0+: the oracle is a test tool, never shipped.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="$ROOT/tests/ksy/oracle"

say() { printf '\033[1;34m[setup-ksy-oracle]\033[0m %s\n' "$*"; }

command -v node >/dev/null || { echo "node is missing: install Node.js 18+" >&2; exit 1; }
command -v npm >/dev/null || { echo "npm is missing: install Node.js 18+" >&2; exit 1; }
NODE_MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
[ "$NODE_MAJOR" -ge 18 ] || { echo "setup-ksy-oracle: Node.js 18+ needed, found $(node --version)" >&2; exit 1; }

# Exit 0 when every package in the lock is installed at its locked version.
up_to_date() {
    node - "$DIR" <<'JS'
const fs = require('fs');
const path = require('path');
const dir = process.argv[2];
const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
for (const [where, pkg] of Object.entries(lock.packages || {})) {
    if (!where) continue;
    try {
        const got = JSON.parse(fs.readFileSync(path.join(dir, where, 'package.json'), 'utf8')).version;
        if (got !== pkg.version) process.exit(1);
    } catch {
        process.exit(1);
    }
}
JS
}

if up_to_date; then
    say "up to date: $(cd "$DIR" && node -p "require('kaitai-struct-compiler/package.json').version") compiler in tests/ksy/oracle/node_modules"
    exit 0
fi

LOGS="$ROOT/target/setup-ksy-oracle"
mkdir -p "$LOGS"
say "installing tests/ksy/oracle's npm packages (log: target/setup-ksy-oracle/npm-ci.log)"
if ! (cd "$DIR" && npm ci --no-audit --no-fund --loglevel=error) >"$LOGS/npm-ci.log" 2>&1; then
    echo "setup-ksy-oracle: npm ci failed; the end of its log:" >&2
    tail -n 30 "$LOGS/npm-ci.log" >&2
    exit 1
fi
up_to_date || { echo "setup-ksy-oracle: node_modules still differs from package-lock.json" >&2; exit 1; }
say "ready: kaitai-struct-compiler $(cd "$DIR" && node -p "require('kaitai-struct-compiler/package.json').version")"
