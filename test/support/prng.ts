/**
 * A tiny seeded PRNG for fault injection (mulberry32): the same seed gives the
 * same sequence on every machine, so a failing run can be replayed from its seed.
 * Test infrastructure only; not cryptographic.
 */

/** A source of numbers in [0, 1), like `Math.random`. */
export type Random = () => number;

/** Normalises any number to an unsigned 32-bit seed. */
export function toSeed(value: number): number {
  if (!Number.isFinite(value)) throw new Error(`a seed must be a finite number, got ${value}`);
  return Math.trunc(value) >>> 0;
}

/** mulberry32: a 32-bit state, period 2^32, good enough to spread faults. */
export function mulberry32(seed: number): Random {
  let state = toSeed(seed);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max] (both inclusive). */
export function randomInt(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

/** One element of a non-empty list. */
export function pick<T>(random: Random, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick() needs at least one item');
  return items[Math.min(items.length - 1, Math.floor(random() * items.length))]!;
}

/** An exponentially distributed gap with the given mean (a Poisson process of faults). */
export function exponential(random: Random, mean: number): number {
  return -Math.log(1 - random()) * mean;
}

/**
 * A fresh random seed, or the one in an environment variable (`FAULT_SEED=123 npx vitest …`)
 * so a failing run can be replayed.
 */
export function seedFromEnv(name = 'FAULT_SEED'): number {
  const raw = process.env[name];
  if (raw !== undefined && raw.trim() !== '') {
    const parsed = Number(raw);
    if (!Number.isFinite(parsed)) throw new Error(`${name}=${raw} is not a number`);
    return toSeed(parsed);
  }
  return toSeed(Math.floor(Math.random() * 2 ** 32));
}
