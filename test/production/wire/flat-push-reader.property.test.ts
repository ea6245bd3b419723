/**
 * The lean reader of flat pushes (src/production/wire/flat-push-reader.ts)
 * against the schema's own decoder: for every Envelope case it reads, in
 * every dialect, generated messages (any value of every field, with or
 * without a cid) decode to the same message, field for field and type for
 * type; frames it must not read alone (cut, altered, a case twice, an unknown
 * field, another case) are left to the schema's decoder, never read
 * otherwise; decodeEnvelope answers as the schema's decoder does.
 */
import { create, fromBinary, toBinary, type DescField, type DescMessage } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/errors/protocol-error.js';
import { readFlatPush } from '../../../src/production/wire/flat-push-reader.js';
import { decodeEnvelope, DIALECTS, SDK_2_8_37, SDK_2_8_44, type Dialect } from '../../../src/production/wire/index.js';
import { arbitraryMessage } from './support/message-arbitrary.js';

const RUNS = 200;

type CaseField = DescField & { fieldKind: 'message'; message: DescMessage };

const caseFields = (d: Dialect): CaseField[] => d.envelope.fields.filter((f): f is CaseField => f.fieldKind === 'message' && f.oneof !== undefined);

const envelopeBytes = (d: Dialect, init: object): Uint8Array => toBinary(d.envelope, create(d.envelope, init as never));

/** The cases the lean reader reads: those it answers for on an empty message of the case. */
const leanCases = (d: Dialect): CaseField[] => caseFields(d).filter((f) => readFlatPush(d.envelope, envelopeBytes(d, { message: { case: f.localName, value: create(f.message) } })) !== undefined);

/** What the schema's decoder makes of the bytes, or the error it throws. */
function reflective(d: Dialect, bytes: Uint8Array): unknown {
  try {
    return fromBinary(d.envelope, bytes);
  } catch (error) {
    return error;
  }
}

const anyCid = (d: Dialect): fc.Arbitrary<string | number | undefined> => {
  const cid: fc.Arbitrary<string | number> = d.cid === 'int32' ? fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) : fc.string({ unit: 'grapheme', maxLength: 6 });
  return fc.option(cid, { nil: undefined });
};

/** A frame of one lean case: any message of it, any cid. */
const leanFrame = (d: Dialect, field: CaseField): fc.Arbitrary<Uint8Array> =>
  fc.tuple(arbitraryMessage(field.message), anyCid(d)).map(([value, cid]) => envelopeBytes(d, { ...(cid === undefined ? {} : { cid }), message: { case: field.localName, value } }));

/** A frame of any case (lean or not), then altered: cut, a byte changed, or bytes appended (another message of its case, to be merged; an unknown field; noise). */
const alteredFrame = (d: Dialect): fc.Arbitrary<Uint8Array> =>
  fc
    .constantFrom(...caseFields(d))
    .chain((field) => {
      const frame = fc.tuple(arbitraryMessage(field.message, 1), anyCid(d)).map(([value, cid]) => envelopeBytes(d, { ...(cid === undefined ? {} : { cid }), message: { case: field.localName, value } }));
      return fc.tuple(frame, frame, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('cut', 'change', 'again', 'unknown', 'noise'), fc.uint8Array({ maxLength: 12 }));
    })
    .map(([bytes, second, at, byte, how, noise]) => {
      const i = bytes.length === 0 ? 0 : at % bytes.length;
      switch (how) {
        case 'cut':
          return bytes.subarray(0, i);
        case 'change': {
          const changed = Uint8Array.from(bytes);
          if (changed.length > 0) changed[i] = byte;
          return changed;
        }
        case 'again':
          return Uint8Array.from([...bytes, ...second]);
        case 'unknown':
          // Field 1000 (varint), which no Envelope has.
          return Uint8Array.from([...bytes, 0xc0, 0x3e, byte & 0x7f]);
        default:
          return Uint8Array.from([...bytes, ...noise]);
      }
    });

describe('the lean reader of flat pushes', () => {
  it('reads channel_message in the dialects of era B and later, and only flat cases', () => {
    for (const d of [SDK_2_8_37, SDK_2_8_44]) expect(leanCases(d).map((f) => f.localName)).toContain('channelMessage');
    for (const d of DIALECTS) {
      for (const field of leanCases(d)) {
        for (const inner of field.message.fields) expect(inner.fieldKind, `${d.name} ${field.localName}.${inner.localName}`).toBe('scalar');
      }
    }
  });

  it('reads text of any length and script as the schema does, and leaves text that is not UTF-8 to it', () => {
    const d = SDK_2_8_44;
    // ASCII runs around the length read byte by byte (256), text with other scripts, and bytes that are not UTF-8.
    const ascii = fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), minLength: 0, maxLength: 300 });
    const anyText = fc.oneof(ascii, fc.string({ unit: 'grapheme', maxLength: 80 }), fc.tuple(ascii, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 })).map(([a, b]) => a + b));
    const frame = fc.tuple(anyText, anyText, fc.boolean(), fc.integer({ min: 0x80, max: 0xff })).map(([content, username, broken, byte]) => {
      const bytes = envelopeBytes(d, { message: { case: 'channelMessage', value: { messageId: '1', channelId: '2', content, username } } });
      if (!broken) return bytes;
      // A lone continuation or lead byte in place of the last character of a text: not UTF-8.
      const at = bytes.lastIndexOf(username.charCodeAt(username.length - 1) & 0x7f);
      const altered = Uint8Array.from(bytes);
      if (username !== '' && at >= 0) altered[at] = byte;
      return altered;
    });
    fc.assert(
      fc.property(frame, (bytes) => {
        const lean = readFlatPush(d.envelope, bytes);
        const expected = reflective(d, bytes);
        if (expected instanceof Error) expect(lean).toBeUndefined();
        else expect(lean).toStrictEqual(expected);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  for (const d of DIALECTS) {
    describe(d.name, () => {
      for (const field of leanCases(d)) {
        it(`decodes ${field.localName} as the schema's decoder does`, () => {
          fc.assert(
            fc.property(leanFrame(d, field), (bytes) => {
              const lean = readFlatPush(d.envelope, bytes);
              expect(lean).toBeDefined();
              expect(lean).toStrictEqual(fromBinary(d.envelope, bytes));
            }),
            { numRuns: RUNS },
          );
        });
      }

      it('leaves every frame it cannot read in full to the schema, and never reads one otherwise', () => {
        fc.assert(
          fc.property(alteredFrame(d), (bytes) => {
            const lean = readFlatPush(d.envelope, bytes);
            const expected = reflective(d, bytes);
            if (expected instanceof Error) expect(lean).toBeUndefined();
            else if (lean !== undefined) expect(lean).toStrictEqual(expected);
          }),
          { numRuns: RUNS * 5 },
        );
      });

      it('decodeEnvelope answers as the schema does, read lean or not', () => {
        fc.assert(
          fc.property(fc.oneof(alteredFrame(d), ...leanCases(d).slice(0, 4).map((field) => leanFrame(d, field))), (bytes) => {
            const decoded = decodeEnvelope(d, bytes);
            const expected = reflective(d, bytes);
            if (expected instanceof Error) expect(decoded).toBeInstanceOf(ProtocolError);
            else expect(decoded).toStrictEqual(expected);
          }),
          { numRuns: RUNS },
        );
      });
    });
  }
});
