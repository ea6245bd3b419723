/**
 * The reliability suite: for each seed, the bot, alice and the other users
 * work (messages, commands answered through the outbox, button clicks and
 * edits, reactions, token transfers both ways) while a seeded schedule of
 * faults hits the network (fault proxy: drops, stalls, delays, frames cut in
 * the middle, refused connections) and the emulator (dropped sockets, expired
 * tokens, 429 and 5xx bursts, the prover down, pauses, kill and restart).
 * Afterwards every invariant is checked (see reliability-run.ts); no timing
 * is asserted, only behaviour.
 *
 * A failure names the seed, the schedule, what was applied and the proxy's
 * history, and how to replay it. Longer runs: `npm run soak` (or SOAK_SEEDS /
 * SOAK_MS, see settings.ts); RELIABILITY_VERBOSE=1 prints what each run did.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { formatSchedule, withFaultContext } from '../support/fault-proxy.js';
import { ReliabilityRun } from './reliability-run.js';
import { suiteSettings } from './settings.js';

const settings = suiteSettings();
const runs: ReliabilityRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) await run.dispose();
});

/** How to run one seed again. */
const replayCommand = (seed: number, durationMs: number) => `FAULT_SEED=${seed}${settings.soak || durationMs !== 3000 ? ` SOAK_MS=${durationMs}` : ''} npx vitest run test/reliability`;

describe(`reliability under seeded faults (${settings.seeds.length} seed(s), ${settings.durationMs} ms of faults each)`, () => {
  for (const seed of settings.seeds) {
    it(`seed ${seed}: every invariant holds`, async () => {
      const run = new ReliabilityRun(seed, settings.durationMs);
      runs.push(run);
      await withFaultContext({ seed, schedule: run.schedule, run: run.run, history: () => run.history() }, async () => {
        const violations = await run.execute();
        if (process.env.RELIABILITY_VERBOSE) process.stdout.write(`seed ${seed}: ${run.summary()}\n${run.details()}\n`);
        expect(violations, `${violations.length} violation(s); ${run.summary()}\n${run.details()}\n${formatSchedule(seed, run.schedule)}\nreplay: ${replayCommand(seed, settings.durationMs)}`).toEqual([]);
      });
    }, settings.durationMs + 60_000);
  }
});
