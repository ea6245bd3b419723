// An esbuild plugin for the browser build of `clanstream/production`: the module through which
// production takes everything from the library (src/production/core.ts) becomes an import of
// the core browser bundle served beside it (`./clanstream.js`), so the library is not bundled
// twice and its classes (errors above all, which the client tells apart with `instanceof`)
// stay one. Any other import of a library module outside src/production fails the build:
// bundled, it would be a second copy.
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const src = resolve(root, 'src');
const production = resolve(src, 'production');
const core = resolve(production, 'core.ts');

/** The path of a relative import in TypeScript source (`./x.js` names `./x.ts`). */
const sourceOf = (path, from) => resolve(from, path).replace(/\.js$/, '.ts');

export function coreAsBrowserBundle() {
  return {
    name: 'core-as-browser-bundle',
    setup(build) {
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
