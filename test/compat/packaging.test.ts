/**
 * The compat front end stays where it belongs in the built package (dist/,
 * made by `npm ci` through `prepare`): out of the browser bundle and the core
 * `clanstream` entry, and in the emulator only behind a dynamic import.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
/** Words only the compat front end's code holds (its refusals). */
const COMPAT_MARK = 'is not served by the emulator';

/** Every file an ES module loads before it runs (its static imports, followed), by path. */
function staticGraph(entry: string): Map<string, string> {
  const files = new Map<string, string>();
  const queue = [join(dist, entry)];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    files.set(file, text);
    for (const m of text.matchAll(/(?:^|[;\s])(?:import|export)\s*(?:[^'"();]*?\sfrom\s*)?['"](\.[^'"]+)['"]/g)) queue.push(join(dirname(file), m[1]!));
  }
  return files;
}

describe('the built package', () => {
  it('keeps the compat front end and its protobuf runtime out of the core entry and the browser bundle', () => {
    for (const [file, text] of staticGraph('index.js')) {
      expect({ file, compat: text.includes(COMPAT_MARK), protobuf: text.includes('@bufbuild') }).toEqual({ file, compat: false, protobuf: false });
    }
    const browser = readFileSync(join(dist, 'browser/clanstream.js'), 'utf8');
    expect(browser.includes(COMPAT_MARK) || browser.includes('@bufbuild')).toBe(false);
  });

  it('loads the compat front end from the emulator only through a dynamic import', () => {
    const graph = staticGraph('emulator.js');
    expect([...graph.values()].some((text) => text.includes(COMPAT_MARK) || text.includes('@bufbuild'))).toBe(false);
    const lazy = [...graph.values()].flatMap((text) => [...text.matchAll(/import\(\s*['"](\.\/compat-[^'"]+)['"]\s*\)/g)].map((m) => m[1]!));
    expect(lazy).toHaveLength(1);
    const chunk = readFileSync(join(dist, lazy[0]!), 'utf8');
    expect(chunk).toContain(COMPAT_MARK);
    expect(existsSync(join(dist, 'compat-preload.js'))).toBe(true);
  });
});
