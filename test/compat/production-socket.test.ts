/**
 * The compat front end's protobuf socket driven bare (no SDK): requests are
 * answered under their cid, refusals are the production error envelope and
 * never a hang, pushes carry the production messages, and the emulator's own
 * controls (pause, closing sockets, logout) apply to it.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { ChannelMessageSendSchema, EnvelopeSchema, Error_Code, LastSeenMessageEventSchema, MessageTypingEventSchema, PingSchema } from '../../src/production/schema/sdk-2.8.33_pb.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../helpers/client.js';
import { api, authenticate } from '../helpers/raw.js';
import type { ApiSession } from '../../src/model/api.js';
import { ProductionSocket, RefusedUpgrade } from './support/raw-socket.js';

describe('the production socket', () => {
  let world: TestWorld;
  let session: ApiSession;
  let socket: ProductionSocket;
  let general: string;

  beforeEach(async () => {
    world = await createTestWorld({ compat: true });
    general = world.channels.general!.channel_id;
    session = await authenticate(world.emu.url, { id: world.bot.id, token: world.bot.token });
    socket = await ProductionSocket.open(world.emu.url, session.token);
    await socket.request({ case: 'clanJoin', value: { clanId: world.clan!.id } });
  });
  afterEach(async () => {
    socket?.close();
    await world?.close();
  });

  const send = (content: string, channelId = general) => socket.request({ case: 'channelMessageSend', value: create(ChannelMessageSendSchema, { clanId: world.clan!.id, channelId, content, mode: 2, isPublic: true }) });

  it('answers a ping with a pong under the same cid', async () => {
    const answer = await socket.request({ case: 'ping', value: create(PingSchema) });
    expect(answer.message.case).toBe('pong');
  });

  it('stores a sent message as any other and acknowledges it with its id', async () => {
    const answer = await send(JSON.stringify({ t: 'from the wire', mk: [{ type: 'b', s: 0, e: 4 }] }));
    expect(answer.message.case).toBe('channelMessageAck');
    const ack = answer.message.value as { messageId: string; channelId: string; code?: number; persistent?: boolean };
    expect(ack).toMatchObject({ channelId: general, code: 0, persistent: true });
    expect(world.emu.messages(general).at(-1)).toMatchObject({ message_id: ack.messageId, sender_id: world.bot.id, content: { t: 'from the wire', mk: [{ type: 'b', s: 0, e: 4 }] } });
  });

  it('pushes channel messages with their parts as JSON text, as production does', async () => {
    const said = world.as('alice').send(general, 'hi', { mentions: [{ user_id: world.bot.id, s: 0, e: 2 }] });
    const push = await socket.push('channelMessage', (m) => m.messageId === said.message_id);
    expect(push).toMatchObject({ senderId: world.accounts.alice!.id, username: 'alice', code: 0, mode: 2, isPublic: true, content: '{"t":"hi"}', createTimeSeconds: said.create_time_seconds });
    expect(JSON.parse(push.mentions)).toEqual([{ user_id: world.bot.id, s: 0, e: 2 }]);
    expect(JSON.parse(push.references)).toEqual([]);
  });

  it('refuses a request it does not serve with the production error, and keeps serving', async () => {
    const answer = await socket.request({ case: 'lastSeenMessageEvent', value: create(LastSeenMessageEventSchema, { clanId: world.clan!.id, channelId: general }) });
    expect(answer.message).toEqual({ case: 'error', value: expect.objectContaining({ code: Error_Code.UNRECOGNIZED_PAYLOAD, message: expect.stringContaining('last_seen_message_event is not served') }) });
    expect((await socket.request({ case: 'ping', value: {} })).message.case).toBe('pong');
  });

  it('pushes typing as the production typing envelope, never as a channel message, and stores nothing', async () => {
    world.as('alice').typing(general);
    const said = world.as('alice').send(general, 'typed');
    const typing = await socket.push('messageTypingEvent');
    expect(typing).toMatchObject({ clanId: world.clan!.id, channelId: general, senderId: world.accounts.alice!.id, mode: 2, isPublic: true, senderUsername: 'alice', senderDisplayName: 'Alice', topicId: '' });
    await socket.push('channelMessage', (m) => m.messageId === said.message_id);
    expect(socket.received.filter((e) => e.message.case === 'channelMessage').map((e) => (e.message.value as { messageId: string }).messageId)).toEqual([said.message_id]);
    expect(world.emu.messages(general).map((m) => m.content.t)).toEqual(['typed']);
  });

  it("serves the SDK's writeMessageTyping: the others are told, the typist is answered with the notice", async () => {
    const bob = await authenticate(world.emu.url, { id: world.accounts.bob!.id, token: world.accounts.bob!.token });
    const bobSocket = await ProductionSocket.open(world.emu.url, bob.token);
    try {
      const answer = await bobSocket.request({ case: 'messageTypingEvent', value: create(MessageTypingEventSchema, { clanId: world.clan!.id, channelId: general, mode: 2, isPublic: true }) });
      const notice = { clanId: world.clan!.id, channelId: general, senderId: world.accounts.bob!.id, senderUsername: 'bob', mode: 2, isPublic: true };
      expect(answer.message).toEqual({ case: 'messageTypingEvent', value: expect.objectContaining(notice) });
      expect(await socket.push('messageTypingEvent')).toMatchObject(notice);
      // Typing where bob may not write is refused as any write is.
      const staff = world.channels.staff!.channel_id;
      const refused = await bobSocket.request({ case: 'messageTypingEvent', value: create(MessageTypingEventSchema, { clanId: world.clan!.id, channelId: staff }) });
      expect(refused.message).toEqual({ case: 'error', value: expect.objectContaining({ code: Error_Code.RUNTIME_EXCEPTION, context: expect.objectContaining({ status: '403' }) }) });
      expect(world.emu.messages(general)).toEqual([]);
    } finally {
      bobSocket.close();
    }
  });

  it('refuses an envelope field it does not know (a request of a newer SDK) under its cid', async () => {
    // Field 70 (remove_friend: tag 562 as the varint b2 04) holding an empty message: not in the served schema.
    socket.sendRaw(new Uint8Array([...toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid: '77' })), 0xb2, 0x04, 0x00]));
    const answer = await socket.next((e) => e.cid === '77');
    expect(answer.message).toEqual({ case: 'error', value: expect.objectContaining({ code: Error_Code.UNRECOGNIZED_PAYLOAD }) });
  });

  it('answers frames it cannot read with an error, not a hang', async () => {
    socket.sendRaw('{"ping":{}}');
    expect((await socket.next((e) => e.message.case === 'error')).message.value).toMatchObject({ code: Error_Code.BAD_INPUT, message: expect.stringContaining('binary protobuf') });
    // Wire type 7 does not exist: no dialect's Envelope.
    socket.sendRaw(new Uint8Array([0x0f, 0x01]));
    expect((await socket.next((e) => e.message.case === 'error' && (e.message.value.code as Error_Code) === Error_Code.UNRECOGNIZED_PAYLOAD)).message.value).toMatchObject({
      message: 'the frame is not a protobuf Envelope of any dialect of the production wire',
    });
    // 0xFF heads the raw frames that carry era C's RPC answers: a client never sends one.
    socket.sendRaw(new Uint8Array([0xff, 0x00, 0x01, 0x00, 0x00, 0x00, 0xff]));
    await socket.next((e) => e.message.case === 'error' && e.message.value.message.startsWith('a raw frame'));
    expect((await socket.request({ case: 'ping', value: {} })).message.case).toBe('pong');
  });

  it('refuses bad input with BAD_INPUT naming the field, and stores nothing', async () => {
    const before = world.emu.messages(general).length;
    const answer = await send('not json');
    expect(answer.message).toEqual({ case: 'error', value: expect.objectContaining({ code: Error_Code.BAD_INPUT, context: expect.objectContaining({ status: '400', content: 'is not JSON' }) }) });
    const empty = await send(JSON.stringify({}));
    expect(empty.message).toEqual({ case: 'error', value: expect.objectContaining({ code: Error_Code.BAD_INPUT, message: expect.stringContaining('content') }) });
    expect(world.emu.messages(general)).toHaveLength(before);
  });

  it("refuses what the world forbids with RUNTIME_EXCEPTION and the emulator's reason", async () => {
    const bob = await authenticate(world.emu.url, { id: world.accounts.bob!.id, token: world.accounts.bob!.token });
    const bobSocket = await ProductionSocket.open(world.emu.url, bob.token);
    try {
      const staff = world.channels.staff!.channel_id;
      const answer = await bobSocket.request({ case: 'channelMessageSend', value: { clanId: world.clan!.id, channelId: staff, content: '{"t":"let me in"}' } });
      expect(answer.message).toEqual({ case: 'error', value: expect.objectContaining({ code: Error_Code.RUNTIME_EXCEPTION, context: expect.objectContaining({ status: '403', reason: 'forbidden' }) }) });
      expect(world.emu.messages(staff)).toEqual([]);
    } finally {
      bobSocket.close();
    }
  });

  it('logs each request under its production name, without the token', async () => {
    await send(JSON.stringify({ t: 'logged' }));
    expect(world.emu.wire.frames('channel_message_send').at(-1)).toMatchObject({ userId: world.bot.id, body: { channel_id: general, content: '{"t":"logged"}' } });
    expect(JSON.stringify(world.emu.wire.entries())).not.toContain(session.token);
  });

  it("is one of the gateway's sockets: a request made while paused is answered on resume, closeConnections and logout close it", async () => {
    world.emu.pause();
    const held = socket.request({ case: 'ping', value: {} });
    world.emu.resume();
    expect((await held).message.case).toBe('pong');

    world.emu.closeConnections(4000, 'test close', world.bot.id);
    await socket.next(() => false, 2000).catch(() => undefined);
    expect(socket.closed?.code).toBe(4000);
    await until(() => world.emu.sessions(world.bot.id).length === 0, 'the closed socket to end its session');

    const again = await ProductionSocket.open(world.emu.url, session.token);
    expect((await api(session, 'POST', '/v2/apps/authenticate/logout', { token: session.token })).status).toBe(200);
    await again.next(() => false, 2000).catch(() => undefined);
    expect(again.closed?.code).toBe(4005);
  });

  it('refuses an upgrade with a bad token (401) or another format (400)', async () => {
    await expect(ProductionSocket.open(world.emu.url, 'not-a-token')).rejects.toEqual(new RefusedUpgrade(401));
    await expect(ProductionSocket.open(world.emu.url, session.token, 'json')).rejects.toEqual(new RefusedUpgrade(400));
  });
});

describe('an emulator without compat', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('serves none of the production protocol', async () => {
    emu = await startEmulator({ seed: { bots: [{ username: 'plain' }] } });
    const bot = emu.credentials()[0]!;
    const session = await authenticate(emu.url, { id: bot.id, token: bot.token });
    expect(session).not.toHaveProperty('id_token');
    expect((await api(session, 'GET', '/v2/clandesc')).status).toBe(404);
    // The production socket's upgrade reaches the emulator's own gateway, which wants its protocol version.
    const socket = await ProductionSocket.open(emu.url, session.token);
    await socket.next(() => false, 2000).catch(() => undefined);
    expect(socket.closed?.code).toBe(4006);
  });
});
