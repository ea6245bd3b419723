/** An entry of a package-lock.json (lockfileVersion 3) `packages` map. */
export interface LockEntry {
  version?: string;
  integrity?: string;
  resolved?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/** The path a package at `from` finds `name` under, as Node and npm look: nested first, then each level up to the top. */
export function locate(packages: Readonly<Record<string, LockEntry>>, from: string, name: string): string | undefined {
  for (let base = from; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
    const path = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[path]) return path;
    if (!base) return undefined;
  }
}

/**
 * The lock entries (path → entry, unchanged) of `names`, required from
 * `from`, and of everything they depend on: what a lockfile for a new project
 * needs so that `npm ci --offline` or `npm install --offline` takes each
 * package from the npm cache. A missing dependency throws; a missing optional
 * one (a platform package this lockfile never saw) is left out, as npm does.
 */
export function lockClosure(packages: Readonly<Record<string, LockEntry>>, names: Iterable<string>, from = ''): Record<string, LockEntry> {
  const out: Record<string, LockEntry> = {};
  const visit = (requirer: string, required: Iterable<string>, optional: boolean): void => {
    for (const name of required) {
      const path = locate(packages, requirer, name);
      if (!path) {
        if (optional) continue;
        throw new Error(`package-lock.json has no ${name} (needed by ${requirer || 'the project'})`);
      }
      if (out[path]) continue;
      const entry = packages[path]!;
      out[path] = entry;
      visit(path, Object.keys(entry.dependencies ?? {}), false);
      visit(path, Object.keys(entry.optionalDependencies ?? {}), true);
    }
  };
  visit(from, names, false);
  return out;
}
