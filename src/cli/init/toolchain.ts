import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locate, lockClosure, type LockEntry } from './lock-closure.js';

interface Lockfile {
  packages: Record<string, LockEntry>;
}

/** The packages a new project installs besides clanstream: a TypeScript runner, the compiler, Node's types. */
export const TOOLCHAIN = ['tsx', 'typescript', '@types/node'] as const;

/** What a new project installs its toolchain from. */
export interface Toolchain {
  /** name → version (exact when a lockfile pinned them, else the range clanstream itself uses). */
  devDependencies: Record<string, string>;
  /** Lockfile entries (path → entry) of the toolchain and everything it depends on, when known. */
  lockEntries: Record<string, LockEntry> | undefined;
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
  const found: string[] = [];
  for (const name of TOOLCHAIN) {
    const path = lock && locate(lock.packages, '', name);
    devDependencies[name] = (path ? lock.packages[path]!.version : undefined) ?? own.devDependencies?.[name] ?? 'latest';
    if (path) found.push(name);
  }
  if (!lock || found.length < TOOLCHAIN.length) return { devDependencies, lockEntries: undefined };
  return { devDependencies, lockEntries: lockClosure(lock.packages, TOOLCHAIN) };
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
