/**
 * Size of the production wire in a browser: the byte-level codec
 * (src/production/wire) with the schemas of every dialect and the protobuf
 * runtime, bundled as the browser builds are, minified + gzipped (level 9).
 * The clanstream/production browser file will carry this plus the
 * translators and the transport, within 30 KB (30,000 bytes) minified +
 * gzipped in total, so the target here is that budget: the wire alone must
 * leave room for the rest. Also measured apart: the generated schema code of
 * all dialects (what `npm run proto` writes; runtime left out), each
 * dialect's, and the runtime.
 */
import { fileURLToPath } from 'node:url';
import { browserBundle, contributions, gzip, kib, pct } from './support/browser-size.js';
import type { BenchResult } from './run.js';

/** Budget of the whole clanstream/production browser file, minified + gzip, in bytes. */
export const PRODUCTION_BUDGET_BYTES = 30_000;

const WIRE = fileURLToPath(new URL('../src/production/wire/index.ts', import.meta.url));
const DIALECTS = ['sdk-2.8.33', 'sdk-2.8.37', 'sdk-2.8.44'] as const;
const RUNTIME = ['@bufbuild/protobuf', '@bufbuild/protobuf/*'];
const schema = (dialect: string): string => `./src/production/schema/${dialect}_pb.ts`;

async function gzipped(contents: string, external: string[] = []): Promise<number> {
  return gzip((await browserBundle({ minify: true, entry: { contents }, external })).code);
}

export async function run(): Promise<BenchResult[]> {
  const wire = await browserBundle({ minify: true, entry: { file: WIRE } });
  const wireGzipped = gzip(wire.code);
  const allSchemas = await gzipped(DIALECTS.map((d, i) => `export * as d${i} from '${schema(d)}';`).join('\n'), RUNTIME);
  const perDialect = await Promise.all(DIALECTS.map(async (d) => [d, await gzipped(`export * from '${schema(d)}';`, RUNTIME)] as const));
  // What the generated code calls: decoding and encoding, and building a schema from its embedded descriptor.
  const runtime = await gzipped(`export { create, fromBinary, toBinary } from '@bufbuild/protobuf';\nexport { fileDesc, messageDesc } from '@bufbuild/protobuf/codegenv2';\n`);
  const runtimeCore = await gzipped(`export { create, fromBinary, toBinary } from '@bufbuild/protobuf';\n`);
  const laterEras = await gzipped(DIALECTS.slice(1).map((d, i) => `export * as d${i} from '${schema(d)}';`).join('\n'), RUNTIME);
  const eraB = perDialect[1]![1];

  const met = wireGzipped <= PRODUCTION_BUDGET_BYTES;
  const left = PRODUCTION_BUDGET_BYTES - wireGzipped;
  const total = wire.code.byteLength;
  const rows = contributions(wire.metafile, (path) => (path.includes('src/production/schema/') ? 'generated schemas' : path.includes('src/') ? 'codec (src)' : undefined))
    .slice(0, 6)
    .map(([name, bytes]) => `| ${name} | ${kib(bytes)} | ${pct(bytes, total)} |`);
  const bytes = (n: number): string => `${n.toLocaleString('en-US')} B (${kib(n)})`;

  return [
    {
      title: 'Production wire size (src/production/wire, every dialect)',
      targets: [{ target: `wire with every dialect and the runtime, minified + gzip ≤ ${PRODUCTION_BUDGET_BYTES.toLocaleString('en-US')} B`, measured: `${wireGzipped.toLocaleString('en-US')} B`, met }],
      body: [
        'src/production/wire/index.ts bundled for browsers with esbuild (`platform: browser`, ES2022, ESM, minified); gzip at level 9 (node:zlib).',
        '',
        '| Bundle | Minified + gzip |',
        '|---|---:|',
        `| **wire codec + schemas of every dialect + protobuf runtime** | **${bytes(wireGzipped)}** |`,
        `| generated schema code of every dialect (runtime left out) | ${bytes(allSchemas)} |`,
        ...perDialect.map(([d, n]) => `| generated schema code of ${d} alone${d === 'sdk-2.8.44' ? ' (imports sdk-2.8.37)' : ''} | ${bytes(n)} |`),
        `| protobuf runtime the generated code needs (\`create\`, \`fromBinary\`, \`toBinary\`, \`fileDesc\`, \`messageDesc\`) | ${bytes(runtime)} |`,
        '',
        `Budget of the whole clanstream/production file: ${PRODUCTION_BUDGET_BYTES.toLocaleString('en-US')} B — ${met ? `the wire takes ${pct(wireGzipped, PRODUCTION_BUDGET_BYTES)}, leaving ${bytes(left)} for the translators and the transport` : `**the wire alone is ${bytes(-left)} over it**, before the translators and the transport`}.`,
        '',
        `Where it goes: building each schema from the descriptor embedded in its generated file (\`fileDesc\`, \`messageDesc\`: a registry, and protobuf-es's own descriptor.proto messages to decode the descriptor) is ${bytes(runtime - runtimeCore)} of the runtime; \`create\`, \`fromBinary\` and \`toBinary\` alone are ${bytes(runtimeCore)}. Era C's schema imports era B's messages and adds ${bytes(laterEras - eraB)} to them; sdk-2.8.33 adds ${bytes(allSchemas - laterEras)}.`,
        '',
        'Where the minified bytes come from:',
        '',
        '| Source | Minified | Share |',
        '|---|---:|---:|',
        ...rows,
      ].join('\n'),
    },
  ];
}
