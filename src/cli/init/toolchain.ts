import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The packages a new project installs besides clanstream: a TypeScript runner, the compiler, Node's types. */
export const TOOLCHAIN = ['tsx', 'typescript', '@types/node'] as const;

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
}

/** What a new project installs its toolchain from. */
export interface Toolchain {
  /** name → version (exact when a lockfile pinned them, else the range clanstream itself uses). */
  devDependencies: Record<string, string>;
  /** Lockfile entries (path → entry) of the toolchain and everything it depends on, when known. */
  lockEntries: Record<string, LockEntry> | undefined;
}

/** The lock entry a package at `from` resolves `name` to, as Node looks it up: nested first, then hoisted. */
function locate(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let dir = from; ; ) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}

/**
 * The toolchain of clanstream's own checkout: the exact versions its
 * package-lock.json holds, with the entries of everything they depend on,
 * so a new project installs them offline from the cache `npm ci` filled.
 * Without a lockfile (an installed package), the ranges of its package.json.
 */
export function toolchainOf(packageRoot: string): Toolchain {
  const own = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const lockPath = join(packageRoot, 'package-lock.json');
  const lock = existsSync(lockPath) ? (JSON.parse(readFileSync(lockPath, 'utf8')) as Lockfile) : undefined;
  const devDependencies: Record<string, string> = {};
  const lockEntries: Record<string, LockEntry> = {};
  const queue: string[] = [];
  for (const name of TOOLCHAIN) {
    const path = lock && locate(lock.packages, '', name);
    const version = path ? lock.packages[path]!.version : undefined;
    devDependencies[name] = version ?? own.devDependencies?.[name] ?? 'latest';
    if (path) queue.push(path);
  }
  if (!lock || queue.length < TOOLCHAIN.length) return { devDependencies, lockEntries: undefined };
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (lockEntries[path]) continue;
    const entry = lock.packages[path]!;
    lockEntries[path] = entry;
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = locate(lock.packages, path, dep);
      // A platform package this lockfile never resolved (another OS) is optional: npm skips it too.
      if (found) queue.push(found);
    }
  }
  return { devDependencies, lockEntries };
}

/** A package-lock.json holding the toolchain only; npm adds clanstream (a link or a tarball) when it installs. */
export function partialLockfile(name: string, facts: { clanstream: string; devDependencies: Record<string, string> }, entries: Record<string, LockEntry>): string {
  const lock = {
    name,
    version: '0.1.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name, version: '0.1.0', dependencies: { clanstream: facts.clanstream }, devDependencies: facts.devDependencies },
      ...entries,
    },
  };
  return `${JSON.stringify(lock, null, 2)}\n`;
}
