/**
 * The browser build writes frames with src/production/wire/lean-writer.ts
 * instead of protobuf-es's BinaryWriter: for any value, valid or not, of
 * every scalar type, both write the same bytes or refuse it with the same
 * message, and nested length-delimited values come out the same.
 */
import { ScalarType } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LeanWriter } from '../../../src/production/wire/lean-writer.js';

/** protobuf-es's writer method of each scalar type. */
const METHOD = {
  [ScalarType.DOUBLE]: 'double',
  [ScalarType.FLOAT]: 'float',
  [ScalarType.INT64]: 'int64',
  [ScalarType.UINT64]: 'uint64',
  [ScalarType.INT32]: 'int32',
  [ScalarType.FIXED64]: 'fixed64',
  [ScalarType.FIXED32]: 'fixed32',
  [ScalarType.BOOL]: 'bool',
  [ScalarType.STRING]: 'string',
  [ScalarType.BYTES]: 'bytes',
  [ScalarType.UINT32]: 'uint32',
  [ScalarType.SFIXED32]: 'sfixed32',
  [ScalarType.SFIXED64]: 'sfixed64',
  [ScalarType.SINT32]: 'sint32',
  [ScalarType.SINT64]: 'sint64',
} as const satisfies Record<ScalarType, keyof BinaryWriter>;

/** The bytes written, or the message of what was thrown. */
function outcome(write: () => Uint8Array): { bytes: number[] } | { error: string } {
  try {
    return { bytes: [...write()] };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const edges = [0, -0, 1, -1, 127, 128, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 53, -(2 ** 53), 0.5, 3.4028235e38, 1e39, -1e39, NaN, Infinity, -Infinity];
const anyValue = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
  fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  fc.double(),
  fc.constantFrom(...edges),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
  fc.constantFrom(...edges).map(String),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' 12 ', '0x10', '1e3', 'NaN', 'nope', '-0'),
  fc.boolean(),
  fc.constantFrom(undefined, null),
);

describe('the lean writer writes what protobuf-es’s BinaryWriter writes', () => {
  it.each(Object.entries(METHOD))('any value as scalar type %s (%s)', (type, method) => {
    const scalar = Number(type) as ScalarType;
    const values = scalar === ScalarType.BYTES ? fc.uint8Array({ maxLength: 300 }) : anyValue;
    fc.assert(
      fc.property(values, (value) => {
        const theirs = outcome(() => (new BinaryWriter()[method] as (v: unknown) => BinaryWriter)(value).finish());
        expect(outcome(() => new LeanWriter().scalar(scalar, value).finish())).toEqual(theirs);
      }),
      { numRuns: 300 },
    );
  });

  it('writes tags and nested length-delimited values (short and long) alike', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 2 ** 29 - 1 }), fc.string({ maxLength: 200 }), fc.nat(3)), { maxLength: 12 }), (items) => {
        const theirs = new BinaryWriter();
        const ours = new LeanWriter();
        for (const [no, text, depth] of items) {
          for (let i = 0; i < depth; i++) {
            theirs.tag(no, WireType.LengthDelimited).fork();
            ours.tag(no, WireType.LengthDelimited).fork();
          }
          theirs.tag(no, WireType.LengthDelimited).string(text).raw(Uint8Array.of(no & 0xff));
          ours.tag(no, WireType.LengthDelimited).scalar(ScalarType.STRING, text).raw(Uint8Array.of(no & 0xff));
          for (let i = 0; i < depth; i++) {
            theirs.join();
            ours.join();
          }
        }
        expect([...ours.finish()]).toEqual([...theirs.finish()]);
      }),
      { numRuns: 200 },
    );
  });
});
