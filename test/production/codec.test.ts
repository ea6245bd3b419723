/**
 * The production codec of one socket: answers matched to clanstream's cids
 * and shaped as its replies, production's errors as typed gateway errors, a
 * write refused with "must join channel" joined and sent once more (the
 * writes refused for one channel waiting on one join), a fan-out
 * answered once, sdk-2.8.44's raw answers, the pushed session, pushes with no
 * clanstream event and a server of another dialect.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { ChannelStreamMode, Events, ProtocolError, TypeMessage } from '../../src/index.js';
import * as A from '../../src/production/schema/sdk-2.8.33_pb.js';
import * as B from '../../src/production/schema/sdk-2.8.37_pb.js';
import * as C from '../../src/production/schema/sdk-2.8.44_pb.js';
import { SDK_2_8_37, SDK_2_8_44 } from '../../src/production/wire/dialects.js';
import { writeRawFrame } from '../../src/production/wire/raw-frame.js';
import { codecFor } from './support/codec.js';
import { EVENT_SAMPLES } from './support/event-samples.js';
import { pushFrame } from './support/push-frames.js';

const CLAN = '1840000000000000100';
const CHANNEL = '1840000000000000200';
const MESSAGE = '1840000000000000300';
const ALICE = '1840000000000000002';
const BOB = '1840000000000000003';
const write = { clan_id: CLAN, channel_id: CHANNEL, mode: ChannelStreamMode.STREAM_MODE_CHANNEL, is_public: true };

const envB = (cid: string, message: B.Envelope['message']) => toBinary(B.EnvelopeSchema, create(B.EnvelopeSchema, { cid, message }));
const envC = (cid: number, message: C.Envelope['message']) => toBinary(C.EnvelopeSchema, create(C.EnvelopeSchema, { cid, message }));
const envA = (cid: string, message: A.Envelope['message']) => toBinary(A.EnvelopeSchema, create(A.EnvelopeSchema, { cid, message }));
const ack = (messageId: string) => ({ case: 'channelMessageAck' as const, value: create(B.ChannelMessageAckSchema, { channelId: CHANNEL, messageId, code: 0, createTimeSeconds: 1_790_000_000, updateTimeSeconds: 1_790_000_000, persistent: true }) });

describe('answers', () => {
  it('matches an ack to the request by the socket cid and fills what production leaves out from the request', () => {
    const { codec } = codecFor('sdk-2.8.37');
    codec.encode('17', 'channel_message_send', { ...write, content: { t: 'hi' } });
    expect(codec.decode(envB('1', ack(MESSAGE)))).toEqual({
      kind: 'reply',
      cid: '17',
      op: 'channel_message_ack',
      payload: { message_id: MESSAGE, channel_id: CHANNEL, clan_id: CLAN, mode: 2, code: TypeMessage.Chat, create_time_seconds: 1_790_000_000, update_time_seconds: 1_790_000_000, persistent: true },
    });
  });

  it('keeps its own cids within 16 bits and distinct while they wait, whatever clanstream numbers its requests', () => {
    const { codec } = codecFor('sdk-2.8.44');
    const cids = ['900000', '900001'].map((cid) => codec.encode(cid, 'ping', {}) as Uint8Array);
    expect(cids.map((bytes) => bytes[1])).toEqual([1, 2]);
    expect(codec.decode(envC(2, { case: 'pong', value: create(B.PongSchema) }))).toEqual({ kind: 'reply', cid: '900001', op: 'pong', payload: {} });
    expect(codec.decode(envC(1, { case: 'pong', value: create(B.PongSchema) }))).toEqual({ kind: 'reply', cid: '900000', op: 'pong', payload: {} });
  });

  it('answers a clan join, a channel join and a leave with what the request named', () => {
    const { codec } = codecFor('sdk-2.8.33');
    codec.encode('1', 'clan_join', { clan_id: '0' });
    codec.encode('2', 'channel_join', { clan_id: CLAN, channel_id: CHANNEL });
    codec.encode('3', 'channel_leave', { clan_id: CLAN, channel_id: CHANNEL });
    expect(codec.decode(envA('1', { case: 'clanJoin', value: create(A.ClanJoinSchema, { clanId: '0' }) }))).toMatchObject({ op: 'clan_joined', payload: { clan_id: '0' } });
    expect(codec.decode(envA('2', { case: 'channel', value: create(A.ChannelSchema, { id: CHANNEL }) }))).toMatchObject({ cid: '2', op: 'channel_joined', payload: { channel_id: CHANNEL, clan_id: CLAN } });
    // An envelope with the cid alone.
    expect(codec.decode(envA('3', { case: undefined }))).toMatchObject({ cid: '3', op: 'channel_left', payload: { channel_id: CHANNEL } });
  });

  it('answers a reaction with its echo', () => {
    const { codec } = codecFor('sdk-2.8.37');
    codec.encode('5', 'message_reaction', { ...write, message_id: MESSAGE, emoji_id: '7', emoji: 'ok' });
    const echo = create(B.MessageReactionSchema, { emojiId: '7', emoji: 'ok', count: 3, channelId: CHANNEL, messageId: MESSAGE, clanId: CLAN });
    expect(codec.decode(envB('1', { case: 'messageReactionEvent', value: echo }))).toEqual({
      kind: 'reply',
      cid: '5',
      op: 'message_reaction_ack',
      payload: { message_id: MESSAGE, channel_id: CHANNEL, emoji_id: '7', emoji: 'ok', count: 3, action_delete: false },
    });
  });

  it('an answer of another kind is named as the reply op, so the request fails saying so', () => {
    const { codec } = codecFor('sdk-2.8.37');
    codec.encode('5', 'clan_join', { clan_id: CLAN });
    expect(codec.decode(envB('1', { case: 'pong', value: create(B.PongSchema) }))).toMatchObject({ kind: 'reply', cid: '5', op: 'pong' });
  });

  it('an answer under a cid nothing waits for is a ProtocolError, not a crash', () => {
    const { codec } = codecFor('sdk-2.8.37');
    expect(codec.decode(envB('44', ack(MESSAGE)))).toBeInstanceOf(ProtocolError);
  });
});

describe('errors', () => {
  it.each([
    [3, 'bad input', 'bad_request'],
    [1, 'unrecognised payload', 'unknown_op'],
    [0, 'runtime exception', 'internal'],
  ])('production error %i (%s) is the gateway error %s', (code, _what, expected) => {
    const { codec } = codecFor('sdk-2.8.37');
    codec.encode('8', 'channel_message_send', { ...write, content: { t: 'x' } });
    expect(codec.decode(envB('1', { case: 'error', value: create(B.ErrorSchema, { code, message: 'no' }) }))).toEqual({ kind: 'error', cid: '8', error: { code: expected, message: 'no' } });
  });

  it('"must join channel" (error 3): joins the channel, sends the write once more under a new cid, and answers with its ack', () => {
    const h = codecFor('sdk-2.8.44');
    h.codec.encode('8', 'channel_message_send', { ...write, content: { t: 'x' } });
    expect(h.codec.decode(envC(1, { case: 'error', value: create(B.ErrorSchema, { code: 3, message: 'Must join channel' }) }))).toBeUndefined();
    const join = h.sent[0]!;
    expect(join).toBeDefined();
    const joinEnvelope = fromC(join);
    expect(joinEnvelope.message).toMatchObject({ case: 'channelJoin', value: { clanId: CLAN, channelId: CHANNEL } });
    expect(h.codec.decode(envC(joinEnvelope.cid, { case: 'channel', value: create(B.ChannelSchema, { id: CHANNEL }) }))).toBeUndefined();
    const resent = fromC(h.sent[1]!);
    expect(resent.message).toMatchObject({ case: 'channelMessageSend', value: { content: '{"t":"x"}' } });
    expect(h.codec.decode(envC(resent.cid, ack(MESSAGE)))).toMatchObject({ kind: 'reply', cid: '8', op: 'channel_message_ack', payload: { message_id: MESSAGE } });
  });

  it('"must join channel" a second time fails the write: it is sent again once only', () => {
    const h = codecFor('sdk-2.8.44');
    h.codec.encode('8', 'channel_message_send', { ...write, content: { t: 'x' } });
    const mustJoin = { case: 'error' as const, value: create(B.ErrorSchema, { code: 3, message: 'Must join channel' }) };
    h.codec.decode(envC(1, mustJoin));
    h.codec.decode(envC(fromC(h.sent[0]!).cid, { case: 'channel', value: create(B.ChannelSchema, { id: CHANNEL }) }));
    expect(h.codec.decode(envC(fromC(h.sent[1]!).cid, mustJoin))).toMatchObject({ kind: 'error', cid: '8', error: { code: 'bad_request', message: 'Must join channel' } });
    expect(h.sent).toHaveLength(2);
  });
});

describe('"must join channel": one join per channel, clan and mode in flight', () => {
  const mustJoin = { case: 'error' as const, value: create(B.ErrorSchema, { code: 3, message: 'Must join channel' }) };
  const fromB = (bytes: Uint8Array) => fromBinary(B.EnvelopeSchema, bytes);
  const joined = { case: 'channel' as const, value: create(B.ChannelSchema, { id: CHANNEL }) };

  it('three writes refused for one channel wait on one join, and go again in the order they were refused once it is answered (sdk-2.8.37)', () => {
    const h = codecFor('sdk-2.8.37');
    for (const cid of ['a', 'b', 'c']) h.codec.encode(cid, 'channel_message_send', { ...write, content: { t: cid } });
    for (const wire of ['1', '2', '3']) expect(h.codec.decode(envB(wire, mustJoin))).toBeUndefined();
    expect(h.sent.map((f) => fromB(f).message.case)).toEqual(['channelJoin']);
    expect(h.codec.decode(envB(fromB(h.sent[0]!).cid, joined))).toBeUndefined();
    const resent = h.sent.slice(1).map(fromB);
    expect(resent.map((e) => e.message.case === 'channelMessageSend' && e.message.value.content)).toEqual(['{"t":"a"}', '{"t":"b"}', '{"t":"c"}']);
    const replies = resent.map((e) => h.codec.decode(envB(e.cid, ack(MESSAGE))) as { kind: string; cid: string });
    expect(replies.map((r) => [r.kind, r.cid])).toEqual([['reply', 'a'], ['reply', 'b'], ['reply', 'c']]);
  });

  it('a refused join fails every write waiting on it at once, with its code, naming the channel; nothing is sent again', () => {
    const h = codecFor('sdk-2.8.37');
    for (const cid of ['a', 'b']) h.codec.encode(cid, 'channel_message_send', { ...write, content: { t: cid } });
    h.codec.decode(envB('1', mustJoin));
    h.codec.decode(envB('2', mustJoin));
    const refusal = { case: 'error' as const, value: create(B.ErrorSchema, { code: 3, message: 'no access', context: { status: '403' } }) };
    const error = { code: 'forbidden', message: `channel ${CHANNEL} could not be joined: no access`, fields: { status: '403', channel_id: CHANNEL } };
    expect(h.codec.decode(envB(fromB(h.sent[0]!).cid, refusal))).toEqual([
      { kind: 'error', cid: 'a', error },
      { kind: 'error', cid: 'b', error },
    ]);
    expect(h.sent).toHaveLength(1);
  });

  it('writes refused for two channels, or for one channel in two modes, get a join each', () => {
    const h = codecFor('sdk-2.8.37');
    const other = '1840000000000000201';
    h.codec.encode('a', 'channel_message_send', { ...write, content: { t: 'a' } });
    h.codec.encode('b', 'channel_message_send', { ...write, channel_id: other, content: { t: 'b' } });
    h.codec.encode('c', 'channel_message_send', { ...write, mode: ChannelStreamMode.STREAM_MODE_THREAD, content: { t: 'c' } });
    h.codec.encode('d', 'channel_message_send', { ...write, channel_id: other, content: { t: 'd' } });
    for (const wire of ['1', '2', '3', '4']) h.codec.decode(envB(wire, mustJoin));
    expect(h.sent.map((f) => fromB(f).message)).toEqual([
      expect.objectContaining({ case: 'channelJoin', value: expect.objectContaining({ channelId: CHANNEL }) }),
      expect.objectContaining({ case: 'channelJoin', value: expect.objectContaining({ channelId: other }) }),
      expect.objectContaining({ case: 'channelJoin', value: expect.objectContaining({ channelId: CHANNEL }) }),
    ]);
    // The second channel's join sends its two writes again, and only them.
    expect(h.codec.decode(envB(fromB(h.sent[1]!).cid, joined))).toBeUndefined();
    expect(h.sent.slice(3).map((f) => { const m = fromB(f).message; return m.case === 'channelMessageSend' ? m.value.content : m.case; })).toEqual(['{"t":"b"}', '{"t":"d"}']);
  });

  it('a write refused after the join was answered gets a join of its own: the one before is over', () => {
    const h = codecFor('sdk-2.8.37');
    h.codec.encode('a', 'channel_message_send', { ...write, content: { t: 'a' } });
    h.codec.decode(envB('1', mustJoin));
    h.codec.decode(envB(fromB(h.sent[0]!).cid, joined));
    const b = h.codec.encode('b', 'channel_message_send', { ...write, content: { t: 'b' } }) as Uint8Array;
    expect(h.codec.decode(envB(fromB(b).cid, mustJoin))).toBeUndefined();
    expect(h.sent.map((f) => fromB(f).message.case)).toEqual(['channelJoin', 'channelMessageSend', 'channelJoin']);
  });
});

describe('fan-out', () => {
  it('an ephemeral message to two receivers (sdk-2.8.37) is answered once both envelopes are', () => {
    const { codec } = codecFor('sdk-2.8.37');
    codec.encode('4', 'ephemeral_message_send', { ...write, content: { t: 'psst' }, receiver_ids: [ALICE, BOB] });
    expect(codec.decode(envB('1', ack('1840000000000000301')))).toBeUndefined();
    expect(codec.decode(envB('2', ack('1840000000000000302')))).toMatchObject({ kind: 'reply', cid: '4', op: 'channel_message_ack' });
  });

  it('fails at the first refusal, and drops the other answers quietly', () => {
    const h = codecFor('sdk-2.8.37');
    h.codec.encode('4', 'ephemeral_message_send', { ...write, content: { t: 'psst' }, receiver_ids: [ALICE, BOB] });
    expect(h.codec.decode(envB('1', { case: 'error', value: create(B.ErrorSchema, { code: 3, message: 'no receiver' }) }))).toMatchObject({ kind: 'error', cid: '4' });
    expect(h.codec.decode(envB('2', ack('1840000000000000302')))).toBeUndefined();
    expect(h.debug.at(-1)).toMatchObject({ type: 'frame_ignored' });
  });
});

describe('sdk-2.8.44 raw answers', () => {
  it('an edit answered in raw frames, two chunks, settles with the ack of the update', () => {
    const { codec } = codecFor('sdk-2.8.44');
    codec.encode('12', 'channel_message_update', { ...write, message_id: MESSAGE, content: { t: 'v2' } });
    const body = toBinary(C.ChannelMessageUpdateSchema, create(C.ChannelMessageUpdateSchema, { clanId: CLAN, channelId: CHANNEL, messageId: MESSAGE, createTimeSeconds: 1_790_000_000 }));
    expect(codec.decode(writeRawFrame({ cid: 1, code: 0, fin: false, payload: body.subarray(0, 5) }))).toBeUndefined();
    expect(codec.decode(writeRawFrame({ cid: 1, code: 0, fin: true, payload: body.subarray(5) }))).toEqual({
      kind: 'reply',
      cid: '12',
      op: 'channel_message_ack',
      payload: { message_id: MESSAGE, channel_id: CHANNEL, clan_id: CLAN, mode: 2, code: TypeMessage.ChatUpdate, create_time_seconds: 1_790_000_000, update_time_seconds: 0, persistent: true },
    });
  });

  it('a raw answer with a non-zero code fails the request', () => {
    const { codec } = codecFor('sdk-2.8.44');
    codec.encode('12', 'channel_message_remove', { ...write, message_id: MESSAGE });
    expect(codec.decode(writeRawFrame({ cid: 1, code: 7, fin: true, payload: new Uint8Array() }))).toMatchObject({ kind: 'error', cid: '12', error: { message: expect.stringContaining('DeleteChannelMessage') } });
  });

  it('refresh_session_event (96) hands the pushed session to the client, and is no event', () => {
    const h = codecFor('sdk-2.8.44');
    const session = create(C.SessionSchema, { token: 'new.access.token', refreshToken: 'new.refresh.token', userId: '1840000000000000001', idToken: 'id.token' });
    expect(h.codec.decode(envC(0, { case: 'refreshSessionEvent', value: session }))).toBeUndefined();
    expect(h.sessions).toEqual([expect.objectContaining({ token: 'new.access.token', refreshToken: 'new.refresh.token', idToken: 'id.token' })]);
  });
});

describe('pushes without a clanstream event, and other dialects', () => {
  it('drops a push clanstream has no event for as a debug record', () => {
    const h = codecFor('sdk-2.8.44');
    const banned = create(C.ListChannelUsersBannedEventSchema, { bannedUserIds: [ALICE] });
    expect(h.codec.decode(envC(0, { case: 'listChannelUsersBannedEvent', value: banned }))).toBeUndefined();
    expect(h.debug).toEqual([{ topic: 'gateway', type: 'frame_ignored', what: 'a listChannelUsersBannedEvent push, which has no clanstream event' }]);
  });

  it('a push whose body eras B and C share is read by either (only markers decide, never a decode error)', () => {
    const h = codecFor('sdk-2.8.37');
    expect(h.codec.decode(pushFrame('sdk-2.8.44', Events.MessageTyping, EVENT_SAMPLES[Events.MessageTyping]))).toMatchObject({ kind: 'event' });
  });

  it('a frame of another dialect is fatal once, naming the dialect to set; later ones are debug records', () => {
    const h = codecFor('sdk-2.8.37');
    h.codec.encode('1', 'ping', {});
    // sdk-2.8.44's answer: a numeric cid.
    const first = h.codec.decode(envC(1, { case: 'pong', value: create(B.PongSchema) }));
    expect(first).toMatchObject({ kind: 'fatal' });
    expect((first as { error: ProtocolError }).error.message).toMatch(/the server speaks sdk-2\.8\.44 frames, not sdk-2\.8\.37: set the dialect to sdk-2\.8\.44/);
    expect(h.codec.decode(envC(2, { case: 'pong', value: create(B.PongSchema) }))).toBeUndefined();
    expect(h.debug).toEqual([expect.objectContaining({ type: 'frame_ignored' })]);
  });

  it('an sdk-2.8.33 server to an sdk-2.8.44 client: fatal, naming sdk-2.8.33', () => {
    const h = codecFor('sdk-2.8.44');
    const frame = h.codec.decode(pushFrame('sdk-2.8.33', Events.ChannelMessage, EVENT_SAMPLES[Events.ChannelMessage]));
    expect((frame as { error: ProtocolError }).error.message).toContain('set the dialect to sdk-2.8.33');
  });

  it('clanstream/production, without sdk-2.8.33: an sdk-2.8.33 server is fatal once, naming the entry that speaks it', () => {
    const h = codecFor('sdk-2.8.44', { known: [SDK_2_8_37, SDK_2_8_44] });
    const frame = h.codec.decode(pushFrame('sdk-2.8.33', Events.ChannelMessage, EVENT_SAMPLES[Events.ChannelMessage]));
    expect(frame).toMatchObject({ kind: 'fatal' });
    expect((frame as { error: ProtocolError }).error.message).toBe("the server's frames are not sdk-2.8.37 or sdk-2.8.44 frames (if the server speaks sdk-2.8.33, use clanstream/production/sdk-2.8.33)");
    expect(h.codec.decode(pushFrame('sdk-2.8.33', Events.ChannelMessage, EVENT_SAMPLES[Events.ChannelMessage]))).toBeUndefined();
  });

  it('a text frame is a ProtocolError', () => {
    expect(codecFor('sdk-2.8.44').codec.decode('{"cid":"1"}')).toBeInstanceOf(ProtocolError);
  });

  it('a channel message whose parts cannot be read is delivered with those parts empty, and the problem reported', () => {
    const h = codecFor('sdk-2.8.44');
    const m = create(B.ChannelMessageSchema, { clanId: CLAN, channelId: CHANNEL, messageId: MESSAGE, content: '{"t":"x"}', mentions: new Uint8Array([0x99, 0x01]) });
    const frame = h.codec.decode(envC(0, { case: 'channelMessage', value: m }));
    expect(frame).toMatchObject({ kind: 'event', event: { type: Events.ChannelMessage, data: { mentions: [], content: { t: 'x' } } } });
    expect(h.reports.map((e) => e.message)).toEqual([expect.stringContaining('mentions are neither JSON nor a protobuf list')]);
  });

  it('reads sdk-2.8.44 message parts sent as protobuf lists (items in field 1)', () => {
    const h = codecFor('sdk-2.8.44');
    const mention = toBinary(B.MessageMentionSchema, create(B.MessageMentionSchema, { userId: ALICE, s: 0, e: 6 }));
    const list = new Uint8Array([0x0a, mention.length, ...mention]);
    const m = create(B.ChannelMessageSchema, { clanId: CLAN, channelId: CHANNEL, messageId: MESSAGE, content: '{"t":"@alice"}', mentions: list });
    expect(h.codec.decode(envC(0, { case: 'channelMessage', value: m }))).toMatchObject({ event: { data: { mentions: [{ user_id: ALICE, s: 0, e: 6 }] } } });
  });
});

function fromC(bytes: Uint8Array): { cid: number; message: { case: string | undefined; value?: unknown } } {
  return fromBinary(C.EnvelopeSchema, bytes);
}
