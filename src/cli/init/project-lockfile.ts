import { lockClosure, type LockEntry } from './lock-closure.js';
import type { ClanstreamManifest } from './project-packages.js';

/** clanstream as a packed tarball, which the project's lockfile names. */
export interface PackedClanstream {
  /** `file:…` as the project's package.json depends on it. */
  resolved: string;
  integrity: string;
  manifest: ClanstreamManifest;
}

/** What a project's package-lock.json is made of. */
export interface ProjectLockInput {
  name: string;
  /** The project's dependencies, clanstream among them. */
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
  /** The `packages` of a package-lock.json that holds every package needed (clanstream's own): versions and integrity come from it. */
  source: Readonly<Record<string, LockEntry>>;
  /** clanstream as a tarball, with the entries of its dependencies; left out, npm resolves clanstream when it installs. */
  clanstream?: PackedClanstream;
}

/**
 * A package-lock.json (version 3) for a project: the entries of its
 * packages and of everything they depend on, copied from `source` with the
 * same versions and integrity hashes, so `npm ci --offline` or
 * `npm install --offline` takes each one from the npm cache that installing
 * `source`'s project filled. With `clanstream`, the tarball and clanstream's
 * own dependencies are in it too, and clanstream is a real folder of the
 * project: its peer rxjs resolves to the project's one copy.
 */
export function projectLockfile(input: ProjectLockInput): string {
  const { name, dependencies, devDependencies = {}, source, clanstream } = input;
  const wanted = [...Object.keys(dependencies).filter((dependency) => dependency !== 'clanstream'), ...Object.keys(devDependencies)];
  if (clanstream) wanted.push(...Object.keys(clanstream.manifest.dependencies ?? {}));
  const packages: Record<string, LockEntry> = {};
  // What was dev-only, peer or devOptional where they come from is the project's own here; npm sets these flags again as it installs.
  for (const [path, { dev: _dev, devOptional: _devOptional, peer: _peer, ...entry }] of Object.entries(lockClosure(source, wanted))) packages[path] = entry;
  if (clanstream) {
    const { version, bin, dependencies: needs, peerDependencies, peerDependenciesMeta } = clanstream.manifest;
    packages['node_modules/clanstream'] = {
      version,
      resolved: clanstream.resolved,
      integrity: clanstream.integrity,
      // npm links node_modules/.bin/clanstream (`npm run emulator`) from this, not from the tarball.
      ...(bin ? { bin: Object.fromEntries(Object.entries(bin).map(([name, path]) => [name, path.replace(/^\.\//, '')])) } : {}),
      ...(needs ? { dependencies: needs } : {}),
      ...(peerDependencies ? { peerDependencies } : {}),
      // Optional peers (ioredis, for clanstream/scale only) are not installed unless the project asks for them.
      ...(peerDependenciesMeta ? { peerDependenciesMeta } : {}),
    };
  }
  const root = { name, dependencies, ...(Object.keys(devDependencies).length > 0 ? { devDependencies } : {}) };
  return `${JSON.stringify({ name, lockfileVersion: 3, requires: true, packages: { '': root, ...packages } }, null, 2)}\n`;
}
