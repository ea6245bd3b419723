/**
 * utf8Bytes and bytesOver (src/util/utf8-bytes.ts): the UTF-8 size of any
 * string, surrogate pairs and lone surrogates included, is what Node's
 * Buffer and TextEncoder make of it; bytesOver decides "over the limit"
 * exactly, also when the length alone cannot.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesOver, utf8Bytes } from '../../src/util/utf8-bytes.js';

/** Strings of any UTF-16 units: ASCII, 2- and 3-byte characters, pairs and lone halves of pairs. */
const anyText = fc.string({ unit: 'binary', maxLength: 200 });
const unitText = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 200 }).map((units) => String.fromCharCode(...units));

describe('utf8Bytes', () => {
  it('counts what TextEncoder writes, for arbitrary code points and arbitrary UTF-16 units', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.oneof(anyText, unitText), (text) => {
        expect(utf8Bytes(text)).toBe(encoder.encode(text).length);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['ASCII', 'hello', 5],
    ['two-byte', 'é', 2],
    ['three-byte', '€', 3],
    ['a surrogate pair', '😀', 4],
    ['a lone high surrogate', '\ud83d', 3],
    ['a lone low surrogate', '\ude00x', 4],
    ['a high surrogate at the end after a pair', '😀\ud83d', 7],
  ])('%s: %j is %i bytes', (_name, text, bytes) => {
    expect(utf8Bytes(text)).toBe(bytes);
    expect(Buffer.byteLength(text)).toBe(bytes);
  });
});

describe('bytesOver', () => {
  it('is the size exactly when it is over the limit, else undefined', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, unitText), fc.integer({ min: 0, max: 800 }), (text, limit) => {
        const bytes = Buffer.byteLength(text);
        expect(bytesOver(text, limit)).toBe(bytes > limit ? bytes : undefined);
      }),
      { numRuns: 2000 },
    );
  });

  it('decides by the bytes, not the length: 100 euro signs are 300 bytes', () => {
    const text = '€'.repeat(100);
    expect(bytesOver(text, 299)).toBe(300);
    expect(bytesOver(text, 300)).toBeUndefined();
  });
});
