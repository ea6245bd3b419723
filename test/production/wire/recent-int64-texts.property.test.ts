/**
 * The texts of recently read int64s (src/production/wire/recent-int64-texts.ts):
 * whatever was read before (the same int64 again, others landing on its
 * slot), an int64's text is the one a bigint writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { int64Text } from '../../../src/production/wire/recent-int64-texts.js';

const halvesOf = (value: bigint): [number, number] => {
  const bits = BigInt.asUintN(64, value);
  return [Number(bits & 0xffffffffn) | 0, Number(bits >> 32n) | 0];
};

/** Snowflake-like ids near each other (same slot or neighbours), any int64, and the edges. */
const anInt64 = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: 1840000000000000000n, max: 1840000000000004096n }),
  fc.constantFrom(0n, 1n, -1n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n)),
);

describe('recent int64 texts', () => {
  it('write each int64 as a bigint does, whatever was read before', () => {
    fc.assert(
      fc.property(fc.array(anInt64, { minLength: 1, maxLength: 600 }), (values) => {
        for (const value of values) expect(int64Text(...halvesOf(value))).toBe(String(value));
      }),
      { numRuns: 200 },
    );
  });

  it('give "0" for an int64 0 before anything was read into its slot', () => {
    expect(int64Text(0, 0)).toBe('0');
  });
});
