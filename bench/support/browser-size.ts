/**
 * Measuring what code weighs in a browser: a shipped file built by tsup with
 * its config, or code bundled with esbuild as the browser builds are
 * (`BROWSER_BUILD`); gzipped at level 9 (node:zlib, what a server sends), and
 * where the minified bytes come from. Shared by the size benchmarks.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Metafile, type Plugin } from 'esbuild';
import { build as tsupBuild, type Options } from 'tsup';
import { BROWSER_BUILD } from '../../src/emulator/console/browser-build.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
export const pct = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)} %`;

export interface BundleOptions {
  minify: boolean;
  /** A file to bundle, or TypeScript source (resolved from the repository's root). */
  entry: { file: string } | { contents: string };
  /** Imports left out of the bundle. */
  external?: string[];
  /** esbuild plugins (the production file's: src/production/core.ts as the core bundle). */
  plugins?: Plugin[];
}

/** One browser bundle, in memory. */
export async function browserBundle(options: BundleOptions): Promise<{ code: Uint8Array; metafile: Metafile }> {
  const result = await build({
    ...BROWSER_BUILD,
    minify: options.minify,
    ...('file' in options.entry ? { entryPoints: [options.entry.file] } : { stdin: { contents: options.entry.contents, resolveDir: ROOT, loader: 'ts' } }),
    external: options.external ?? [],
    // The shipped files keep the licence notices in a file beside them (tsup.config.ts): not counted here either.
    legalComments: 'none',
    plugins: [...BROWSER_BUILD.plugins, ...(options.plugins ?? [])],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no bundle');
  return { code: output.contents, metafile: result.metafile };
}

/**
 * One file of a tsup config (tsup.config.ts), built as `npm run build` builds it (esbuild, then tsup's
 * tree-shaking pass) into a temporary folder: the bytes that ship, and esbuild's account of them.
 */
export async function shippedFile(config: Options & { entry: Record<string, string> }, name: string): Promise<{ code: Uint8Array; metafile: Metafile }> {
  const outDir = await mkdtemp(join(tmpdir(), 'clanstream-size-'));
  try {
    const entry = Object.fromEntries(Object.entries(config.entry).map(([key, path]) => [key, resolve(ROOT, path)]));
    await tsupBuild({ ...config, entry, outDir, metafile: true, silent: true, config: false });
    const metafile = JSON.parse(await readFile(join(outDir, 'metafile-esm.json'), 'utf8')) as Metafile;
    return { code: await readFile(join(outDir, name)), metafile };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

export const gzip = (code: Uint8Array): number => gzipSync(code, { level: 9 }).byteLength;
export const brotli = (code: Uint8Array): number => brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).byteLength;

/** Minified bytes per package (the library's own code is "clanstream (src)"), largest first. */
export function contributions(metafile: Metafile, name: (path: string) => string | undefined = () => undefined): Array<[string, number]> {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [path, input] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
      const key = name(path) ?? match?.[1] ?? 'clanstream (src)';
      totals.set(key, (totals.get(key) ?? 0) + input.bytesInOutput);
    }
  }
  return [...totals].sort((a, b) => b[1] - a[1]);
}
