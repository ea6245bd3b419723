import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { lockClosure, type LockEntry } from '../../src/cli/init/lock-closure.js';

const run = promisify(execFile);

/** What `npm pack --json` says of the tarball. */
export interface PackedTarball {
  filename: string;
  integrity: string;
  version: string;
}

/**
 * Installs a packed clanstream tarball and its peer rxjs into `dir` with no
 * network: a lockfile is written for them from this repository's own (same
 * versions and integrity hashes), and `npm ci --offline` takes every package
 * from the npm cache that installing this repository filled.
 */
export async function installOffline(root: string, dir: string, tarball: PackedTarball, peers: Record<string, string>): Promise<void> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  const packages: Record<string, LockEntry> = {};
  // Here they are the project's own dependencies: not dev, devOptional or peer as in this repository's lock.
  for (const [path, { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry }] of Object.entries(lockClosure(lock.packages, [...Object.keys(manifest.dependencies), ...Object.keys(peers)]))) {
    packages[path] = entry;
  }
  const dependencies = { clanstream: `file:${tarball.filename}`, ...peers };
  packages['node_modules/clanstream'] = {
    version: tarball.version,
    resolved: `file:${tarball.filename}`,
    integrity: tarball.integrity,
    dependencies: manifest.dependencies,
    peerDependencies: manifest.peerDependencies,
    // Optional peers (ioredis, for clanstream/scale only) are not installed unless the project asks for them.
    ...(manifest.peerDependenciesMeta ? { peerDependenciesMeta: manifest.peerDependenciesMeta } : {}),
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'installed', private: true, dependencies }, null, 2));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'installed', lockfileVersion: 3, requires: true, packages: { '': { name: 'installed', dependencies }, ...packages } }, null, 2));
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
}
