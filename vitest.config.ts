import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'marbles/**/*.marbles.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The emulator binds 127.0.0.1 on port 0, so suites can run in parallel.
    pool: 'forks',
  },
});
