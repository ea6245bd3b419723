import type { BuildOptions } from 'esbuild';
import { shakeableNobleStatics } from './shakeable-noble-statics.js';

/**
 * esbuild settings of the browser files (dist/browser): tsup.config.ts builds them with these, the
 * emulator run from source builds the console's copy of the bundle with them, and the size benchmarks
 * measure what they produce. Names are not kept (esbuild's `keepNames` wraps every function of the
 * bundle, about 7 KiB gzipped): the error classes, whose names users read, fix their own
 * (src/errors/error-name.ts).
 */
export const BROWSER_BUILD = {
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  bundle: true,
  // rxjs's ES2015 build (its `es2015` export condition): native classes where its default ES5 build
  // goes through tslib's helpers. `module` is esbuild's default condition, which setting any replaces.
  conditions: ['es2015', 'module'],
  plugins: [shakeableNobleStatics()],
} satisfies BuildOptions;
