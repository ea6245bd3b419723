/**
 * The console is its own room: nothing it imports, type-only imports
 * included, leads back to the emulator that mounts it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../../..');
const SPECIFIER = /(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

function resolveLocal(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Every source file reachable from `entry` through relative imports of any kind, with the chain that reaches it. */
function reachable(entry: string): Map<string, string[]> {
  const chains = new Map([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const target = resolveLocal(file, match[1] ?? match[2]!);
      if (!target || chains.has(target)) continue;
      chains.set(target, [...chains.get(file)!, target]);
      queue.push(target);
    }
  }
  return chains;
}

describe('the console room', () => {
  it('reaches the emulator only through the interface it is given: no import of emulator.ts, world-controls.ts or their types file', () => {
    const chains = reachable(join(root, 'src/emulator/console/index.ts'));
    const forbidden = ['src/emulator/emulator.ts', 'src/emulator/world-controls.ts', 'src/emulator/types.ts', 'src/emulator/index.ts'];
    const found = forbidden.filter((file) => chains.has(join(root, file))).map((file) => chains.get(join(root, file))!.map((f) => relative(root, f)).join(' → '));
    expect(found).toEqual([]);
    // The walk does follow the console's own files.
    expect(chains.has(join(root, 'src/emulator/console/api.ts'))).toBe(true);
  });

  it('has browser code that imports nothing of Node', () => {
    const chains = reachable(join(root, 'src/emulator/console/app/main.tsx'));
    const nodeOnly = [...chains.keys()].map((f) => relative(root, f)).filter((f) => f.startsWith('src/emulator/') && !f.startsWith('src/emulator/console/app/') && f !== 'src/emulator/console/contract.ts');
    expect(nodeOnly).toEqual([]);
    for (const file of chains.keys()) expect(readFileSync(file, 'utf8')).not.toMatch(/from ['"]node:/);
  });
});
