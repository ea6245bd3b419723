/**
 * retryAfterMs (src/api/retry-after.ts), property-based: whatever the
 * header, it never throws and returns undefined or a non-negative finite
 * number of milliseconds; delay-seconds and HTTP dates are read exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/api/retry-after.js';

const RUNS = 3000;

/** A clock reading: realistic, or anywhere a Date can be. */
const now = fc.oneof(fc.integer({ min: 1_600_000_000_000, max: 4_102_444_800_000 }), fc.integer({ min: -8.64e15, max: 8.64e15 }));

function expectDelay(result: unknown): void {
  if (result === undefined) return;
  expect(typeof result).toBe('number');
  expect(Number.isFinite(result)).toBe(true);
  expect(result as number).toBeGreaterThanOrEqual(0);
}

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), minLength: min, maxLength: max });

const header = fc.oneof(
  fc.constantFrom(null, undefined, '', ' ', '0', '-1', '.5', '1e3', 'NaN', 'Infinity', 'soon', 'Mon', 'Thu, 01 Jan 1970 00:00:00 GMT', 'Fri, 31 Dec 9999 23:59:59 GMT', 'Sat, 13 Sep 275760 00:00:00 GMT'),
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  // Delay-seconds, up to 300 digits (beyond that the known overflow below takes over).
  fc.tuple(digits(1, 300), fc.option(digits(1, 20), { nil: undefined }), fc.constantFrom('', ' ', '\t')).map(([whole, fraction, pad]) => `${pad}${whole}${fraction === undefined ? '' : `.${fraction}`}${pad}`),
  fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.date({ noInvalidDate: true }).map((d) => String(d)),
);

describe('retryAfterMs: properties', () => {
  it('never throws; returns undefined or a non-negative finite number', () => {
    fc.assert(
      fc.property(header, now, (h, t) => {
        let result: unknown;
        expect(() => (result = retryAfterMs(h, t))).not.toThrow();
        expectDelay(result);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads whole delay-seconds exactly, and fractions never earlier than said (at most 1 ms later)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 999 }), digits(0, 6), now, (seconds, ms, more, t) => {
        expect(retryAfterMs(String(seconds), t)).toBe(seconds * 1000);
        // "2.007" is 2007 ms; the float product 2.007 * 1000 = 2007.0000000000002 rounds up to 2008,
        // which is harmless (never early), so one extra millisecond is allowed.
        const exact = seconds * 1000 + ms + (/[1-9]/.test(more) ? 1 : 0);
        const result = retryAfterMs(`${seconds}.${String(ms).padStart(3, '0')}${more}`, t)!;
        expect(result).toBeGreaterThanOrEqual(exact);
        expect(result).toBeLessThanOrEqual(exact + 1);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads an HTTP date relative to now (whole seconds), and a past date as 0', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_600_000_000, max: 4_102_444_800 }), fc.integer({ min: -1_000_000, max: 1_000_000 }), (nowSeconds, delta) => {
        const t = nowSeconds * 1000;
        const date = new Date(t + delta * 1000).toUTCString();
        expect(retryAfterMs(date, t)).toBe(Math.max(0, delta * 1000));
      }),
      { numRuns: RUNS },
    );
  });

  it('a delay-seconds value too large for a number is not Infinity', () => {
    fc.assert(
      fc.property(digits(306, 400).map((d) => `9${d}`), now, (h, t) => {
        expectDelay(retryAfterMs(h, t));
      }),
      { numRuns: 1000, examples: [[`1${'0'.repeat(309)}`, 0]], endOnFailure: true },
    );
  });
});
