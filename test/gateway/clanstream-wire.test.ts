/**
 * decodeFrame (src/gateway/clanstream-wire.ts): every server frame kind of PROTOCOL
 * §4.2, channel_message normalisation, typing (never a message), and bad
 * input, which never throws and becomes a ProtocolError carrying a short
 * excerpt of the frame.
 */
import { describe, expect, it } from 'vitest';
import { Events, ProtocolError } from '../../src/index.js';
import { decodeFrame, type ServerFrame } from '../../src/gateway/clanstream-wire.js';

const HELLO = { protocol: 1, heartbeat_interval_ms: 15000, heartbeat_timeout_ms: 45000, max_frame_bytes: 262144, server_time_ms: 1795277644447 };

const MESSAGE = {
  id: '1840000000000000012',
  message_id: '1840000000000000012',
  channel_id: '1840000000000000006',
  clan_id: '1840000000000000005',
  channel_label: 'general',
  mode: 2,
  code: 0,
  sender_id: '1840000000000000002',
  username: 'alice',
  display_name: 'Alice',
  clan_nick: '',
  clan_avatar: '',
  avatar: '',
  content: { t: 'hello' },
  mentions: [],
  attachments: [],
  reactions: [],
  references: [],
  is_public: true,
  create_time_seconds: 1795277644,
  update_time_seconds: 1795277644,
  topic_id: '',
  category_name: 'Text Channels',
};

const TYPING = {
  clan_id: '1840000000000000005',
  channel_id: '1840000000000000006',
  sender_id: '1840000000000000002',
  mode: 2,
  is_public: true,
  sender_username: 'alice',
  sender_display_name: 'Alice',
  topic_id: '',
};

function decoded(text: string): ServerFrame {
  const frame = decodeFrame(text);
  if (frame instanceof ProtocolError) throw new Error(`unexpected ProtocolError: ${frame.message}`);
  return frame;
}

function refused(text: string): ProtocolError {
  const frame = decodeFrame(text);
  if (frame instanceof ProtocolError) return frame;
  // An event with a usable seq but an unusable payload: refused, its seq kept (see the connection).
  if (frame.kind === 'invalid_event') return frame.error;
  throw new Error(`expected a ProtocolError for ${text.slice(0, 80)}, got ${frame.kind}`);
}

describe('decodeFrame: frame kinds', () => {
  it('hello', () => {
    expect(decoded(JSON.stringify({ hello: HELLO }))).toEqual({ kind: 'hello', hello: HELLO });
  });

  it('an event push: {type, seq, data} and its session id', () => {
    const frame = decoded(JSON.stringify({ seq: 3, session_id: 'S1', [Events.ChannelMessage]: MESSAGE }));
    expect(frame).toEqual({ kind: 'event', sessionId: 'S1', event: { type: Events.ChannelMessage, seq: 3, data: MESSAGE } });
  });

  it('every event name is recognised as an event', () => {
    for (const type of Object.values(Events)) {
      const data = type === Events.ChannelMessage ? MESSAGE : type === Events.MessageTyping ? TYPING : { some: 'field' };
      const frame = decoded(JSON.stringify({ seq: 1, session_id: 'S1', [type]: data }));
      expect(frame).toMatchObject({ kind: 'event', event: { type, seq: 1 } });
    }
  });

  it('an unknown event name with a valid seq is reported as unknown_event (so its seq still counts)', () => {
    expect(decoded(JSON.stringify({ seq: 9, session_id: 'S1', future_event: { x: 1 } }))).toEqual({ kind: 'unknown_event', seq: 9, type: 'future_event' });
  });

  it('a reply, whatever its op, with its cid', () => {
    expect(decoded('{"cid":"7","pong":{}}')).toEqual({ kind: 'reply', cid: '7', op: 'pong', payload: {} });
    const ready = { session_id: 'S1', user_id: 'U1', seq: 0, resume_window_ms: 120000 };
    expect(decoded(JSON.stringify({ cid: 's1', ready }))).toEqual({ kind: 'reply', cid: 's1', op: 'ready', payload: ready });
    expect(decoded('{"cid":"r1","resume_failed":{"session_id":"nope","reason":"unknown_session"}}')).toEqual({
      kind: 'reply',
      cid: 'r1',
      op: 'resume_failed',
      payload: { session_id: 'nope', reason: 'unknown_session' },
    });
  });

  it('an error reply with a cid, and a frame error without one', () => {
    const error = { code: 'bad_request', message: 'invalid message', fields: { 'content.t': 'is required' } };
    expect(decoded(JSON.stringify({ cid: 'm1', error }))).toEqual({ kind: 'error', cid: 'm1', error });
    expect(decoded('{"error":{"code":"payload_too_large","message":"frame is 300000 bytes; the limit is 262144"}}')).toEqual({
      kind: 'error',
      cid: undefined,
      error: { code: 'payload_too_large', message: 'frame is 300000 bytes; the limit is 262144' },
    });
  });

  it('ignores the order of keys', () => {
    expect(decoded('{"channel_message":' + JSON.stringify(MESSAGE) + ',"session_id":"S1","seq":2}')).toMatchObject({ kind: 'event', event: { seq: 2 } });
    expect(decoded('{"pong":{},"cid":"x"}')).toEqual({ kind: 'reply', cid: 'x', op: 'pong', payload: {} });
  });
});

describe('decodeFrame: channel_message normalisation', () => {
  const push = (data: Record<string, unknown>) => {
    const frame = decoded(JSON.stringify({ seq: 1, session_id: 'S1', channel_message: data }));
    if (frame.kind !== 'event' || frame.event.type !== Events.ChannelMessage) throw new Error('not a channel_message');
    return frame.event.data;
  };

  it('fills missing arrays and code, and mirrors id and message_id', () => {
    const data = push({ message_id: 'M1', channel_id: 'C1', content: { t: 'x' } });
    expect(data).toMatchObject({ id: 'M1', message_id: 'M1', code: 0, mentions: [], attachments: [], reactions: [], references: [] });
    expect(push({ id: 'M2', channel_id: 'C1', content: {} })).toMatchObject({ id: 'M2', message_id: 'M2' });
  });

  it('parses content sent as a JSON string, and wraps plain text', () => {
    expect(push({ message_id: 'M1', channel_id: 'C1', content: '{"t":"json","mk":[{"type":"b","s":0,"e":4}]}' }).content).toEqual({ t: 'json', mk: [{ type: 'b', s: 0, e: 4 }] });
    expect(push({ message_id: 'M1', channel_id: 'C1', content: 'just text' }).content).toEqual({ t: 'just text' });
    expect(push({ message_id: 'M1', channel_id: 'C1' }).content).toEqual({});
  });

  it('keeps unknown fields', () => {
    expect(push({ message_id: 'M1', channel_id: 'C1', content: {}, new_field: 42 })).toMatchObject({ new_field: 42 });
  });

  it('refuses a channel_message without a message id or a channel id', () => {
    expect(refused(JSON.stringify({ seq: 1, session_id: 'S1', channel_message: { channel_id: 'C1' } })).message).toBe('channel_message without message_id');
    expect(refused(JSON.stringify({ seq: 1, session_id: 'S1', channel_message: { message_id: 'M1' } })).message).toBe('channel_message without channel_id');
  });
});

describe('decodeFrame: typing is its own event, never a message', () => {
  const event = (op: string, data: Record<string, unknown>) => {
    const frame = decoded(JSON.stringify({ seq: 4, session_id: 'S1', [op]: data }));
    if (frame.kind !== 'event') throw new Error(`not an event: ${frame.kind}`);
    return frame.event;
  };

  it('message_typing_event is delivered as sent', () => {
    expect(event(Events.MessageTyping, TYPING)).toEqual({ type: Events.MessageTyping, seq: 4, data: TYPING });
  });

  it('a channel_message of code 3 from another server is read as message_typing_event, with the same seq', () => {
    const typingMessage = { ...MESSAGE, code: 3, content: { t: '' }, topic_id: 'T1' };
    expect(event(Events.ChannelMessage, typingMessage)).toEqual({
      type: Events.MessageTyping,
      seq: 4,
      data: { ...TYPING, topic_id: 'T1' },
    });
    // Without an id, content or arrays too: a notice needs none of them.
    expect(event(Events.ChannelMessage, { channel_id: 'C1', sender_id: 'U1', code: 3 })).toEqual({
      type: Events.MessageTyping,
      seq: 4,
      data: { clan_id: '', channel_id: 'C1', sender_id: 'U1', mode: 0, is_public: false, sender_username: '', sender_display_name: '', topic_id: '' },
    });
    // Other codes stay messages.
    expect(event(Events.ChannelMessage, { ...MESSAGE, code: 4 }).type).toBe(Events.ChannelMessage);
  });

  it('fills missing or mistyped optional fields, keeps only the declared ones', () => {
    expect(event(Events.MessageTyping, { channel_id: 'C1', sender_id: 'U1', mode: '2', is_public: 'yes', extra: 1 }).data).toEqual({
      clan_id: '',
      channel_id: 'C1',
      sender_id: 'U1',
      mode: 0,
      is_public: false,
      sender_username: '',
      sender_display_name: '',
      topic_id: '',
    });
  });

  it('refuses a notice without its channel or its typist, keeping its seq', () => {
    expect(refused(JSON.stringify({ seq: 1, session_id: 'S1', message_typing_event: { sender_id: 'U1' } })).message).toBe('message_typing_event without channel_id');
    expect(refused(JSON.stringify({ seq: 1, session_id: 'S1', message_typing_event: { channel_id: 'C1' } })).message).toBe('message_typing_event without sender_id');
    expect(refused(JSON.stringify({ seq: 1, session_id: 'S1', channel_message: { message_id: 'M1', channel_id: 'C1', code: 3 } })).message).toBe('a channel_message of code 3 (typing) without sender_id');
    expect(decodeFrame(JSON.stringify({ seq: 6, session_id: 'S1', message_typing_event: {} }))).toMatchObject({ kind: 'invalid_event', seq: 6 });
  });
});

describe('decodeFrame: bad input never throws', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not JSON', 'this is not json', /not valid JSON/],
    ['truncated JSON', '{"cid":"1","pong":', /not valid JSON/],
    ['empty text', '', /not valid JSON/],
    ['an array', '[1,2,3]', /not a JSON object/],
    ['a string', '"hello"', /not a JSON object/],
    ['null', 'null', /not a JSON object/],
    ['a number', '42', /not a JSON object/],
    ['no op', '{"cid":"1"}', /exactly one op/],
    ['an empty object', '{}', /exactly one op/],
    ['two ops', '{"cid":"1","pong":{},"ready":{}}', /exactly one op/],
    ['seq 0', '{"seq":0,"session_id":"S","channel_message":{}}', /invalid seq/],
    ['a negative seq', '{"seq":-1,"session_id":"S","channel_message":{}}', /invalid seq/],
    ['a fractional seq', '{"seq":1.5,"session_id":"S","channel_message":{}}', /invalid seq/],
    ['an unsafe seq', '{"seq":18014398509481984,"session_id":"S","channel_message":{}}', /invalid seq/],
    ['an error without code and message', '{"cid":"1","error":{"oops":true}}', /error frame has no code and message/],
    ['an error that is a string', '{"error":"boom"}', /error frame has no code and message/],
    ['hello without an interval', '{"hello":{"protocol":1}}', /hello has no heartbeat interval/],
    ['a reply without cid', '{"pong":{}}', /neither seq nor cid/],
    ['a seq given as a string', '{"seq":"1","channel_message":{}}', /neither seq nor cid/],
    ['a __proto__ key', '{"__proto__":{"polluted":true}}', /neither seq nor cid/],
  ];

  it.each([
    ['an event payload that is not an object', '{"seq":4,"session_id":"S","role_event":"x"}', /payload of role_event is not an object/],
    ['an event payload that is an array', '{"seq":4,"session_id":"S","notifications":[]}', /payload of notifications is not an object/],
  ])('%s → invalid_event: a ProtocolError, and its seq still counts', (_name, text, message) => {
    const frame = decodeFrame(text);
    expect(frame).toMatchObject({ kind: 'invalid_event', seq: 4 });
    expect(refused(text).message).toMatch(message);
  });

  it.each(cases)('%s → ProtocolError', (_name, text, message) => {
    let result: ServerFrame | ProtocolError | undefined;
    expect(() => (result = decodeFrame(text))).not.toThrow();
    expect(result).toBeInstanceOf(ProtocolError);
    const error = result as ProtocolError;
    expect(error.message).toMatch(message);
    expect(error.kind).toBe('protocol');
    expect(error.excerpt).toBe(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps only a short excerpt of a huge frame', () => {
    const huge = `{"seq":0,"session_id":"S","channel_message":{"t":"${'x'.repeat(100_000)}"}}`;
    const error = refused(huge);
    expect(error.excerpt.length).toBeLessThanOrEqual(201);
    expect(error.excerpt.startsWith('{"seq":0')).toBe(true);
    expect(error.excerpt.endsWith('…')).toBe(true);
    expect(error.message.length).toBeLessThan(200);
  });

  it('never throws on arbitrary text (a deterministic fuzz of 2,000 inputs)', () => {
    let state = 42;
    const random = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pieces = ['{', '}', '[', ']', '"', ':', ',', 'seq', 'cid', 'hello', 'error', 'channel_message', '1', '-1', 'null', 'true', ' ', '\\', 'x', '"a"'];
    let protocolErrors = 0;
    for (let i = 0; i < 2000; i++) {
      const length = 1 + Math.floor(random() * 12);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)] ?? '').join('');
      const result = decodeFrame(text);
      if (result instanceof ProtocolError) {
        protocolErrors += 1;
        expect(result.excerpt.length).toBeLessThanOrEqual(201);
      } else {
        expect(['hello', 'event', 'reply', 'error', 'unknown_event', 'invalid_event']).toContain(result.kind);
      }
    }
    expect(protocolErrors).toBeGreaterThan(1000);
  });
});
