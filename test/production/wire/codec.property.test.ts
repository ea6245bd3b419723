/**
 * The production wire's codec, property-based: whatever bytes arrive, telling
 * their dialect and decoding them never throws and yields a typed result;
 * every frame our encoder writes carries its own dialect's markers and
 * decodes to what was encoded; raw answers stay within their limits and join
 * to exactly the chunks that were sent; no input makes encoding throw.
 */
import { equals } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/errors/protocol-error.js';
import { ValidationError } from '../../../src/errors/validation-error.js';
import { DIALECTS, encodeEnvelope, FrameDecoder, frameDialects, RawAnswers, readRawFrame, SDK_2_8_37, SDK_2_8_44, type RawAnswerStep } from '../../../src/production/wire/index.js';
import { arbitraryMessage } from './support/message-arbitrary.js';

const RUNS = 1000;
const NAMES = DIALECTS.map((d) => d.name);

/** Tag bytes that look like Envelope fields, so random frames reach past the first byte. */
const tag = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x08, 0x0a, 0x12, 0x1a, 0x32, 0x3a, 0xe2, 0x82, 0xff));
const anyFrame = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.array(fc.oneof(tag, fc.integer({ min: 0, max: 255 })), { maxLength: 96 }).map((bytes) => Uint8Array.from(bytes)),
  fc.uint8Array({ maxLength: 32 }).map((rest) => Uint8Array.from([0xff, ...rest])),
);

describe('the production wire codec, on any bytes', () => {
  it('names only known dialects, and never throws', () => {
    fc.assert(
      fc.property(anyFrame, (bytes) => {
        const named = frameDialects(bytes);
        for (const name of named) expect(NAMES).toContain(name);
        expect([...named].sort((a, b) => NAMES.indexOf(a) - NAMES.indexOf(b))).toEqual(named);
      }),
      { numRuns: RUNS },
    );
  });

  it('decodes in every dialect to a typed frame or a typed error, never throws', () => {
    fc.assert(
      fc.property(anyFrame, (bytes) => {
        for (const dialect of DIALECTS) {
          const frame = new FrameDecoder(dialect).decode(bytes);
          switch (frame.kind) {
            case 'envelope':
              expect(frameDialects(bytes)).toContain(dialect.name);
              break;
            case 'foreign':
              expect(frame.dialects.length).toBeGreaterThan(0);
              expect(frame.dialects).not.toContain(dialect.name);
              expect(frame.error).toBeInstanceOf(ProtocolError);
              break;
            case 'invalid':
            case 'api_failed':
              expect(frame.error).toBeInstanceOf(ProtocolError);
              break;
            default:
              expect(dialect.rawFrames).toBe(true);
          }
        }
        const raw = readRawFrame(bytes);
        if (!(raw instanceof ProtocolError)) expect(raw.payload.length).toBe(bytes.length - 7);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the production wire codec, on its own frames', () => {
  it.each(DIALECTS.map((d) => [d.name, d] as const))('%s: every Envelope it writes carries its markers and decodes to what was written', (_, dialect) => {
    fc.assert(
      fc.property(arbitraryMessage(dialect.envelope), (envelope) => {
        const bytes = encodeEnvelope(dialect, envelope);
        if (!(bytes instanceof Uint8Array)) throw bytes;
        expect(frameDialects(bytes)).toContain(dialect.name);
        const frame = new FrameDecoder(dialect).decode(bytes);
        if (bytes.length === 0) {
          // An empty Envelope is an empty frame, which no server sends.
          expect(frame.kind).toBe('invalid');
        } else {
          if (frame.kind !== 'envelope') throw new Error(`decoded as ${frame.kind}`);
          expect(equals(dialect.envelope, frame.envelope, envelope)).toBe(true);
        }
      }),
      { numRuns: RUNS / 4 },
    );
  });

  it('refuses ids and cids the wire cannot carry with a ValidationError, never a throw', () => {
    const decimalInt64 = (id: string): boolean => /^-?\d+$/.test(id) && BigInt(id) >= -(2n ** 63n) && BigInt(id) < 2n ** 63n;
    const unreadable = (id: string): boolean => {
      try {
        BigInt(id);
        return false;
      } catch {
        return true;
      }
    };
    const id = fc.oneof(fc.string({ maxLength: 24 }), fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String));
    fc.assert(
      fc.property(id, fc.oneof(fc.integer(), fc.double()), (id, cid) => {
        const b = encodeEnvelope(SDK_2_8_37, { cid: '1', message: { case: 'clanJoin', value: { clanId: id } } });
        const c = encodeEnvelope(SDK_2_8_44, { cid, message: { case: 'clanJoin', value: { clanId: '1' } } });
        // protobuf-es reads int64 text as BigInt() does (so " 7" is 7); the server's ids are plain decimals.
        if (decimalInt64(id)) expect(b).toBeInstanceOf(Uint8Array);
        if (unreadable(id) || (/^-?\d+$/.test(id) && !decimalInt64(id))) expect(b).toBeInstanceOf(ValidationError);
        if (!(b instanceof Uint8Array)) expect(b).toBeInstanceOf(ValidationError);
        expect(c instanceof Uint8Array).toBe(Number.isInteger(cid) && cid >= -(2 ** 31) && cid < 2 ** 31);
        if (!(c instanceof Uint8Array)) expect(c).toBeInstanceOf(ValidationError);
      }),
      { numRuns: RUNS },
    );
  });
});

/** One raw frame: a cid from a few, a FIN or not, a chunk. */
const rawFrame = fc.record({ cid: fc.integer({ min: 0, max: 4 }), fin: fc.boolean(), code: fc.integer({ min: 0, max: 3 }), payload: fc.uint8Array({ maxLength: 12 }) });

describe('raw answers', () => {
  it('stay within their limits, whatever frames come', () => {
    fc.assert(
      fc.property(fc.array(rawFrame, { maxLength: 60 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 3 }), (frames, maxBytes, maxOpen) => {
        const answers = new RawAnswers({ maxBytes, maxOpen });
        for (const frame of frames) {
          const step = answers.add(frame);
          expect(['api_answer', 'api_chunk', 'api_failed', 'api_discarded']).toContain(step.kind);
          expect(step.cid).toBe(frame.cid);
          expect(answers.heldBytes).toBeLessThanOrEqual(maxBytes);
          expect(answers.openAnswers).toBeLessThanOrEqual(maxOpen);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('join, within their limits, exactly the chunks sent for a cid since its last FIN', () => {
    fc.assert(
      fc.property(fc.array(rawFrame, { maxLength: 60 }), (frames) => {
        const answers = new RawAnswers();
        const model = new Map<number, number[]>();
        for (const frame of frames) {
          const step: RawAnswerStep = answers.add(frame);
          const sent = [...(model.get(frame.cid) ?? []), ...frame.payload];
          if (!frame.fin) {
            model.set(frame.cid, sent);
            expect(step).toEqual({ kind: 'api_chunk', cid: frame.cid, bytes: frame.payload.length });
            continue;
          }
          model.delete(frame.cid);
          expect(step).toEqual({ kind: 'api_answer', cid: frame.cid, code: frame.code, body: Uint8Array.from(sent) });
        }
        expect(answers.openAnswers).toBe(model.size);
      }),
      { numRuns: RUNS },
    );
  });
});
