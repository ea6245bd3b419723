/**
 * toUnits / formatUnits (src/wallet/amount.ts), property-based: arbitrary
 * numbers, strings and junk give a positive bigint or a ValidationError;
 * valid decimals (and exponent forms) scale exactly, checked against a
 * bigint reference computed independently; formatUnits inverts toUnits; more
 * than 6 decimals, zero, negatives, NaN and ±Infinity are always refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/validation-error.js';
import { formatUnits, TOKEN_DECIMALS, toUnits } from '../../src/wallet/amount.js';
import { parseTransferRequest } from '../../src/wallet/transfer-request.js';
import { junk, thrownBy } from '../helpers/property.js';

const RUNS = 2000;
const SCALE = 10n ** BigInt(TOKEN_DECIMALS);

/** toUnits, which must either return a positive bigint or throw a ValidationError on `field`. */
function units(amount: unknown, field = 'amount'): bigint | ValidationError {
  let result: bigint | undefined;
  const error = thrownBy(() => (result = toUnits(amount as number | string, field)), ValidationError) as ValidationError | undefined;
  if (error) {
    expect(error.issues.map((i) => i.path)).toEqual([field]);
    return error;
  }
  expect(typeof result).toBe('bigint');
  expect(result! > 0n).toBe(true);
  return result!;
}

const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '4', '5', '6', '7', '8', '9'), minLength: min, maxLength: max });
const space = fc.constantFrom('', '', '', ' ', '\t', '\n', ' \u00a0');

/** A decimal the way people type it: integer part (leading zeros allowed), 0–6 decimals, maybe "+", maybe "5.". */
const validDecimal = fc
  .record({ whole: digits(1, 20), fraction: digits(0, TOKEN_DECIMALS), dot: fc.boolean(), plus: fc.boolean(), before: space, after: space })
  .filter(({ whole, fraction }) => /[1-9]/.test(whole + fraction));

/** The reference: integer part × 10^6 + fraction padded to 6 digits, in bigint, no parsing of the whole. */
const reference = (whole: string, fraction: string): bigint => BigInt(whole) * SCALE + BigInt(fraction.padEnd(TOKEN_DECIMALS, '0'));

/** "007.2500" → "7.25": what formatUnits must print. */
const normalised = (whole: string, fraction: string): string => {
  const w = whole.replace(/^0+(?=\d)/, '');
  const f = fraction.replace(/0+$/, '');
  return f === '' ? w : `${w}.${f}`;
};

describe('toUnits / formatUnits: properties', () => {
  it('on arbitrary numbers, strings and junk: a positive bigint or a ValidationError, nothing else', () => {
    const decimalish = fc.stringMatching(/^\s?[+-]?\d{0,25}(\.\d{0,12})?([eE][+-]?\d{1,3})?\s?$/);
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.string(), fc.string({ unit: 'binary' }), decimalish, fc.bigInt().map(String), junk), fc.string({ minLength: 1, maxLength: 10 }), (amount, field) => {
        units(amount, field);
      }),
      { numRuns: RUNS },
    );
  });

  it('a valid decimal scales exactly (bigint reference) and formatUnits gives it back normalised', () => {
    fc.assert(
      fc.property(validDecimal, ({ whole, fraction, dot, plus, before, after }) => {
        const text = `${before}${plus ? '+' : ''}${whole}${fraction !== '' || dot ? '.' : ''}${fraction}${after}`;
        const result = units(text);
        expect(result).toBe(reference(whole, fraction));
        expect(formatUnits(result as bigint)).toBe(normalised(whole, fraction));
      }),
      { numRuns: RUNS },
    );
  });

  it('exponent forms scale exactly, or are refused when they leave more than 6 decimals or nothing', () => {
    fc.assert(
      fc.property(digits(1, 12), digits(0, 8), fc.integer({ min: -30, max: 30 }), fc.constantFrom('e', 'E', 'e+'), (whole, fraction, exponent, marker) => {
        const text = `${whole}${fraction ? `.${fraction}` : ''}${exponent < 0 ? 'e' : marker}${exponent}`;
        // Reference: the digits as one integer N with `fraction.length - exponent` decimal places.
        const n = BigInt(whole + fraction);
        const places = fraction.length - exponent;
        const scaled = places <= TOKEN_DECIMALS ? n * 10n ** BigInt(TOKEN_DECIMALS - places) : undefined;
        const divisor = places > TOKEN_DECIMALS ? 10n ** BigInt(places - TOKEN_DECIMALS) : 1n;
        const exact = scaled ?? (n % divisor === 0n ? n / divisor : undefined);
        const result = units(text);
        if (exact === undefined || exact === 0n) expect(result).toBeInstanceOf(ValidationError);
        else expect(result).toBe(exact);
      }),
      { numRuns: RUNS },
    );
  });

  it('never loses precision on numbers: formatUnits(u) as a number scales back to exactly u (u < 10^15)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }), (u) => {
        const tokens = Number(formatUnits(u));
        expect(units(tokens)).toBe(u);
        expect(units(String(tokens))).toBe(u);
      }),
      { numRuns: RUNS },
    );
  });

  it('formatUnits never throws, and toUnits inverts it for every positive amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), (u) => {
        const text = formatUnits(u);
        expect(text).toMatch(/^-?\d+(\.\d{1,6})?$/);
        if (u > 0n) expect(units(text)).toBe(u);
        else expect(units(text)).toBeInstanceOf(ValidationError);
      }),
      { numRuns: RUNS },
    );
  });

  it('more than 6 decimals is always refused', () => {
    fc.assert(
      fc.property(digits(1, 10), digits(TOKEN_DECIMALS, 20), fc.constantFrom('1', '2', '5', '9'), (whole, fraction, last) => {
        expect(units(`${whole}.${fraction}${last}`)).toBeInstanceOf(ValidationError);
        // As a number too, when its shortest form (what String() gives) still has more than 6 decimals.
        const n = Number(`0.${fraction}${last}`);
        const shortest = String(n);
        if (/e-/.test(shortest) || (shortest.split('.')[1]?.length ?? 0) > TOKEN_DECIMALS) expect(units(n)).toBeInstanceOf(ValidationError);
      }),
      { numRuns: RUNS },
    );
  });

  it('zero, negatives, NaN and ±Infinity are always refused', () => {
    const zero = fc.oneof(
      fc.constantFrom(0, -0, '0', '+0', '-0', '0.', '0.0', '000.000000', '0.0000000', '0e10', '0E-3', ' 0 '),
      fc.tuple(digits(1, 5), digits(0, 10)).map(([w, f]) => `${w.replace(/\d/g, '0')}.${f.replace(/\d/g, '0')}`),
    );
    const negative = fc.oneof(
      fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
      fc.integer({ max: -1 }),
      validDecimal.map(({ whole, fraction }) => `-${whole}.${fraction}`),
      validDecimal.map(({ whole, fraction, before }) => `${before}-${whole}${fraction}`),
    );
    const notFinite = fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 'NaN', 'Infinity', '-Infinity', '+Infinity', '1e', 'e5', '.5e1', '');
    fc.assert(
      fc.property(fc.oneof(zero, negative, notFinite), (amount) => {
        expect(units(amount)).toBeInstanceOf(ValidationError);
      }),
      { numRuns: RUNS },
    );
  });

  it('an exponent too large to expand is a ValidationError', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2 ** 30, max: Number.MAX_SAFE_INTEGER }), digits(1, 3), (exponent, mantissa) => {
        const amount = `${mantissa}e${exponent}`;
        units(amount);
        thrownBy(() => parseTransferRequest({ receiver_id: 'u1', amount }, undefined), ValidationError);
      }),
      { numRuns: 1000, examples: [[99_999_999_999, '1']], endOnFailure: true },
    );
  });
});
