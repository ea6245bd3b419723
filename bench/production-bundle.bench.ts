/**
 * Size of the browser files of `clanstream/production`
 * (dist/browser/production.js, and production-sdk-2.8.33.js with the oldest
 * dialect), built as tsup builds them: the library imported from the core
 * bundle beside them (`./clanstream.js`), the protobuf runtime and the
 * schemas bundled in, the schemas' descriptors read without protobuf-es's
 * descriptor.proto schema and frames written without its compiled writers
 * (scripts/lib/core-as-browser-bundle.mjs). Minified + gzipped at level 9.
 *
 * Budget: production.js ≤ 30,000 B minified + gzipped. The production file
 * carries the default dialect (sdk-2.8.44) and the one before (sdk-2.8.37);
 * sdk-2.8.33 is a file of its own (it has no budget: it serves the emulator's
 * compat front end and a wire production probably no longer speaks).
 */
import { fileURLToPath } from 'node:url';
import { coreAsBrowserBundle } from '../scripts/lib/core-as-browser-bundle.mjs';
import { browserBundle, contributions, gzip, kib, pct } from './support/browser-size.js';
import type { BenchResult } from './run.js';

/** Budget of dist/browser/production.js, minified + gzip, in bytes. */
export const PRODUCTION_FILE_BUDGET_BYTES = 30_000;

const file = (path: string): string => fileURLToPath(new URL(`../src/production/${path}`, import.meta.url));

/** Where the minified bytes come from, by area. */
function area(path: string): string | undefined {
  if (path.includes('src/production/schema/')) return 'generated schemas (descriptors as bytes)';
  if (path.includes('src/production/')) return 'clanstream/production (src)';
  if (path.includes('@bufbuild/protobuf')) return 'protobuf runtime (@bufbuild/protobuf)';
  return undefined;
}

export async function run(): Promise<BenchResult[]> {
  const main = await browserBundle({ minify: true, entry: { file: file('index.ts') }, plugins: [coreAsBrowserBundle()] });
  const withA = await browserBundle({ minify: true, entry: { file: file('sdk-2.8.33/index.ts') }, plugins: [coreAsBrowserBundle()] });
  const mainGzipped = gzip(main.code);
  const withAGzipped = gzip(withA.code);
  const met = mainGzipped <= PRODUCTION_FILE_BUDGET_BYTES;
  const externals = [...new Set(Object.values(main.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)))];
  const total = main.code.byteLength;
  const rows = contributions(main.metafile, area).map(([name, bytes]) => `| ${name} | ${kib(bytes)} | ${pct(bytes, total)} |`);
  const bytes = (n: number): string => `${n.toLocaleString('en-US')} B (${kib(n)})`;
  return [
    {
      title: 'Browser size of clanstream/production',
      targets: [{ target: `dist/browser/production.js, minified + gzip ≤ ${PRODUCTION_FILE_BUDGET_BYTES.toLocaleString('en-US')} B`, measured: `${mainGzipped.toLocaleString('en-US')} B`, met }],
      body: [
        'Each entry bundled for browsers with esbuild (`platform: browser`, ES2022, ESM, minified) through the plugin tsup uses for the files (scripts/lib/core-as-browser-bundle.mjs); gzip at level 9 (node:zlib).',
        '',
        '| File | Dialects | Minified | Minified + gzip |',
        '|---|---|---:|---:|',
        `| **production.js** | sdk-2.8.44, sdk-2.8.37 | ${bytes(total)} | **${bytes(mainGzipped)}** |`,
        `| production-sdk-2.8.33.js | sdk-2.8.33, sdk-2.8.44, sdk-2.8.37 | ${bytes(withA.code.byteLength)} | ${bytes(withAGzipped)} |`,
        '',
        `Budget of production.js: ${PRODUCTION_FILE_BUDGET_BYTES.toLocaleString('en-US')} B — ${met ? `**met** (${pct(mainGzipped, PRODUCTION_FILE_BUDGET_BYTES)})` : `**NOT met** (${bytes(mainGzipped - PRODUCTION_FILE_BUDGET_BYTES)} over)`}. Imports left outside: ${externals.join(', ')} (the core bundle; no library module is bundled twice: the plugin fails the build on one).`,
        '',
        'Where the minified bytes of production.js come from:',
        '',
        '| Source | Minified | Share |',
        '|---|---:|---:|',
        ...rows,
      ].join('\n'),
    },
  ];
}
