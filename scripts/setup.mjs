#!/usr/bin/env node
// First step of `npm test`: runs every scripts/setup/*.mjs, in name order, each in its own process,
// so a fresh machine gets the programs the suites need (Debian packages installed as root, or the
// exact command printed). A step that fails is reported and the next one runs: setup never fails
// the test run by itself; a suite whose program is still missing says so (and fails in CI).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./setup/', import.meta.url));
// `node scripts/setup.mjs chromium redis` runs only the steps named (their file names without .mjs).
const only = process.argv.slice(2);
const steps = readdirSync(dir)
  .filter((name) => name.endsWith('.mjs') && (only.length === 0 || only.includes(name.slice(0, -'.mjs'.length))))
  .sort();
for (const step of steps) {
  const result = spawnSync(process.execPath, [join(dir, step)], { stdio: 'inherit' });
  if (result.status !== 0) console.log(`setup: step ${step} failed (exit ${result.status ?? result.signal}); going on`);
}
