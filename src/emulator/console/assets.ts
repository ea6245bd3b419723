/**
 * Where the web console gets its two scripts: the library's browser bundle
 * (`clanstream.js`) and the console app (`app.js`).
 *
 * - Run from the built package (dist/emulator.js, dist/cli.js, the bin): the
 *   files tsup wrote to dist/browser/ are read from disk.
 * - Run from source (tsx, vitest): they are built from src/ in memory with
 *   esbuild, once per process, on the first request for them. Building from
 *   source rather than reading dist/ means the console never runs a stale
 *   bundle while the library is being edited, and a fresh clone needs no
 *   build step first. esbuild is a dev dependency (tsup and tsx bring it too),
 *   so it is always there when the sources are; emulators that never serve
 *   the console never pay for the build.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { BROWSER_BUILD } from './browser-build.js';

export type BrowserAssetName = 'clanstream.js' | 'app.js';


/** How the console's views are compiled: JSX for Preact (bundled into app.js, nothing fetched at run time). */
export const CONSOLE_JSX = { jsx: 'automatic', jsxImportSource: 'preact' } as const;

/** The URL of this module's file (tsup gives the CJS build an `import.meta.url` too). */
const selfUrl = (): URL => new URL(import.meta.url);

/** True when this module runs from its TypeScript source rather than from dist. */
export function runningFromSource(): boolean {
  return selfUrl().pathname.endsWith('.ts');
}

const built = new Map<BrowserAssetName, Promise<string>>();

/** The text of one console script (cached for the life of the process). */
export function browserAsset(name: BrowserAssetName): Promise<string> {
  let asset = built.get(name);
  if (!asset) {
    asset = runningFromSource() ? buildFromSource(name) : readBuilt(name);
    // A failed build is not cached: the next request tries again (after the source is fixed).
    asset.catch(() => built.delete(name));
    built.set(name, asset);
  }
  return asset;
}

async function readBuilt(name: BrowserAssetName): Promise<string> {
  // dist/emulator.js, dist/emulator.cjs, dist/cli.js and their chunks all sit in dist/.
  const file = fileURLToPath(new URL(`./browser/${name === 'app.js' ? 'console.js' : 'clanstream.js'}`, selfUrl()));
  try {
    return await readFile(file, 'utf8');
  } catch {
    throw new Error(`${file} is missing: run "npm run build" to build the browser bundle`);
  }
}

async function buildFromSource(name: BrowserAssetName): Promise<string> {
  const entry = fileURLToPath(new URL(name === 'app.js' ? './app/main.tsx' : '../../index.ts', selfUrl()));
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    ...BROWSER_BUILD,
    entryPoints: [entry],
    write: false,
    logLevel: 'silent',
    // The app imports the library from the bundle served beside it.
    ...(name === 'app.js' ? { external: ['./clanstream.js'], ...CONSOLE_JSX } : {}),
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced no output for ${name}`);
  return output.text;
}
