/**
 * decodeFrame (src/gateway/clanstream-wire.ts), property-based: whatever the server
 * sends — arbitrary text, arbitrary JSON, `__proto__` keys, huge numbers,
 * nested junk — it never throws, returns a well-formed ServerFrame or a
 * ProtocolError with a short excerpt, round-trips event payloads, normalises
 * every channel_message and typing notice (never a message), and never
 * pollutes a built-in prototype.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/errors/protocol-error.js';
import { ALL_EVENTS, Events, isEventName } from '../../src/events/names.js';
import { decodeFrame, type ServerFrame } from '../../src/gateway/clanstream-wire.js';
import { expectNoPollution, jsonKey, jsonText, numberLiteral, protoJsonText, prototypeSnapshot } from '../helpers/property.js';

const RUNS = 2000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Decodes and checks the one contract every result meets; returns the result. */
function decodeChecked(text: string): ServerFrame | ProtocolError {
  let result: ServerFrame | ProtocolError | undefined;
  expect(() => (result = decodeFrame(text))).not.toThrow();
  if (result instanceof ProtocolError) {
    expect(result.kind).toBe('protocol');
    expect(result.excerpt.length).toBeLessThanOrEqual(201);
    expect(result.excerpt).toBe(text.length > 200 ? `${text.slice(0, 200)}…` : text);
    expect(typeof result.message).toBe('string');
    return result;
  }
  expectWellFormed(result!);
  return result!;
}

function expectWellFormed(frame: ServerFrame): void {
  switch (frame.kind) {
    case 'hello':
      expect(isRecord(frame.hello)).toBe(true);
      expect(typeof frame.hello.heartbeat_interval_ms).toBe('number');
      expect(frame.hello.heartbeat_interval_ms).toBeGreaterThan(0);
      return;
    case 'event': {
      expect(typeof frame.sessionId).toBe('string');
      expect(isEventName(frame.event.type)).toBe(true);
      expect(Number.isSafeInteger(frame.event.seq) && frame.event.seq >= 1).toBe(true);
      expect(isRecord(frame.event.data)).toBe(true);
      if (frame.event.type === Events.ChannelMessage) expectNormalisedMessage(frame.event.data as unknown as Record<string, unknown>);
      if (frame.event.type === Events.MessageTyping) expectNormalisedTyping(frame.event.data as unknown as Record<string, unknown>);
      return;
    }
    case 'reply':
      expect(typeof frame.cid).toBe('string');
      expect(typeof frame.op).toBe('string');
      expect(['cid', 'seq', 'session_id']).not.toContain(frame.op);
      return;
    case 'error':
      expect(frame.cid === undefined || typeof frame.cid === 'string').toBe(true);
      expect(typeof frame.error.code).toBe('string');
      expect(typeof frame.error.message).toBe('string');
      return;
    case 'invalid_event':
      expect(Number.isSafeInteger(frame.seq) && frame.seq >= 1).toBe(true);
      expect(frame.error).toBeInstanceOf(ProtocolError);
      expect(frame.error.excerpt.length).toBeLessThanOrEqual(201);
      return;
    case 'unknown_event':
      expect(Number.isSafeInteger(frame.seq) && frame.seq >= 1).toBe(true);
      expect(typeof frame.type).toBe('string');
      expect(isEventName(frame.type)).toBe(false);
      return;
    default:
      throw new Error(`unknown frame kind ${(frame as { kind: unknown }).kind as string}`);
  }
}

/** What every consumer of a channel_message relies on. */
function expectNormalisedMessage(data: Record<string, unknown>): void {
  expect(typeof data.message_id).toBe('string');
  expect(typeof data.id).toBe('string');
  expect(typeof data.channel_id).toBe('string');
  expect(isRecord(data.content)).toBe(true);
  for (const key of ['mentions', 'attachments', 'reactions', 'references']) expect(Array.isArray(data[key])).toBe(true);
  expect(typeof data.code).toBe('number');
}

/** A typing notice: exactly its eight declared fields, each of its type. */
function expectNormalisedTyping(data: Record<string, unknown>): void {
  expect(Object.keys(data).sort()).toEqual(['channel_id', 'clan_id', 'is_public', 'mode', 'sender_display_name', 'sender_id', 'sender_username', 'topic_id']);
  for (const key of ['channel_id', 'clan_id', 'sender_display_name', 'sender_id', 'sender_username', 'topic_id']) expect(typeof data[key]).toBe('string');
  expect(typeof data.mode).toBe('number');
  expect(typeof data.is_public).toBe('boolean');
}

const FRAME_KEYS = ['seq', 'cid', 'session_id', 'hello', 'error', 'pong', 'ready', 'resumed', 'resume_failed', ...ALL_EVENTS];

/** A frame-shaped JSON object: protocol keys, event names, dangerous keys; values nested junk and odd numbers. */
const frameLike: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...FRAME_KEYS), jsonKey()), fc.oneof(numberLiteral, jsonText(['message_id', 'channel_id', 'content', 't', 'code', 'message', 'heartbeat_interval_ms']))), {
    maxLength: 5,
  })
  .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);

/** JSON of a value fast-check can imagine (undefined and functions serialise to nothing). */
const serialisedAnything: fc.Arbitrary<string> = fc
  .anything({ maxDepth: 4, withBoxedValues: true, withDate: true, withMap: true, withSet: true, withSparseArray: true, withNullPrototype: true, stringUnit: 'binary' })
  .map((value) => JSON.stringify(value) ?? 'undefined');

const anyText: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', 'seq', 'cid', '1', '-1', 'e400', 'null', ' ', '\\', '__proto__'), maxLength: 30 }),
  fc.json(),
  serialisedAnything,
  frameLike,
  protoJsonText(FRAME_KEYS),
);

describe('decodeFrame: properties', () => {
  it('never throws on arbitrary text: a well-formed frame or a ProtocolError with a ≤ 201-character excerpt', () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(anyText, (text) => {
        decodeChecked(text);
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('an event frame with a valid seq round-trips its payload, in any key order', () => {
    // Channel messages and typing notices are normalised (properties below); every other payload is passed on as sent.
    const names = ALL_EVENTS.filter((e) => e !== Events.ChannelMessage && e !== Events.MessageTyping);
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        fc.string({ unit: 'binary', maxLength: 20 }),
        fc.dictionary(jsonKey(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
        fc.constantFrom([0, 1, 2], [2, 1, 0], [1, 2, 0], [0, 2, 1]),
        (name, seq, sessionId, payload, order) => {
          const payloadText = JSON.stringify(payload);
          const parts = [`"seq":${seq}`, `"session_id":${JSON.stringify(sessionId)}`, `${JSON.stringify(name)}:${payloadText}`];
          const frame = decodeChecked(`{${order.map((i) => parts[i]).join(',')}}`);
          expect(frame).toEqual({ kind: 'event', sessionId, event: { type: name, seq, data: JSON.parse(payloadText) as unknown } });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('a complete channel_message round-trips unchanged', () => {
    const message = fc.record({
      message_id: fc.string({ minLength: 1, maxLength: 20 }),
      channel_id: fc.string({ maxLength: 20 }),
      clan_id: fc.string({ maxLength: 20 }),
      content: fc.dictionary(jsonKey(['t', 'mk', 'hg']), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      mentions: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      attachments: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      reactions: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      references: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      // Code 3 is typing, which is not a message (the property after the next).
      code: fc.integer().filter((code) => code !== 3),
      extra: fc.jsonValue({ maxDepth: 2 }),
    });
    fc.assert(
      fc.property(message, fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (m, seq) => {
        const data = { ...m, id: m.message_id };
        const text = `{"seq":${seq},"session_id":"S","channel_message":${JSON.stringify(data)}}`;
        expect(decodeChecked(text)).toEqual({ kind: 'event', sessionId: 'S', event: { type: Events.ChannelMessage, seq, data: JSON.parse(JSON.stringify(data)) as unknown } });
      }),
      { numRuns: RUNS },
    );
  });

  it('a decoded channel_message always has the four arrays, an object content, ids and a code', () => {
    const field = (keys: readonly string[] = []) => fc.oneof(jsonText(keys, 2), fc.string({ unit: 'binary', maxLength: 10 }).map((s) => JSON.stringify(s)), numberLiteral);
    const contentValue = fc.oneof(
      field(['t', 'mk']),
      // Content sent JSON-encoded, as some servers do: valid JSON of anything, or plain text.
      jsonText(['t', 'mk'], 2).map((inner) => JSON.stringify(inner)),
      fc.string({ unit: 'binary', maxLength: 20 }).map((s) => JSON.stringify(s)),
    );
    const keys = ['id', 'message_id', 'channel_id', 'content', 'mentions', 'attachments', 'reactions', 'references', 'code'] as const;
    const payload = fc
      .tuple(
        fc.record({
          id: field(),
          message_id: field(),
          channel_id: field(),
          content: contentValue,
          mentions: field(),
          attachments: field(),
          reactions: field(),
          references: field(),
          code: field(),
        }, { requiredKeys: [] }),
        fc.array(fc.tuple(jsonKey(), field()), { maxLength: 3 }),
      )
      .map(([known, extra]) => {
        const entries = [...keys.filter((k) => known[k] !== undefined).map((k) => [k, known[k]!] as const), ...extra];
        return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
      });
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(payload, fc.integer({ min: 1, max: 1000 }), (payloadText, seq) => {
        const frame = decodeChecked(`{"seq":${seq},"session_id":"S","channel_message":${payloadText}}`);
        const raw = JSON.parse(payloadText) as Record<string, unknown>;
        if (raw.code === 3) {
          // Typing: never a channel_message (see the typing property).
          expect(frame).not.toMatchObject({ event: { type: Events.ChannelMessage } });
          return;
        }
        const hasIds = (typeof raw.message_id === 'string' || typeof raw.id === 'string') && typeof raw.channel_id === 'string';
        if (!hasIds) {
          // Refused, with its seq kept so the connection still counts it.
          expect(frame).toMatchObject({ kind: 'invalid_event', seq });
          return;
        }
        if (frame instanceof ProtocolError || frame.kind !== 'event') throw new Error(`a channel_message with ids was refused: ${payloadText}`);
        const data = frame.event.data as unknown as Record<string, unknown>;
        expectNormalisedMessage(data);
        // content: an object as sent; JSON text of an object parsed; other JSON text → {}; non-JSON text → {t}.
        let expected: unknown = raw.content;
        if (typeof raw.content === 'string') {
          try {
            expected = JSON.parse(raw.content);
          } catch {
            expected = { t: raw.content };
          }
        }
        expect(data.content).toEqual(isRecord(expected) ? expected : {});
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('typing is never a message: message_typing_event and a channel_message of code 3 decode to the notice, or are refused with their seq', () => {
    const field = () => fc.oneof(jsonText([], 1), fc.string({ unit: 'binary', maxLength: 10 }).map((s) => JSON.stringify(s)), numberLiteral, fc.constantFrom('true', 'false'));
    const keys = ['message_id', 'clan_id', 'channel_id', 'sender_id', 'mode', 'is_public', 'sender_username', 'sender_display_name', 'username', 'display_name', 'topic_id', 'content'] as const;
    const payload = fc
      .tuple(fc.dictionary(fc.constantFrom(...keys), field(), { maxKeys: keys.length }), fc.array(fc.tuple(jsonKey(), field()), { maxLength: 3 }))
      .map(([known, extra]) => [...Object.entries(known), ...extra]);
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(payload, fc.boolean(), fc.integer({ min: 1, max: 1000 }), (entries, asMessage, seq) => {
        const fields = [...entries, ...(asMessage ? [['code', '3'] as const] : [])];
        const payloadText = `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
        const frame = decodeChecked(`{"seq":${seq},"session_id":"S",${JSON.stringify(asMessage ? Events.ChannelMessage : Events.MessageTyping)}:${payloadText}}`);
        const raw = JSON.parse(payloadText) as Record<string, unknown>;
        if (typeof raw.channel_id !== 'string' || typeof raw.sender_id !== 'string') {
          expect(frame).toMatchObject({ kind: 'invalid_event', seq });
          return;
        }
        if (frame instanceof ProtocolError || frame.kind !== 'event') throw new Error(`a typing notice with its ids was refused: ${payloadText}`);
        expect(frame.event.type).toBe(Events.MessageTyping);
        const name = (key: string) => (typeof raw[key] === 'string' ? raw[key] : '');
        expect(frame.event.data).toMatchObject({
          channel_id: raw.channel_id,
          sender_id: raw.sender_id,
          sender_username: name(asMessage ? 'username' : 'sender_username'),
          sender_display_name: name(asMessage ? 'display_name' : 'sender_display_name'),
        });
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses every seq that is not a safe integer ≥ 1, including huge and fractional numbers', () => {
    const badSeq = fc.oneof(
      fc.constantFrom('0', '-0', '-1', '1.5', '1e400', '-1e400', '9007199254740992', '18014398509481984', '123456789012345678901234567890', '5e-324'),
      fc.integer({ max: 0 }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isSafeInteger(n) || n < 1).map((n) => JSON.stringify(n)),
    );
    fc.assert(
      fc.property(badSeq, fc.constantFrom(...ALL_EVENTS, 'future_event', '__proto__'), (seq, op) => {
        const frame = decodeChecked(`{"seq":${seq},"session_id":"S",${JSON.stringify(op)}:{"message_id":"M","channel_id":"C"}}`);
        expect(frame).toBeInstanceOf(ProtocolError);
        expect((frame as ProtocolError).message).toMatch(/invalid seq/);
      }),
      { numRuns: RUNS },
    );
  });

  it('frames with __proto__, constructor and prototype keys anywhere never pollute Object.prototype', () => {
    const before = prototypeSnapshot();
    const wrapped = fc.oneof(
      protoJsonText(FRAME_KEYS),
      fc.tuple(fc.constantFrom(...ALL_EVENTS, 'hello', 'error', 'ready'), protoJsonText(['message_id', 'channel_id', 'content', 'code', 'message', 'heartbeat_interval_ms']), fc.boolean()).map(
        ([op, payload, withSeq]) => `{${withSeq ? '"seq":1,' : '"cid":"c",'}"session_id":"S",${JSON.stringify(op)}:${payload}}`,
      ),
      fc.tuple(protoJsonText(['t', 'mk']), fc.boolean()).map(
        ([content, encoded]) => `{"seq":1,"channel_message":{"message_id":"M","channel_id":"C","content":${encoded ? JSON.stringify(content) : content}}}`,
      ),
    );
    fc.assert(
      fc.property(wrapped, (text) => {
        decodeChecked(text);
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('a ProtocolError message stays short whatever the frame', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 2000 }).filter((k) => !['cid', 'seq', 'session_id', 'error', 'hello'].includes(k)), (key) => {
        const result = decodeFrame(`{${JSON.stringify(key)}:{}}`);
        expect(result).toBeInstanceOf(ProtocolError);
        expect((result as ProtocolError).message.length).toBeLessThanOrEqual(250);
      }),
      { numRuns: RUNS, examples: [['x'.repeat(300)]], endOnFailure: true },
    );
  });
});
