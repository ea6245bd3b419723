/** Defaults of the test kit (`clanstream/testing`). */
export interface TestingDefaults {
  /**
   * How long a wait of the kit (`waitFor`, `nextEvent`, `world.nextMessage`,
   * `world.connect`, …) lasts before it fails with a {@link WaitTimeoutError}
   * naming what it awaited and what arrived instead. Shorter than the usual
   * runner timeout (vitest's is set to 30 s in a `clanstream init` project),
   * so a bot that never answers fails with that message, not a bare "test
   * timed out".
   */
  readonly waitTimeoutMs: number;
  /** How many of the values that arrived instead a timeout error lists (the last ones). */
  readonly arrivalsShown: number;
  /**
   * How long `world.close()` lets each client's outbox settle before it
   * destroys the client. A test that saw the emulator push a reply may close
   * before the bot has the acknowledgement; destroying the client then would
   * reject that reply ("outcome unknown") after the test passed.
   */
  readonly closeGraceMs: number;
}

/** The test kit's defaults. */
export const TESTING_DEFAULTS: TestingDefaults = {
  waitTimeoutMs: 10_000,
  arrivalsShown: 10,
  closeGraceMs: 2_000,
};
