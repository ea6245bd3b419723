/**
 * Dialect sdk-2.8.44 (era C) against golden frames. No package of this era
 * is installable, so there is no codec to check ours against: these bytes
 * were written by hand from the byte layouts the platform's published
 * sources (SDK 2.8.53) show: the int32 `cid`, `api_request_event` (case 92),
 * the pushes of cases 95-99, era C's new fields, and the 0xFF raw frames that
 * answer socket RPCs. What era C shares with era B is checked against the
 * web client's codec (test/compat/schema-sdk-2.8.37.test.ts).
 */
import { toJson, type DescMessage } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { ChannelMessageUpdateSchema, EnvelopeSchema } from '../../../src/production/schema/sdk-2.8.44_pb.js';
import { decodeMessage, encodeApiRequest, encodeEnvelope, FrameDecoder, frameDialects, SDK_2_8_44 } from '../../../src/production/wire/index.js';

/** Bytes from hex, spaces and line breaks ignored. */
const hex = (text: string): Uint8Array => Uint8Array.from(text.trim().split(/\s+/), (b) => Number.parseInt(b, 16));
const json = (schema: DescMessage, message: Parameters<typeof toJson>[1]): unknown => toJson(schema, message, { useProtoFieldName: true });

/** `clan_join` under cid 7, clan 1234567890123456789 (above 2^53), in each dialect. */
const CLAN_JOIN = {
  // cid 1 LEN "7" | clan_join 3 LEN 21 { clan_id 1 LEN 19 "1234567890123456789" }
  'sdk-2.8.33': hex('0a 01 37  1a 15 0a 13 31 32 33 34 35 36 37 38 39 30 31 32 33 34 35 36 37 38 39'),
  // cid 1 LEN "7" | clan_join 3 LEN 10 { clan_id 1 VARINT }
  'sdk-2.8.37': hex('0a 01 37  1a 0a 08 95 82 a6 ef c7 9e 84 91 11'),
  // cid 1 VARINT 7 | clan_join 3 LEN 10 { clan_id 1 VARINT }
  'sdk-2.8.44': hex('08 07  1a 0a 08 95 82 a6 ef c7 9e 84 91 11'),
};

/** A ChannelMessageUpdate: clan 1, channel 2, message 3, content {"t":"hi"}, create_time_seconds (field 12, new in era C) 1700000000. */
const UPDATE_BODY = hex('08 01  10 02  18 03  22 0a 7b 22 74 22 3a 22 68 69 22 7d  60 80 e2 cf aa 06');

describe('dialect sdk-2.8.44, golden frames', () => {
  it('writes a request with a numeric cid, and reads it back', () => {
    const bytes = encodeEnvelope(SDK_2_8_44, { cid: 7, message: { case: 'clanJoin', value: { clanId: '1234567890123456789' } } });
    expect(bytes).toEqual(CLAN_JOIN['sdk-2.8.44']);
    const frame = new FrameDecoder(SDK_2_8_44).decode(CLAN_JOIN['sdk-2.8.44']);
    if (frame.kind !== 'envelope') throw new Error(frame.kind);
    expect(frame.envelope.cid).toBe(7);
    expect(frame.envelope.message).toEqual({ case: 'clanJoin', value: expect.objectContaining({ clanId: '1234567890123456789' }) });
  });

  it('tells the three dialects apart by their markers: cid as text or number, ids as text or varints', () => {
    expect(frameDialects(CLAN_JOIN['sdk-2.8.33'])).toEqual(['sdk-2.8.33']);
    expect(frameDialects(CLAN_JOIN['sdk-2.8.37'])).toEqual(['sdk-2.8.37']);
    expect(frameDialects(CLAN_JOIN['sdk-2.8.44'])).toEqual(['sdk-2.8.44']);
  });

  it('writes an edit as api_request_event (case 92) with the pinned ordinal of UpdateChannelMessage (181)', () => {
    const bytes = encodeApiRequest(300, 'UpdateChannelMessage', { clanId: '1', channelId: '2', messageId: '3', content: '{"t":"hi"}', createTimeSeconds: 1_700_000_000 });
    // cid 1 VARINT 300 | api_request_event 92 LEN 51 { api_index 1 VARINT 181 | api_name 2 LEN 20 "UpdateChannelMessage" | body 3 LEN 24 }
    const expected = hex(`08 ac 02  e2 05 33  08 b5 01  12 14 55 70 64 61 74 65 43 68 61 6e 6e 65 6c 4d 65 73 73 61 67 65  1a 18`);
    expect(bytes).toEqual(Uint8Array.from([...expected, ...UPDATE_BODY]));
  });

  it('joins the raw frames of an answer until FIN, under the low 16 bits of its cid', () => {
    const decoder = new FrameDecoder(SDK_2_8_44);
    // 0xFF | cid 0x012c (300) | code 0 | FIN 0 (more follows) | 10 bytes of the body
    expect(decoder.decode(Uint8Array.from([...hex('ff 01 2c 00 00 00 00'), ...UPDATE_BODY.subarray(0, 10)]))).toEqual({ kind: 'api_chunk', cid: 300, bytes: 10 });
    // 0xFF | cid 300 | code 0 | FIN 0x00ff | the other 14 bytes
    const answer = decoder.decode(Uint8Array.from([...hex('ff 01 2c 00 00 00 ff'), ...UPDATE_BODY.subarray(10)]));
    expect(answer).toEqual({ kind: 'api_answer', cid: 300, code: 0, body: UPDATE_BODY });
    if (answer.kind !== 'api_answer') return;
    const update = decodeMessage(ChannelMessageUpdateSchema, answer.body, 'UpdateChannelMessage answer');
    if (update instanceof Error) throw update;
    expect(json(ChannelMessageUpdateSchema, update)).toEqual({ clan_id: '1', channel_id: '2', message_id: '3', content: '{"t":"hi"}', create_time_seconds: 1_700_000_000 });
  });

  it('reads a refused RPC: a single FIN frame with a response code and no body', () => {
    // 0xFF | cid 0x012d (301) | code 3 | FIN
    expect(new FrameDecoder(SDK_2_8_44).decode(hex('ff 01 2d 00 03 00 ff'))).toEqual({ kind: 'api_answer', cid: 301, code: 3, body: new Uint8Array() });
  });

  const pushes: ReadonlyArray<readonly [string, string, Record<string, unknown>]> = [
    // case 95 LEN 4 { banned_user_ids 1 packed [5, 6] }
    ['list_channel_users_banned_event', 'fa 05 04  0a 02 05 06', { banned_user_ids: ['5', '6'] }],
    // case 96 LEN 23 { token 2 "t1" | refresh_token 3 "r1" | user_id 4 VARINT 42 | ws_url 8 "ws" | session_id 9 "s1" | tcp_url 10 "tcp" }
    [
      'refresh_session_event',
      '82 06 17  12 02 74 31  1a 02 72 31  20 2a  42 02 77 73  4a 02 73 31  52 03 74 63 70',
      { token: 't1', refresh_token: 'r1', user_id: '42', ws_url: 'ws', session_id: 's1', tcp_url: 'tcp' },
    ],
    // case 97 LEN 14 { clan_id 1 VARINT 1 | channel_id 5 VARINT 9 | channel_label 6 "arch" | channel_type 7 VARINT 1 | status 8 VARINT 2 }
    ['channel_archive_event', '8a 06 0e  08 01  28 09  32 04 61 72 63 68  38 01  40 02', { clan_id: '1', channel_id: '9', channel_label: 'arch', channel_type: 1, status: 2 }],
    // case 98 LEN 10 { message_id 1 VARINT 11 | rpl 2 VARINT 3 | lsnt 3 VARINT 12 | tp_id 4 "tp" }
    ['topic_in_message_event', '92 06 0a  08 0b  10 03  18 0c  22 02 74 70', { message_id: '11', rpl: 3, lsnt: '12', tp_id: 'tp' }],
    // case 99 LEN 8 { clan_id 1 | voice_channel_id 2 | user_id 3 | is_sharing 4 true }
    ['screen_share_event', '9a 06 08  08 01  10 02  18 03  20 01', { clan_id: '1', voice_channel_id: '2', user_id: '3', is_sharing: true }],
    // case 84 LEN 15 { menu_name 1 "m" | message 2 LEN 6 { channel_id 2 VARINT 2 | content 3 "{}" } | sender_id 3 VARINT 7 | message_sender_id 4 VARINT 8 }
    ['quick_menu_event', 'a2 05 0f  0a 01 6d  12 06 10 02 1a 02 7b 7d  18 07  20 08', { menu_name: 'm', message: { channel_id: '2', content: '{}' }, sender_id: '7', message_sender_id: '8' }],
  ];

  it.each(pushes)('reads the push %s', (name, bytes, value) => {
    const frame = new FrameDecoder(SDK_2_8_44).decode(hex(bytes));
    if (frame.kind !== 'envelope') throw new Error(frame.kind);
    expect(json(EnvelopeSchema, frame.envelope)).toEqual({ [name]: value });
    expect(encodeEnvelope(SDK_2_8_44, frame.envelope)).toEqual(hex(bytes));
  });

  it('takes cases 95-99 for era C alone, and a body eras B and C share for either', () => {
    for (const [name, bytes] of pushes) {
      expect(frameDialects(hex(bytes)), name).toEqual(name === 'quick_menu_event' ? ['sdk-2.8.37', 'sdk-2.8.44'] : ['sdk-2.8.44']);
    }
  });
});
