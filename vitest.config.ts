import { defineConfig } from 'vitest/config';

/** The suites that run again in production mode, once per dialect (test/support/protocol-under-test.ts). */
const PRODUCTION_SUITES = ['test/client/**/*.test.ts', 'test/structures/**/*.test.ts'];

const productionProject = (dialect: string) => ({
  extends: true as const,
  test: { name: `production ${dialect}`, include: PRODUCTION_SUITES, env: { CLANSTREAM_TEST_PROTOCOL: dialect } },
});

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The emulator binds 127.0.0.1 on port 0, so suites can run in parallel.
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'clanstream', include: ['test/**/*.test.ts', 'marbles/**/*.marbles.ts', 'examples/**/*.test.ts'] } },
      productionProject('sdk-2.8.44'),
      productionProject('sdk-2.8.37'),
    ],
  },
});
