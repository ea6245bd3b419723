/**
 * The compat front end's era C (sdk-2.8.44), driven by a bare socket: the
 * frames a client of that era sends (int32 cids, `api_request_event`) and
 * what the emulator answers (int32 cids, 0xFF raw frames), pinned against
 * golden bytes built from the wire's description (docs/DIALECTS.md), since no
 * installable client speaks it.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiSession } from '../../src/model/api.js';
import { ChannelMessageRemoveSchema, MessageMentionSchema } from '../../src/production/schema/sdk-2.8.37_pb.js';
import { ChannelMessageUpdateSchema, SessionSchema } from '../../src/production/schema/sdk-2.8.44_pb.js';
import { API_INDEX, encodeApiRequest } from '../../src/production/wire/index.js';
import { MUST_JOIN_CHANNEL } from '../../src/emulator/compat/requests.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';
import { api, authenticate, http } from '../helpers/raw.js';
import { EraCSocket } from './support/era-c-socket.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const fromHex = (text: string) => new Uint8Array(Buffer.from(text.replace(/\s+/g, ''), 'hex'));

/** A varint, as the golden frames below spell ids. */
function varint(value: bigint | number): string {
  let n = BigInt(value);
  const out: number[] = [];
  while (n > 127n) {
    out.push(Number(n & 127n) | 128);
    n >>= 7n;
  }
  out.push(Number(n));
  return hex(new Uint8Array(out));
}

/** A length-delimited field: tag byte, length, body (all hex). */
const len = (tag: string, body: string) => `${tag}${(body.length / 2).toString(16).padStart(2, '0')}${body}`;

describe('the production socket in era C (sdk-2.8.44)', () => {
  let world: TestWorld;
  let session: ApiSession;
  let socket: EraCSocket;
  let clanId: string;
  let general: string;

  beforeEach(async () => {
    world = await createTestWorld({ compat: true });
    clanId = world.clan!.id;
    general = world.channels.general!.channel_id;
    session = await authenticate(world.emu.url, { id: world.bot.id, token: world.bot.token });
    socket = await EraCSocket.open(world.emu.url, session.token);
  });
  afterEach(async () => {
    socket?.close();
    await world?.close();
  });

  const join = async (channelId = general) => {
    await socket.request({ case: 'clanJoin', value: { clanId } });
    return socket.request({ case: 'channelJoin', value: { clanId, channelId, channelType: 1, isPublic: true } });
  };
  const send = (text: string, channelId = general) =>
    socket.request({ case: 'channelMessageSend', value: { clanId, channelId, content: JSON.stringify({ t: text }), mode: 2, isPublic: true } });

  it('reads an int32-cid clan_join from golden bytes and answers under the same int32 cid', async () => {
    // Envelope: cid (field 1, varint) = 7; clan_join (field 3, LEN) { clan_id (field 1, varint int64) }.
    socket.sendBytes(fromHex(`0807 ${len('1a', `08${varint(BigInt(clanId))}`)}`));
    const answer = await socket.next((f) => f.kind === 'envelope' && f.envelope.cid === 7);
    // The answer's first field is the cid as a varint (tag 0x08), never as text (tag 0x0a).
    expect(hex(answer.bytes.subarray(0, 2))).toBe('0807');
    expect(world.emu.wire.frames('clan_join').at(-1)).toMatchObject({ protocol: 'sdk-2.8.44', cid: '7', body: { clan_id: clanId } });
  });

  it('joins, sends, and hears the others in its own dialect (int64 ids, parts as protobuf lists)', async () => {
    expect((await join()).message.case).toBe('channel');
    const answer = await send('from era C');
    expect(answer.message.case).toBe('channelMessageAck');
    const ack = answer.message.value as { messageId: string; channelId: string };
    expect(world.emu.messages(general).at(-1)).toMatchObject({ message_id: ack.messageId, sender_id: world.bot.id, content: { t: 'from era C' } });

    const said = world.as('alice').send(general, 'hello era C', { mentions: [{ user_id: world.bot.id, s: 0, e: 5 }] });
    const push = await socket.envelope((e) => e.message.case === 'channelMessage' && e.message.value.messageId === said.message_id);
    const message = push.message.value as { senderId: string; content: string; mentions: Uint8Array; cid?: number };
    expect(message).toMatchObject({ senderId: world.accounts.alice!.id, content: '{"t":"hello era C"}' });
    // Parts are a protobuf MessageMentionList: field 1 (LEN) once per mention.
    const one = toBinary(MessageMentionSchema, create(MessageMentionSchema, { userId: world.bot.id, s: 0, e: 5 }));
    expect(hex(message.mentions)).toBe(`0a${one.length.toString(16).padStart(2, '0')}${hex(one)}`);
    expect(push.cid).toBe(0);
  });

  it('refuses a write to a channel the socket has not joined with error 3 "must join channel", and takes it after the join', async () => {
    await socket.request({ case: 'clanJoin', value: { clanId } });
    const refused = await send('too early');
    expect(refused.message).toEqual({ case: 'error', value: expect.objectContaining({ code: 3, message: MUST_JOIN_CHANNEL }) });
    expect(world.emu.messages(general)).toEqual([]);
    await socket.request({ case: 'channelJoin', value: { clanId, channelId: general, channelType: 1, isPublic: true } });
    expect((await send('after the join')).message.case).toBe('channelMessageAck');
    expect(world.emu.messages(general).map((m) => m.content.t)).toEqual(['after the join']);
  });

  it('edits a message through api_request_event UpdateChannelMessage, answered in 0xFF raw frames under the cid', async () => {
    await join();
    const ack = (await send('before')).message.value as { messageId: string };
    const frames = await socket.rpc('UpdateChannelMessage', { clanId, channelId: general, messageId: ack.messageId, content: JSON.stringify({ t: 'after' }), mode: 2, isPublic: true });
    expect(frames.at(-1)).toMatchObject({ code: 0, fin: true });
    const last = socket.frames.filter((f) => f.kind === 'raw').at(-1)!;
    // Header: 0xFF, cid (u16 BE), response code 0 (u16 BE), FIN 0x00FF (u16 BE).
    expect(hex(last.bytes.subarray(0, 7))).toBe(`ff${frames.at(-1)!.cid.toString(16).padStart(4, '0')}000000ff`);
    const body = new Uint8Array(Buffer.concat(frames.map((f) => f.payload)));
    expect(fromBinary(ChannelMessageUpdateSchema, body)).toMatchObject({ messageId: ack.messageId, channelId: general });
    expect(world.emu.messages(general).at(-1)).toMatchObject({ message_id: ack.messageId, content: { t: 'after' } });
    expect(world.emu.wire.frames('api_request_event').at(-1)).toMatchObject({ protocol: 'sdk-2.8.44', body: { api_name: 'UpdateChannelMessage', api_index: API_INDEX['sdk-2.8.44'].UpdateChannelMessage } });
  });

  it('deletes a message through api_request_event DeleteChannelMessage', async () => {
    await join();
    const ack = (await send('gone soon')).message.value as { messageId: string };
    const frames = await socket.rpc('DeleteChannelMessage', { clanId, channelId: general, messageId: ack.messageId, mode: 2, isPublic: true });
    expect(frames.at(-1)).toMatchObject({ code: 0, fin: true });
    expect(fromBinary(ChannelMessageRemoveSchema, new Uint8Array(Buffer.concat(frames.map((f) => f.payload))))).toMatchObject({ messageId: ack.messageId });
    expect(world.emu.messages(general).find((m) => m.message_id === ack.messageId)).toBeUndefined();
  });

  it('answers an api_request_event whose api_index is not its method’s ordinal with a refusal in raw frames, and changes nothing', async () => {
    await join();
    const ack = (await send('kept')).message.value as { messageId: string };
    // api_request_event (field 92, LEN: tag e2 05): api_index (1) = 1, api_name (2) = "UpdateChannelMessage", body (3) empty: never read, the ordinal is checked first.
    const name = hex(new TextEncoder().encode('UpdateChannelMessage'));
    const request = `0801${len('12', name)}${len('1a', '')}`;
    socket.sendBytes(fromHex(`0863 e205${(request.length / 2).toString(16).padStart(2, '0')}${request}`));
    const answer = await socket.next((f) => f.kind === 'raw' && f.raw.cid === 0x63 && f.raw.fin);
    const raw = (answer as Extract<typeof answer, { kind: 'raw' }>).raw;
    expect(raw.code).not.toBe(0);
    expect(JSON.parse(new TextDecoder().decode(raw.payload))).toMatchObject({ message: expect.stringContaining(`api_index 1 is not the ordinal of UpdateChannelMessage`) });
    expect(world.emu.messages(general).at(-1)).toMatchObject({ message_id: ack.messageId, content: { t: 'kept' } });
  });

  it('reacts to a message: stored as any reaction, answered with the reaction', async () => {
    await join();
    const said = world.as('alice').send(general, 'react to me');
    const answer = await socket.request({ case: 'messageReactionEvent', value: { clanId, channelId: general, messageId: said.message_id, emojiId: '7', emoji: 'wave', count: 1, mode: 2, isPublic: true, messageSenderId: world.accounts.alice!.id } });
    expect(answer.message.case).toBe('messageReactionEvent');
    expect(world.emu.messages(general).find((m) => m.message_id === said.message_id)?.reactions).toEqual([{ emoji_id: '7', emoji: 'wave', count: 1, sender_ids: [world.bot.id] }]);
  });

  it('pushes refresh_session_event with the new session when the emulator refreshes it, and the socket goes on under it', async () => {
    await join();
    expect(world.emu.refreshSessions(world.bot.id)).toBe(1);
    const push = await socket.envelope((e) => e.message.case === 'refreshSessionEvent');
    const fresh = push.message.value as ReturnType<typeof fromBinary<typeof SessionSchema>>;
    expect(fresh).toMatchObject({ userId: world.bot.id, sessionId: expect.any(String) });
    expect(fresh.token).not.toBe(session.token);
    expect((await api({ ...session, token: fresh.token }, 'GET', '/v2/clandesc')).status).toBe(200);
    expect((await send('still here')).message.case).toBe('channelMessageAck');
  });

  it('pushes refresh_session_event when the client refreshes its session over REST', async () => {
    await join();
    const refreshed = await http<{ token: string }>(world.emu.url, 'POST', '/v2/apps/authenticate/refresh', { body: { refresh_token: session.refresh_token } });
    expect(refreshed.status).toBe(200);
    const push = await socket.envelope((e) => e.message.case === 'refreshSessionEvent');
    expect((push.message.value as { token: string }).token).toBe(refreshed.body.token);
  });

  it('sends an ephemeral message to several receivers (receiver_ids), answered with the message', async () => {
    await join();
    const receivers = [world.accounts.alice!.id, world.accounts.bob!.id];
    const answer = await socket.request({
      case: 'ephemeralMessageSend',
      value: { receiverIds: receivers, message: { clanId, channelId: general, content: JSON.stringify({ t: 'just you two' }), mode: 2, isPublic: true, code: 12 } },
    });
    expect(answer.message.case).toBe('channelMessage');
    const stored = world.emu.messages(general).at(-1);
    expect(stored).toMatchObject({ content: { t: 'just you two' }, ephemeral_receivers: receivers });
  });

  it('pushes refresh_session_event when a tool asks the test API to refresh the user’s sessions', async () => {
    await join();
    const answer = await http<{ told: number }>(world.emu.url, 'POST', '/emulator/sessions/refresh', { body: { user: world.bot.id } });
    expect(answer).toMatchObject({ status: 200, body: { told: 1 } });
    await socket.envelope((e) => e.message.case === 'refreshSessionEvent');
    expect((await http(world.emu.url, 'POST', '/emulator/sessions/refresh', { body: { user: 'nobody' } })).status).toBe(404);
  });

  it('pushes refresh_session_event when the console’s fault control asks for it', async () => {
    await join();
    expect((await http(world.emu.url, 'POST', '/console/api/faults', { body: { kind: 'refresh-sessions', userId: world.bot.id } })).status).toBe(200);
    await socket.envelope((e) => e.message.case === 'refreshSessionEvent');
  });

  it('refuses an api_request_event whose cid does not fit the 16 bits of a raw frame, under its cid, and runs nothing', async () => {
    await join();
    const ack = (await send('untouched')).message.value as { messageId: string };
    const request = encodeApiRequest(70_000, 'DeleteChannelMessage', { clanId, channelId: general, messageId: ack.messageId }) as Uint8Array;
    socket.sendBytes(request);
    const refusal = await socket.envelope((e) => e.cid === 70_000);
    expect(refusal.message).toEqual({ case: 'error', value: expect.objectContaining({ code: 3, message: expect.stringContaining('cid from 1 to 65535') }) });
    expect(world.emu.messages(general).some((m) => m.message_id === ack.messageId)).toBe(true);
  });

  it('refuses a frame of another dialect once its frames showed era C, and closes the socket saying why', async () => {
    await join();
    // An era-A ping: cid as text (tag 0x0a) "9"; ping (field 22, LEN: tag b2 01) empty.
    socket.sendBytes(fromHex('0a0139 b20100'));
    await until(() => socket.closed !== undefined, 'the socket to close');
    expect(socket.closed).toMatchObject({ code: 1008, reason: expect.stringContaining('dialect switched mid-way') });
    const refusal = socket.frames.find((f) => f.kind === 'envelope' && f.envelope.message.case === 'error');
    expect(refusal?.kind === 'envelope' && refusal.envelope.message.value).toMatchObject({ code: 1, message: expect.stringContaining('sdk-2.8.44') });
  });

  it('refuses content over 4,000 JSON characters, the limit of its era', async () => {
    await join();
    const refused = await send('x'.repeat(4000));
    expect(refused.message).toEqual({ case: 'error', value: expect.objectContaining({ code: 3, message: expect.stringContaining('limit is 4000') }) });
    expect(world.emu.messages(general)).toEqual([]);
  });
});
