import { defineConfig } from 'tsup';

export default defineConfig([
  {
    // The library and its Node-only companions. `clanstream` itself must stay
    // browser-safe; `scripts/lint.mjs` checks that no Node built-in is reachable from it.
    entry: {
      index: 'src/index.ts',
      emulator: 'src/emulator/index.ts',
      testing: 'src/testing/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    treeshake: true,
  },
  {
    // The command-line tool: Node only, ESM only, no declarations.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: true,
    clean: false,
    target: 'node20',
    platform: 'node',
  },
]);
