/**
 * base64Of (src/util/base64.ts): padded standard base64 of any bytes, the text
 * Node's Buffer and @scure/base write (the signature of a token transfer
 * carries it, and the token network decodes it with @scure/base).
 */
import { base64 } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Of } from '../../src/util/base64.js';

describe('base64Of', () => {
  it('writes what Buffer and @scure/base write for arbitrary bytes, every length mod 3 included, and decodes back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = base64Of(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64'));
        expect(text).toBe(base64.encode(bytes));
        expect(base64.decode(text)).toEqual(bytes);
      }),
      { numRuns: 500 },
    );
  });
});
