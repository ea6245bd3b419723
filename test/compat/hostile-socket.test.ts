/**
 * The compat front end's protobuf socket under hostile frames, driven bare
 * (no SDK): unknown fields in any message, a Timestamp out of range, a huge
 * cid, and floods that must stay inside the wire log's byte bound whether
 * they come as protobuf frames or as unauthenticated upgrade queries.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChannelMessageSendSchema, ChannelMessageSchema, EnvelopeSchema, Error_Code, MessageMentionSchema, type Envelope } from '../../src/production/schema/sdk-2.8.33_pb.js';
import { MAX_CID_LENGTH } from '../../src/emulator/gateway/frame-cid.js';
import { WIRE_LOG_LIMITS } from '../../src/emulator/wire-log.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { authenticate } from '../helpers/raw.js';
import type { ApiSession } from '../../src/model/api.js';
import { ProductionSocket } from './support/raw-socket.js';

/** A protobuf varint. */
function varint(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

/** A field the schema does not know: number `field`, varint 1. */
const unknownVarint = (field: number): number[] => [...varint(field * 8), 1];

/** A length-delimited field: number `field`, holding `bytes`. */
const lengthDelimited = (field: number, bytes: number[]): number[] => [...varint(field * 8 + 2), ...varint(bytes.length), ...bytes];

/** Field numbers of production.proto: Envelope.ping, Envelope.channel_message_send, ChannelMessageSend.mentions. */
const PING_FIELD = 22;
const SEND_FIELD = 8;
const MENTIONS_FIELD = 4;

describe('the production socket under hostile frames', () => {
  let world: TestWorld;
  let session: ApiSession;
  let socket: ProductionSocket;
  let general: string;

  const open = async (options: Parameters<typeof createTestWorld>[0] = {}) => {
    world = await createTestWorld({ compat: true, ...options });
    general = world.channels.general!.channel_id;
    session = await authenticate(world.emu.url, { id: world.bot.id, token: world.bot.token });
    socket = await ProductionSocket.open(world.emu.url, session.token);
    await socket.request({ case: 'clanJoin', value: { clanId: world.clan!.id } });
  };
  beforeEach(() => open());
  afterEach(async () => {
    socket?.close();
    await world?.close();
  });

  const refusal = async (cid: string): Promise<{ code: number; message: string }> => {
    const answer: Envelope = await socket.next((e) => e.cid === cid);
    expect(answer.message.case).toBe('error');
    return answer.message.value as { code: number; message: string };
  };

  it('refuses an unknown field in ping, in the envelope beside ping, and deep in a send, each under its cid; nothing is stored', async () => {
    // ping {field 9}: the field sits inside the ping message.
    socket.sendRaw(new Uint8Array([...toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid: 'in-ping' })), ...lengthDelimited(PING_FIELD, unknownVarint(9))]));
    expect(await refusal('in-ping')).toMatchObject({ code: Error_Code.UNRECOGNIZED_PAYLOAD, message: 'ping has field 9, which the served schema does not know' });
    // A known ping, and field 99 on the envelope itself.
    socket.sendRaw(new Uint8Array([...toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid: 'in-envelope', message: { case: 'ping', value: {} } })), ...unknownVarint(99)]));
    expect(await refusal('in-envelope')).toMatchObject({ code: Error_Code.UNRECOGNIZED_PAYLOAD, message: 'the envelope has field 99, which the served schema does not know' });
    // A send whose first mention carries field 15.
    const mention = [...toBinary(MessageMentionSchema, create(MessageMentionSchema, { userId: world.accounts.alice!.id, s: 0, e: 2 })), ...unknownVarint(15)];
    const send = [...toBinary(ChannelMessageSendSchema, create(ChannelMessageSendSchema, { clanId: world.clan!.id, channelId: general, content: '{"t":"hi"}', mode: 2, isPublic: true })), ...lengthDelimited(MENTIONS_FIELD, mention)];
    socket.sendRaw(new Uint8Array([...toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid: 'in-mention' })), ...lengthDelimited(SEND_FIELD, send)]));
    expect(await refusal('in-mention')).toMatchObject({ code: Error_Code.UNRECOGNIZED_PAYLOAD, message: 'channel_message_send.mentions[0] has field 15, which the served schema does not know' });
    expect(world.emu.messages(general).filter((m) => m.sender_id === world.bot.id)).toEqual([]);
    // The same requests without the unknown fields are served.
    expect((await socket.request({ case: 'ping', value: {} })).message.case).toBe('pong');
  });

  it('answers a request holding a Timestamp out of range (it used to get no answer at all)', async () => {
    const message = create(ChannelMessageSchema, { channelId: general, createTime: { seconds: 10n ** 15n } });
    socket.sendRaw(toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid: 'far-future', message: { case: 'channelMessage', value: message } })));
    expect(await refusal('far-future')).toMatchObject({ code: Error_Code.BAD_INPUT, message: expect.stringContaining('channel_message holds a value its type does not allow') });
    expect(world.emu.wire.frames('channel_message').at(-1)).toMatchObject({ cid: 'far-future', body: { unreadable: expect.stringContaining('does not allow') } });
    expect((await socket.request({ case: 'ping', value: {} })).message.case).toBe('pong');
  });

  it(`refuses a cid over ${MAX_CID_LENGTH} characters without echoing it, and does not log it`, async () => {
    const huge = 'c'.repeat(200 * 1024);
    const answered = new Promise<number>((resolve) => socket.ws.once('message', (data: Buffer) => resolve(data.length)));
    socket.sendRaw(toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid: huge, message: { case: 'ping', value: {} } })));
    expect(await answered).toBeLessThan(200);
    expect(await refusal('')).toMatchObject({ code: Error_Code.BAD_INPUT, message: `the cid has ${huge.length} characters; the limit is ${MAX_CID_LENGTH}` });
    const logged = world.emu.wire.frames('ping').at(-1)!;
    expect(logged).not.toHaveProperty('cid');
    expect((logged.body as { omitted_bytes: number }).omitted_bytes).toBeGreaterThan(huge.length);
    expect(JSON.stringify(world.emu.wire.entries())).not.toContain('c'.repeat(1000));
    const edge = 'k'.repeat(MAX_CID_LENGTH);
    socket.sendRaw(toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid: edge, message: { case: 'ping', value: {} } })));
    expect((await socket.next((e) => e.cid === edge)).message.case).toBe('pong');
  });

  it('closes the socket with 1009 for a frame over maxFrameBytes, as the platform\'s server does at its read limit; a frame under it is served', async () => {
    socket.close();
    await world.close();
    await open({ maxFrameBytes: 4096 });
    const send = (cid: string, text: string) =>
      toBinary(EnvelopeSchema, create(EnvelopeSchema, { cid, message: { case: 'channelMessageSend', value: { clanId: world.clan!.id, channelId: general, content: JSON.stringify({ t: text }), mode: 2, isPublic: true } } }));
    const fits = send('fits', 'f'.repeat(3900));
    expect(fits.byteLength).toBeLessThanOrEqual(4096);
    socket.sendRaw(fits);
    expect((await socket.next((e) => e.cid === 'fits')).message.case).toBe('channelMessageAck');

    const over = send('over', 'o'.repeat(4100));
    expect(over.byteLength).toBeGreaterThan(4096);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.ws.once('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
    socket.sendRaw(over);
    expect(await closed).toEqual({ code: 1009, reason: `the frame is ${over.byteLength} bytes; the limit is 4096` });
    // Nothing of it was read: no answer, nothing stored, and the log names its size only.
    expect(socket.received.some((e) => e.cid === 'over')).toBe(false);
    expect(world.emu.messages(general).filter((m) => m.sender_id === world.bot.id).map((m) => m.content.t?.length)).toEqual([3900]);
    expect(world.emu.wire.frames('(refused frame)').at(-1)).toMatchObject({ body: { bytes: over.byteLength } });
  });
});

describe("the wire log's byte bound under the production socket", () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  /** What the log really holds, as JSON: the measure its byte bound must keep under. */
  const heldJson = (w: TestWorld): number => Buffer.byteLength(JSON.stringify(w.emu.wire.entries()));

  it('counts every protobuf frame by its real size: 300 frames of 12 KB stay inside 64 KiB; larger ones are kept by size only', async () => {
    const capacity = 64 * 1024;
    world = await createTestWorld({ compat: true, wireLogBytes: capacity });
    const session = await authenticate(world.emu.url, { id: world.bot.id, token: world.bot.token });
    const socket = await ProductionSocket.open(world.emu.url, session.token);
    try {
      const general = world.channels.general!.channel_id;
      const filler = 'x'.repeat(12 * 1024);
      for (let i = 0; i < 300; i += 1) {
        // Not JSON content: refused, but received and logged like any frame.
        const answer = await socket.request({ case: 'channelMessageSend', value: create(ChannelMessageSendSchema, { clanId: world.clan!.id, channelId: general, content: `${i} ${filler}` }) });
        expect(answer.message.case).toBe('error');
      }
      expect(world.emu.wire.heldBytes).toBeLessThanOrEqual(capacity);
      expect(heldJson(world)).toBeLessThanOrEqual(capacity + WIRE_LOG_LIMITS.maxBodyBytes);
      expect(world.emu.wire.frames('channel_message_send').at(-1)?.body).toMatchObject({ content: `299 ${filler}` });
      const big = await socket.request({ case: 'channelMessageSend', value: create(ChannelMessageSendSchema, { clanId: world.clan!.id, channelId: general, content: 'y'.repeat(100 * 1024) }) });
      expect(big.message.case).toBe('error');
      expect(world.emu.wire.frames('channel_message_send').at(-1)?.body).toEqual({ omitted_bytes: expect.any(Number) as number });
      expect((world.emu.wire.frames('channel_message_send').at(-1)?.body as { omitted_bytes: number }).omitted_bytes).toBeGreaterThan(100 * 1024);
    } finally {
      socket.close();
    }
  });

  it('cuts the query of an unauthenticated upgrade: 200 upgrades with 5 KB values stay inside 64 KiB', async () => {
    const capacity = 64 * 1024;
    world = await createTestWorld({ compat: true, wireLogBytes: capacity });
    const base = world.emu.url.replace(/^http/, 'ws');
    const long = (c: string) => c.repeat(5 * 1024);
    for (let i = 0; i < 200; i += 1) {
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${base}/ws?lang=${long('l')}&status=${long('s')}&token=nope&format=${i % 2 === 0 ? 'protobuf' : long('f')}`);
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('error', () => resolve(0));
      });
      expect(status).toBe(i % 2 === 0 ? 401 : 400);
    }
    expect(world.emu.wire.heldBytes).toBeLessThanOrEqual(capacity);
    expect(heldJson(world)).toBeLessThanOrEqual(capacity);
    const last = world.emu.wire.frames('connect').at(-1)!.body as Record<string, string>;
    for (const value of Object.values(last)) expect(value.length).toBeLessThanOrEqual(WIRE_LOG_LIMITS.maxQueryValueChars + 20);
    expect(last.lang).toBe(`${'l'.repeat(WIRE_LOG_LIMITS.maxQueryValueChars)}…(+${5 * 1024 - WIRE_LOG_LIMITS.maxQueryValueChars} chars)`);
  });
});
