#!/usr/bin/env node
// Installs the platform's published packages for the compat tests (test/compat), apart from
// clanstream's own dependencies: the bot SDK (mezon-sdk) and the web client and its codec
// (mezon-js, mezon-js-protobuf), the oracles of the production wire's dialects. They have their
// own package.json and lockfile; the SDK pulls better-sqlite3, whose native module is built from
// source against this Node's headers.
// Idempotent: does nothing when test/compat/node_modules matches the lockfile and the
// native module loads. Standalone: `node scripts/setup/compat-sdk.mjs`.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = join(root, 'test/compat');
const lockfile = join(dir, 'package-lock.json');
/** Written after a good install: the lockfile's hash, so a changed lockfile reinstalls. */
const stamp = join(dir, 'node_modules/.clanstream-installed');
/** Where Debian's nodejs-dev puts this Node's headers: node-gyp builds against them instead of downloading them. */
const NODE_HEADERS = '/usr/include/node';
/** The packages the compat tests load, each reported with its installed version. */
const PACKAGES = Object.keys(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).devDependencies);

const say = (line) => process.stdout.write(`setup/compat-sdk: ${line}\n`);

function lockHash() {
  return createHash('sha256').update(readFileSync(lockfile)).digest('hex');
}

/** Why an install is needed, or undefined when the installed packages are current and usable. */
function staleness() {
  const missing = PACKAGES.filter((name) => !existsSync(join(dir, 'node_modules', name, 'package.json')));
  if (missing.length > 0) return `${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed`;
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() !== lockHash()) return 'test/compat/package-lock.json changed since the last install';
  // The native module must load in this Node (a Node upgrade needs a rebuild).
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], { cwd: dir, encoding: 'utf8' });
  if (probe.status !== 0) return `better-sqlite3 does not load in Node ${process.version}`;
  return undefined;
}

/** `name version` of every package, as installed. */
function installed() {
  // Read from the folder, not through require: a package whose `exports` leaves out package.json (mmn-client-js) cannot be required for it.
  const version = (name) => JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
  return PACKAGES.map((name) => `${name} ${version(name)}`).join(', ');
}

const reason = staleness();
if (!reason) {
  say(`test/compat is up to date: ${installed()}`);
  process.exit(0);
}
const env = { ...process.env };
if (!env.npm_config_nodedir && existsSync(join(NODE_HEADERS, 'node_version.h'))) env.npm_config_nodedir = '/usr';
say(`${reason}: running npm ci in test/compat${env.npm_config_nodedir ? ` (native modules built against the headers in ${env.npm_config_nodedir})` : ''}; building better-sqlite3 takes a few minutes`);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const install = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: dir, env, stdio: 'inherit' });
if (install.status !== 0) {
  say(`npm ci failed (exit ${install.status ?? install.signal}); the compat tests cannot run without these packages`);
  process.exit(1);
}
writeFileSync(stamp, `${lockHash()}\n`);
const still = staleness();
if (still) {
  say(`installed, but ${still}`);
  process.exit(1);
}
say(`installed in test/compat: ${installed()}`);
