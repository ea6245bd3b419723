/** The package as npm would publish it, for the tests that install it. */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packPackage, type PackedTarball } from '../../src/cli/init/pack.js';

const run = promisify(execFile);

function newest(dir: string): number {
  let found = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    found = Math.max(found, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return found;
}

/**
 * Builds dist/ (as `npm run build` does) only when a source file is newer
 * than it. Under `npm test`, lint's API check has built it already, so no
 * suite rebuilds dist/ (tsup empties it first) while another reads or packs it.
 */
export async function ensureBuilt(root: string): Promise<void> {
  const built = join(root, 'dist', 'index.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(root, 'src'))) return;
  await run(process.execPath, [join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js'), '--silent'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
}

/** Packs the package at `root` into `destination` with `npm pack`, scripts off, from a dist/ that is up to date. */
export async function packBuilt(root: string, destination: string): Promise<PackedTarball> {
  await ensureBuilt(root);
  return packPackage(root, destination);
}
