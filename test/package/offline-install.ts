import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LockEntry } from '../../src/cli/init/lock-closure.js';
import type { PackedTarball } from '../../src/cli/init/pack.js';
import { projectLockfile } from '../../src/cli/init/project-lockfile.js';
import type { ClanstreamManifest } from '../../src/cli/init/project-packages.js';

const run = promisify(execFile);

export type { PackedTarball };

/**
 * Installs a packed clanstream tarball and its peer rxjs into `dir` with no
 * network: the lockfile `clanstream init` writes for a project is written for
 * them from this repository's own (same versions and integrity hashes), and
 * `npm ci --offline` takes every package from the npm cache that installing
 * this repository filled.
 */
export async function installOffline(root: string, dir: string, tarball: PackedTarball, peers: Record<string, string>): Promise<void> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as ClanstreamManifest;
  const dependencies = { clanstream: `file:${tarball.filename}`, ...peers };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'installed', private: true, dependencies }, null, 2));
  writeFileSync(
    join(dir, 'package-lock.json'),
    projectLockfile({
      name: 'installed',
      dependencies,
      source: lock.packages,
      clanstream: { resolved: `file:${tarball.filename}`, integrity: tarball.integrity, manifest: { ...manifest, version: tarball.version } },
    }),
  );
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 });
}
