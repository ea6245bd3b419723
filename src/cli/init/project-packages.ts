import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { locate, type LockEntry } from './lock-closure.js';

/**
 * What a new project installs besides clanstream: rxjs, the peer the bot and
 * `rxjs/testing` import (one copy, shared with clanstream); vitest, the runner
 * of its tests and of the library's own marble helpers; the compiler, a
 * TypeScript runner and Node's types.
 */
export const PROJECT_PACKAGES = {
  dependencies: ['rxjs'],
  devDependencies: ['vitest', 'typescript', 'tsx', '@types/node'],
} as const;

/** The manifest fields of clanstream that a project's lockfile repeats. */
export interface ClanstreamManifest {
  version: string;
  /** Commands it installs (`clanstream`): npm links them from what the lockfile says. */
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
}

/** The versions a new project gets, and the lockfile they come from when there is one. */
export interface ProjectVersions {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  /** The `packages` of clanstream's own package-lock.json, when it has every package above (a checkout). */
  lock: Readonly<Record<string, LockEntry>> | undefined;
  manifest: ClanstreamManifest;
}

/**
 * The versions of a checkout's package-lock.json (rxjs as a `^` range, the
 * toolchain exactly), so a new project installs them offline from the npm
 * cache `npm ci` filled. Without a lockfile (an installed package), the
 * ranges of clanstream's package.json: the project then installs online.
 */
export function projectVersions(packageRoot: string): ProjectVersions {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as ClanstreamManifest;
  const lockPath = join(packageRoot, 'package-lock.json');
  const packages = existsSync(lockPath) ? (JSON.parse(readFileSync(lockPath, 'utf8')) as { packages: Record<string, LockEntry> }).packages : undefined;
  const locked = (name: string): string | undefined => {
    const path = packages && locate(packages, '', name);
    return path ? packages[path]!.version : undefined;
  };
  const dependencies: Record<string, string> = {};
  const devDependencies: Record<string, string> = {};
  let complete = packages !== undefined;
  for (const name of PROJECT_PACKAGES.dependencies) {
    const version = locked(name);
    complete &&= version !== undefined;
    dependencies[name] = version ? `^${version}` : (manifest.peerDependencies?.[name] ?? 'latest');
  }
  for (const name of PROJECT_PACKAGES.devDependencies) {
    const version = locked(name);
    complete &&= version !== undefined;
    devDependencies[name] = version ?? manifest.devDependencies?.[name] ?? 'latest';
  }
  return { dependencies, devDependencies, lock: complete ? packages : undefined, manifest };
}
