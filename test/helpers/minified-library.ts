import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BROWSER_BUILD } from '../../src/emulator/console/browser-build.js';

type Library = typeof import('../../src/index.js');

let loaded: Promise<Library> | undefined;

/**
 * The `clanstream` entry built as dist/browser/clanstream.js is (BROWSER_BUILD: minified, names not
 * kept, the browser's WebSocket), loaded in this process; built once per test file.
 */
export function minifiedLibrary(): Promise<Library> {
  loaded ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clanstream-minified-'));
    try {
      const file = join(dir, 'clanstream.mjs');
      await build({ ...BROWSER_BUILD, entryPoints: [fileURLToPath(new URL('../../src/index.ts', import.meta.url))], outfile: file, logLevel: 'silent' });
      return (await import(pathToFileURL(file).href)) as Library;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return loaded;
}
