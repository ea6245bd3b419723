import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The clanstream package this command runs from. */
export interface PackageRoot {
  path: string;
  version: string;
  /** Installed under node_modules (from a registry or a tarball), rather than a checkout. */
  installed: boolean;
}

/** Walks up from this file (src/cli/init, or dist/ once built) to the package.json named clanstream. */
export function findPackageRoot(from: string = fileURLToPath(import.meta.url)): PackageRoot {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'clanstream') return { path: dir, version: pkg.version ?? '0.0.0', installed: dir.split(sep).includes('node_modules') };
    }
    if (dirname(dir) === dir) throw new Error('cannot find the clanstream package this command runs from');
  }
}
