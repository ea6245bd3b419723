// An esbuild plugin for the browser build of `clanstream/production`: the module through which
// production takes everything from the library (src/production/core.ts) becomes an import of
// the core browser bundle served beside it (`./clanstream.js`), so the library is not bundled
// twice and its classes (errors above all, which the client tells apart with `instanceof`)
// stay one. Any other import of a library module outside src/production fails the build:
// bundled, it would be a second copy.
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { leanDescriptor } from '../../src/production/wire/lean-descriptor.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = resolve(root, 'src');
const production = resolve(src, 'production');
const core = resolve(production, 'core.ts');
const schemas = resolve(production, 'schema');
const leanCodegen = resolve(production, 'wire', 'codegen-lean.ts');
const embeddedFile = resolve(production, 'wire', 'embedded-file.ts');
const envelopeCodec = resolve(production, 'wire', 'envelope-codec.ts');
const protobufDist = resolve(root, 'node_modules', '@bufbuild', 'protobuf', 'dist', 'esm');
const leanProtobuf = resolve(production, 'wire', 'protobuf-lean.ts');

/** The path of a relative import in TypeScript source (`./x.js` names `./x.ts`). */
const sourceOf = (path, from) => resolve(from, path).replace(/\.js$/, '.ts');

export function coreAsBrowserBundle() {
  return {
    name: 'core-as-browser-bundle',
    setup(build) {
      // The generated schemas build their descriptors without protobuf-es's descriptor.proto schema
      // (src/production/wire/embedded-file.ts); so does protobuf-es's own wrappers.proto, which they import.
      build.onResolve({ filter: /^@bufbuild\/protobuf\/codegenv2$/ }, (args) => (args.importer.startsWith(schemas + sep) ? { path: leanCodegen } : undefined));
      // …and write frames with a toBinary of a few lines (src/production/wire/lean-to-binary.ts).
      build.onResolve({ filter: /^@bufbuild\/protobuf(\/wire)?$/ }, (args) => {
        if (args.importer === envelopeCodec && args.path === '@bufbuild/protobuf') return { path: leanProtobuf };
        // The descriptor reader runs while the schemas' modules load: it takes the wire reader from its own
        // module, whose imports lead back to no schema (the package's index would, through its JSON and
        // well-known-type modules, and a schema would then load before the reader). Its registry is its own
        // (src/production/wire/lean-registry.ts).
        if (args.importer === embeddedFile && args.path === '@bufbuild/protobuf/wire') return { path: resolve(protobufDist, 'wire/binary-encoding.js') };
        return undefined;
      });
      build.onResolve({ filter: /codegenv2\/file\.js$/ }, (args) => (/[\\/]@bufbuild[\\/]protobuf[\\/].*[\\/]wkt[\\/]/.test(args.importer) ? { path: embeddedFile } : undefined));
      // Their descriptors travel as strings of code points 0-255 instead of base64 (a quarter less once gzipped),
      // with only the fields the descriptor reader reads (src/production/wire/lean-descriptor.ts).
      build.onLoad({ filter: /([\\/]src[\\/]production[\\/]schema[\\/][^\\/]+_pb\.ts|[\\/]@bufbuild[\\/]protobuf[\\/]dist[\\/]esm[\\/]wkt[\\/]google[\\/]protobuf[\\/]wrappers_pb\.js)$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        let embedded = 0;
        const contents = source.replace(/fileDesc\("([A-Za-z0-9+/=]+)"/g, (_, b64) => {
          embedded += 1;
          return `fileDesc(__latin1(${JSON.stringify(Buffer.from(leanDescriptor(Buffer.from(b64, 'base64'))).toString('latin1'))})`;
        });
        if (embedded === 0) return { errors: [{ text: `${relative(root, args.path)}: no embedded descriptor found (has protoc-gen-es changed its output?)` }] };
        return { contents: `import { latin1Bytes as __latin1 } from ${JSON.stringify(embeddedFile)};\n${contents}`, loader: args.path.endsWith('.ts') ? 'ts' : 'js' };
      });
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (!args.importer.startsWith(production + sep)) return undefined;
        const target = sourceOf(args.path, args.resolveDir);
        if (target === core) return { path: './clanstream.js', external: true };
        if (target.startsWith(src + sep) && !target.startsWith(production + sep)) {
          return { errors: [{ text: `${relative(root, args.importer)} imports ${relative(root, target)}: production takes the library through src/production/core.ts only` }] };
        }
        return undefined;
      });
    },
  };
}
