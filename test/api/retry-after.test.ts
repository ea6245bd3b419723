/**
 * retryAfterMs (src/api/retry-after.ts): the `Retry-After` header of a 429 or
 * 503, as delay-seconds or an HTTP date, into milliseconds from `now`.
 */
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/api/retry-after.js';

const NOW = Date.parse('2026-01-01T00:00:00.000Z');

describe('retryAfterMs', () => {
  it('reads delay-seconds', () => {
    expect(retryAfterMs('0', NOW)).toBe(0);
    expect(retryAfterMs('1', NOW)).toBe(1000);
    expect(retryAfterMs('120', NOW)).toBe(120_000);
    expect(retryAfterMs(' 2 ', NOW)).toBe(2000);
  });

  it('accepts fractional seconds and rounds up to whole ms', () => {
    expect(retryAfterMs('1.5', NOW)).toBe(1500);
    expect(retryAfterMs('0.0001', NOW)).toBe(1);
  });

  it('reads an HTTP date relative to now, and a past date as 0', () => {
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', NOW)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs(new Date(NOW + 2500).toUTCString(), NOW)).toBe(2000); // HTTP dates have whole seconds
  });

  it('returns undefined when there is no header or it cannot be read', () => {
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
    expect(retryAfterMs(null, NOW)).toBeUndefined();
    expect(retryAfterMs('', NOW)).toBeUndefined();
    expect(retryAfterMs('soon', NOW)).toBeUndefined();
    expect(retryAfterMs('12abc', NOW)).toBeUndefined();
    expect(retryAfterMs('1e3', NOW)).toBeUndefined();
  });

  // Text that is neither delay-seconds nor an HTTP date is ignored rather than read leniently as a date.
  it('ignores a negative or malformed number instead of reading it as a date', () => {
    expect(retryAfterMs('-1', NOW)).toBeUndefined();
    expect(retryAfterMs('.5', NOW)).toBeUndefined();
  });
});
