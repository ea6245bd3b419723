import { defineConfig, type Options } from 'tsup';
import { coreAsBrowserBundle } from './scripts/lib/core-as-browser-bundle.mjs';
import { BROWSER_BUILD } from './src/emulator/console/browser-build.js';

/** The package's entries (the CLI is built beside them, without declarations). */
const LIBRARY_ENTRIES = {
  index: 'src/index.ts',
  emulator: 'src/emulator/index.ts',
  testing: 'src/testing/index.ts',
  // Preloaded into a bot's process (`node --import clanstream/compat-preload`): it changes the process's fetch.
  'compat-preload': 'src/compat-preload/index.ts',
  // Node only, and never part of the browser bundle; ioredis stays external (an optional peer dependency).
  scale: 'src/scale/index.ts',
  // The platform's production protocol: its schemas and protobuf runtime stay out of the core entry.
  production: 'src/production/index.ts',
  // The same with the oldest dialect, sdk-2.8.33, which the main entry leaves out (its schema weighs on browsers).
  'production-sdk-2.8.33': 'src/production/sdk-2.8.33/index.ts',
};

/**
 * What every file of dist/browser shares: one minified ES module each, built with the esbuild settings
 * the emulator and the size benchmarks use too (BROWSER_BUILD), so the benchmarks measure what ships.
 */
const BROWSER_FILE = {
  outDir: 'dist/browser',
  format: ['esm'],
  platform: BROWSER_BUILD.platform,
  target: BROWSER_BUILD.target,
  minify: BROWSER_BUILD.minify,
  splitting: false,
  dts: false,
  clean: false,
  esbuildPlugins: BROWSER_BUILD.plugins,
  esbuildOptions(options) {
    options.conditions = [...BROWSER_BUILD.conditions];
    // The licence notices of bundled dependencies go to `<file>.LEGAL.txt` beside each file (shipped
    // with it, package.json `files`) instead of the end of the file every browser downloads.
    options.legalComments = 'external';
  },
} satisfies Options;

/**
 * The browser bundle (`clanstream/browser`): one self-contained, minified ES module.
 * `platform: 'browser'` makes isomorphic-ws resolve to the browser's WebSocket; every dependency is
 * bundled in (tsup leaves them external otherwise). bench/bundle.bench.ts builds this config to
 * measure the file against the budget recorded in BENCHMARKS.md.
 */
export const CORE_BROWSER_FILE = {
  ...BROWSER_FILE,
  entry: { clanstream: 'src/index.ts' },
  treeshake: true,
  // The package ships no maps (package.json `files`): a map's URL in the file would point at nothing.
  sourcemap: false,
  noExternal: [/.*/],
} satisfies Options;

export default defineConfig([
  {
    // The library and its Node-only companions. `clanstream` itself must stay
    // browser-safe; ESLint (eslint.config.js) keeps Node built-ins and the Node-only areas out of its reach.
    entry: {
      ...LIBRARY_ENTRIES,
      // The command-line tool (bin/clanstream.mjs loads dist/cli.js): built here so it shares the library's
      // chunks instead of carrying a copy of the library and the emulator of its own.
      cli: 'src/cli/main.ts',
    },
    format: ['esm', 'cjs'],
    // Shared chunks in the CommonJS build too, so the emulator and testing entries do not each carry a copy of the library.
    splitting: true,
    // `@internal` declarations (hooks of the package's own clients, the writing half of the state's
    // collections) stay out of the published declarations: api/*.api.md lists what remains.
    // The CLI has no declarations: only the package's entries do.
    dts: {
      entry: LIBRARY_ENTRIES,
      compilerOptions: { stripInternal: true },
    },
    sourcemap: true,
    // Configs build at the same time: keep dist/browser, which the configs below write meanwhile.
    clean: ['!browser/**'],
    target: 'es2022',
    treeshake: true,
    // The emulator builds the web console from source with esbuild only when it runs from
    // source (see src/emulator/console/assets.ts); the built emulator serves dist/browser.
    external: ['esbuild'],
  },
  CORE_BROWSER_FILE,
  {
    // `clanstream/production` for browsers: one minified ES module that loads the library from the
    // browser bundle beside it (`./clanstream.js`): everything it shares with the core (errors, events,
    // the request layer) comes through src/production/core.ts, which becomes that import, so classes
    // stay the core's own. The protobuf runtime and the schemas are bundled in. Its size budget is
    // checked by bench/bundle.bench.ts and the package test.
    ...BROWSER_FILE,
    entry: { production: 'src/production/index.ts', 'production-sdk-2.8.33': 'src/production/sdk-2.8.33/index.ts' },
    treeshake: true,
    sourcemap: false,
    noExternal: [/.*/],
    esbuildPlugins: [...BROWSER_FILE.esbuildPlugins, coreAsBrowserBundle()],
  },
  {
    // The emulator's web console script: loads the browser bundle above from `./clanstream.js`
    // at run time (the emulator serves both under /console/), so it stays small; Preact, which
    // draws it, is bundled in (a dev dependency: nothing is fetched at run time).
    ...BROWSER_FILE,
    entry: { console: 'src/emulator/console/app/main.tsx' },
    sourcemap: false,
    external: ['./clanstream.js'],
    noExternal: ['preact'],
    esbuildOptions(options) {
      BROWSER_FILE.esbuildOptions(options);
      options.jsx = 'automatic';
      options.jsxImportSource = 'preact';
    },
  },
]);
