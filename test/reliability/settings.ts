/**
 * How long and with which seeds the reliability suite runs, from the
 * environment:
 * - default (CI, `npm test`): a few fixed seeds, a few seconds of faults each;
 * - `FAULT_SEED=123`: that seed only (replaying a failure);
 * - `SOAK_SEEDS=n` / `SOAK_MS=ms`: n seeds derived from `SOAK_BASE_SEED` (a
 *   fresh one when unset, printed in each test name) and ms of faults each
 *   (`npm run soak`).
 */
import { mulberry32, seedFromEnv, toSeed } from '../support/prng.js';

/** Fixed, so that CI replays the same schedules; together they hold every fault kind (restart in three of them). */
export const CI_SEEDS: readonly number[] = [1001, 2002, 3003, 4004];
export const CI_DURATION_MS = 3000;

export interface SuiteSettings {
  seeds: number[];
  /** How long the workload runs under faults, per seed. */
  durationMs: number;
  soak: boolean;
}

function positiveInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name}=${raw} must be a positive integer`);
  return value;
}

export function suiteSettings(): SuiteSettings {
  const durationMs = positiveInt('SOAK_MS') ?? CI_DURATION_MS;
  const count = positiveInt('SOAK_SEEDS');
  if (process.env.FAULT_SEED !== undefined && process.env.FAULT_SEED.trim() !== '') return { seeds: [seedFromEnv('FAULT_SEED')], durationMs, soak: count !== undefined };
  if (count === undefined) return { seeds: [...CI_SEEDS], durationMs, soak: false };
  const random = mulberry32(seedFromEnv('SOAK_BASE_SEED'));
  return { seeds: Array.from({ length: count }, () => toSeed(Math.floor(random() * 2 ** 32))), durationMs, soak: true };
}
