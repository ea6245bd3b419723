/**
 * Every clanstream op as the Envelope production expects, in every dialect
 * (the guide's op table): what the codec writes is read back with the
 * dialect's schema and compared field by field; a few frames are checked to
 * the byte. sdk-2.8.33's requests are also served end to end by the
 * emulator's compat front end (test/production/e2e.test.ts).
 */
import { fromBinary, toJson } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { ChannelStreamMode, UnsupportedError } from '../../src/index.js';
import { ChannelMessageUpdateSchema } from '../../src/production/schema/sdk-2.8.44_pb.js';
import { ChannelMessageRemoveSchema } from '../../src/production/schema/sdk-2.8.37_pb.js';
import { DIALECTS, type DialectName } from '../../src/production/wire/dialects.js';
import { codecFor } from './support/codec.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex').replace(/(..)/g, '$1 ').trim();
const CLAN = '1840000000000000100';
const CHANNEL = '1840000000000000200';
const MESSAGE = '1840000000000000300';
const ALICE = '1840000000000000002';
const BOB = '1840000000000000003';
const base = { clan_id: CLAN, channel_id: CHANNEL, mode: ChannelStreamMode.STREAM_MODE_CHANNEL, is_public: true };

/** The Envelopes one op wrote, as protobuf JSON of the dialect (proto field names). */
function written(dialect: DialectName, op: string, payload: unknown): Array<Record<string, unknown>> {
  const { codec } = codecFor(dialect);
  const frames = codec.encode('41', op, payload);
  const schema = DIALECTS.find((d) => d.name === dialect)!.envelope;
  return (Array.isArray(frames) ? frames : [frames]).map((f) => toJson(schema, fromBinary(schema, f as Uint8Array), { useProtoFieldName: true }) as Record<string, unknown>);
}

/** ids travel as text in every dialect's JSON; the cid is text in sdk-2.8.33 and sdk-2.8.37, a number in sdk-2.8.44. */
const cid = (dialect: DialectName, n: number): string | number => (dialect === 'sdk-2.8.44' ? n : String(n));

describe.each(['sdk-2.8.33', 'sdk-2.8.37', 'sdk-2.8.44'] as DialectName[])('ops in dialect %s', (dialect) => {
  it('clan_join: case 3 with the clan id, under a cid of the socket', () => {
    expect(written(dialect, 'clan_join', { clan_id: CLAN })).toEqual([{ cid: cid(dialect, 1), clan_join: { clan_id: CLAN } }]);
  });

  it('clan_join of the DM space: clan "0"', () => {
    const [frame] = written(dialect, 'clan_join', { clan_id: '0' });
    // An int64 zero is the default, so nothing of it travels; sdk-2.8.33 sends the text "0".
    expect(frame!.clan_join).toEqual(dialect === 'sdk-2.8.33' ? { clan_id: '0' } : {});
  });

  it('channel_join and channel_leave: cases 4 and 5', () => {
    expect(written(dialect, 'channel_join', { clan_id: CLAN, channel_id: CHANNEL })[0]).toMatchObject({ channel_join: { clan_id: CLAN, channel_id: CHANNEL } });
    expect(written(dialect, 'channel_leave', { clan_id: CLAN, channel_id: CHANNEL })[0]).toMatchObject({ channel_leave: { clan_id: CLAN, channel_id: CHANNEL } });
  });

  it('channel_message_send: case 8, content as JSON text, parts as messages', () => {
    const [frame] = written(dialect, 'channel_message_send', {
      ...base,
      content: { t: 'hi @alice' },
      mentions: [{ user_id: ALICE, s: 3, e: 9 }],
      attachments: [{ url: 'https://a.example/f.png', filetype: 'image/png', size: 10 }],
      references: [{ message_ref_id: MESSAGE, message_sender_id: ALICE }],
      topic_id: '',
    });
    expect(frame).toEqual({
      cid: cid(dialect, 1),
      channel_message_send: {
        clan_id: CLAN,
        channel_id: CHANNEL,
        content: '{"t":"hi @alice"}',
        mentions: [{ user_id: ALICE, s: 3, e: 9 }],
        attachments: [{ url: 'https://a.example/f.png', filetype: 'image/png', size: dialect === 'sdk-2.8.33' ? '10' : 10 }],
        references: [{ message_ref_id: MESSAGE, message_sender_id: ALICE }],
        mode: 2,
        is_public: true,
      },
    });
  });

  it('message_reaction: case 26, action true removing', () => {
    const [add] = written(dialect, 'message_reaction', { ...base, message_id: MESSAGE, emoji_id: '7', emoji: 'ok', message_sender_id: ALICE });
    expect(add!.message_reaction_event).toEqual({ emoji_id: '7', emoji: 'ok', count: 1, channel_id: CHANNEL, message_id: MESSAGE, clan_id: CLAN, mode: 2, message_sender_id: ALICE, is_public: true });
    const [remove] = written(dialect, 'message_reaction', { ...base, message_id: MESSAGE, emoji_id: '7', emoji: 'ok', action_delete: true });
    expect(remove!.message_reaction_event).toMatchObject({ action: true });
  });

  it('ephemeral_message_send to two users: code 12, one envelope each before sdk-2.8.44, one with both after', () => {
    const frames = written(dialect, 'ephemeral_message_send', { ...base, content: { t: 'psst' }, receiver_ids: [ALICE, BOB] });
    const message = { clan_id: CLAN, channel_id: CHANNEL, content: '{"t":"psst"}', mode: 2, is_public: true, code: 12 };
    if (dialect === 'sdk-2.8.33') {
      expect(frames.map((f) => f.ephemeral_message_send)).toEqual([{ message, receiver_id: ALICE }, { message, receiver_id: BOB }]);
    } else if (dialect === 'sdk-2.8.37') {
      expect(frames.map((f) => f.ephemeral_message_send)).toEqual([{ message, receiver_ids: [ALICE] }, { message, receiver_ids: [BOB] }]);
    } else {
      expect(frames.map((f) => f.ephemeral_message_send)).toEqual([{ message, receiver_ids: [ALICE, BOB] }]);
    }
    // Each envelope under its own cid.
    expect(new Set(frames.map((f) => f.cid)).size).toBe(frames.length);
  });

  it('ephemeral_message_update and _remove: codes 14 and 15 naming the message', () => {
    const [update] = written(dialect, 'ephemeral_message_update', { ...base, message_id: MESSAGE, content: { t: 'v2' }, receiver_ids: [ALICE] });
    expect(update!.ephemeral_message_send).toMatchObject({ message: { code: 14, id: MESSAGE, content: '{"t":"v2"}' } });
    const [remove] = written(dialect, 'ephemeral_message_remove', { ...base, message_id: MESSAGE, receiver_ids: [ALICE] });
    expect(remove!.ephemeral_message_send).toMatchObject({ message: { code: 15, id: MESSAGE } });
  });

  it('ping: case 22', () => {
    expect(written(dialect, 'ping', {})).toEqual([{ cid: cid(dialect, 1), ping: {} }]);
  });

  it('clan_leave and the session ops have no production frame: UnsupportedError naming the op', () => {
    const { codec } = codecFor(dialect);
    expect(() => codec.encode('1', 'clan_leave', { clan_id: CLAN })).toThrow(UnsupportedError);
    expect(() => codec.encode('2', 'token_refresh', { token: 'x' })).toThrow(/token_refresh/);
  });
});

describe('edits and deletes per dialect', () => {
  it.each(['sdk-2.8.33', 'sdk-2.8.37'] as DialectName[])('%s: Envelope cases 9 and 10', (dialect) => {
    expect(written(dialect, 'channel_message_update', { ...base, message_id: MESSAGE, content: { t: 'v2' } })[0]!.channel_message_update).toEqual({
      clan_id: CLAN,
      channel_id: CHANNEL,
      message_id: MESSAGE,
      content: '{"t":"v2"}',
      mode: 2,
      is_public: true,
    });
    expect(written(dialect, 'channel_message_remove', { ...base, message_id: MESSAGE })[0]!.channel_message_remove).toEqual({ clan_id: CLAN, channel_id: CHANNEL, message_id: MESSAGE, mode: 2, is_public: true });
  });

  it('sdk-2.8.44: api_request_event (92) UpdateChannelMessage (181) and DeleteChannelMessage (182) carrying the request', () => {
    const { codec } = codecFor('sdk-2.8.44');
    const schema = DIALECTS[2]!.envelope;
    const update = fromBinary(schema, codec.encode('1', 'channel_message_update', { ...base, message_id: MESSAGE, content: { t: 'v2' } }) as Uint8Array) as unknown as { cid: number; message: { case: string; value: { apiIndex: number; apiName: string; body: Uint8Array } } };
    expect(update.message.case).toBe('apiRequestEvent');
    expect(update.message.value).toMatchObject({ apiIndex: 181, apiName: 'UpdateChannelMessage' });
    expect(toJson(ChannelMessageUpdateSchema, fromBinary(ChannelMessageUpdateSchema, update.message.value.body), { useProtoFieldName: true })).toEqual({ clan_id: CLAN, channel_id: CHANNEL, message_id: MESSAGE, content: '{"t":"v2"}', mode: 2, is_public: true });
    const remove = fromBinary(schema, codec.encode('2', 'channel_message_remove', { ...base, message_id: MESSAGE }) as Uint8Array) as unknown as { message: { value: Uint8Array | { apiIndex: number; body: Uint8Array } } };
    const value = remove.message.value as { apiIndex: number; body: Uint8Array };
    expect(value.apiIndex).toBe(182);
    expect(toJson(ChannelMessageRemoveSchema, fromBinary(ChannelMessageRemoveSchema, value.body), { useProtoFieldName: true })).toEqual({ clan_id: CLAN, channel_id: CHANNEL, message_id: MESSAGE, mode: 2, is_public: true });
  });

  it('sdk-2.8.44 with editsAsRpc off (servers 2.8.44 to 2.8.49): Envelope cases 9 and 10', () => {
    const { codec } = codecFor('sdk-2.8.44', { style: { editsAsRpc: false } });
    const frame = fromBinary(DIALECTS[2]!.envelope, codec.encode('1', 'channel_message_update', { ...base, message_id: MESSAGE, content: { t: 'v2' } }) as Uint8Array) as unknown as { message: { case: string } };
    expect(frame.message.case).toBe('channelMessageUpdate');
  });
});

describe('golden bytes', () => {
  it('a send in sdk-2.8.44: cid 1 as a varint, ids as varints, content as text', () => {
    const { codec } = codecFor('sdk-2.8.44');
    const bytes = codec.encode('9', 'channel_message_send', { clan_id: '1', channel_id: '2', content: { t: 'hi' }, mode: 2, is_public: true }) as Uint8Array;
    // cid 1 VARINT 1 | channel_message_send 8 LEN 18 { clan_id 1 VARINT 1 | channel_id 2 VARINT 2 | content 3 LEN 10 '{"t":"hi"}' | mode 7 VARINT 2 | is_public 11 VARINT 1 }
    expect(hex(bytes)).toBe('08 01 42 14 08 01 10 02 1a 0a 7b 22 74 22 3a 22 68 69 22 7d 38 02 58 01');
  });

  it('the same send in sdk-2.8.37: cid "1" as text', () => {
    const { codec } = codecFor('sdk-2.8.37');
    const bytes = codec.encode('9', 'channel_message_send', { clan_id: '1', channel_id: '2', content: { t: 'hi' }, mode: 2, is_public: true }) as Uint8Array;
    expect(hex(bytes)).toBe('0a 01 31 42 14 08 01 10 02 1a 0a 7b 22 74 22 3a 22 68 69 22 7d 38 02 58 01');
  });

  it('the same send in sdk-2.8.33: ids as text', () => {
    const { codec } = codecFor('sdk-2.8.33');
    const bytes = codec.encode('9', 'channel_message_send', { clan_id: '1', channel_id: '2', content: { t: 'hi' }, mode: 2, is_public: true }) as Uint8Array;
    expect(hex(bytes)).toBe('0a 01 31 42 16 0a 01 31 12 01 32 1a 0a 7b 22 74 22 3a 22 68 69 22 7d 38 02 58 01');
  });
});
