/**
 * Era B differential: the same socket operations written by the platform's
 * web client (mezon-js 2.14.91's DefaultSocket over mezon-js-protobuf
 * 1.10.20's WebSocketAdapterPb, its own encode path) and by clanstream's
 * production codec in dialect sdk-2.8.37 give the same Envelope. Both frames
 * are decoded by the same codec, the web client's, and compared field by
 * field; only the cid differs (each side numbers its own requests).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChannelStreamMode } from '../../src/index.js';
import { codecFor } from '../production/support/codec.js';
import { compatDir } from './support/installed.js';
import { describeWithWebClient } from './support/web-client.js';
import { loadWebCodec, openWebAdapter, StandInWebSocket, type WebSocketAdapter } from './support/web-codec.js';

const CLAN = '1840000000000000100';
const CHANNEL = '1840000000000000200';
const MESSAGE = '1840000000000000300';
const ALICE = '1840000000000000002';
const MODE = ChannelStreamMode.STREAM_MODE_CHANNEL;
const base = { clan_id: CLAN, channel_id: CHANNEL, mode: MODE, is_public: true };
const mentions = [{ user_id: ALICE, s: 3, e: 9 }];

/** The web client's socket methods this test drives (positional, as mezon-js declares them). */
interface WebSocketMethods {
  joinClanChat(clanId: string): Promise<unknown>;
  joinChat(clanId: string, channelId: string, channelType: number, isPublic: boolean): Promise<unknown>;
  writeChatMessage(clanId: string, channelId: string, mode: number, isPublic: boolean, content: unknown, mentions?: unknown[]): Promise<unknown>;
  updateChatMessage(clanId: string, channelId: string, mode: number, isPublic: boolean, messageId: string, content: unknown, mentions?: unknown[]): Promise<unknown>;
  removeChatMessage(clanId: string, channelId: string, mode: number, isPublic: boolean, messageId: string): Promise<unknown>;
  writeMessageReaction(id: string, clanId: string, channelId: string, mode: number, isPublic: boolean, messageId: string, emojiId: string, emoji: string, count: number, messageSenderId: string, actionDelete: boolean): Promise<unknown>;
  send(message: Record<string, unknown>): Promise<unknown>;
}

/** Each operation: how the web client writes it, and the op and payload clanstream writes for it. */
const OPERATIONS: ReadonlyArray<{ name: string; web: (s: WebSocketMethods) => Promise<unknown>; op: string; payload: unknown }> = [
  { name: 'join a clan', web: (s) => s.joinClanChat(CLAN), op: 'clan_join', payload: { clan_id: CLAN } },
  { name: 'join the DM space "0"', web: (s) => s.joinClanChat('0'), op: 'clan_join', payload: { clan_id: '0' } },
  { name: 'join a channel', web: (s) => s.joinChat(CLAN, CHANNEL, 1, true), op: 'channel_join', payload: { clan_id: CLAN, channel_id: CHANNEL, channel_type: 1, is_public: true } },
  {
    name: 'send a message with content and mentions',
    web: (s) => s.writeChatMessage(CLAN, CHANNEL, MODE, true, { t: 'hi @alice' }, mentions),
    op: 'channel_message_send',
    payload: { ...base, content: { t: 'hi @alice' }, mentions },
  },
  {
    name: 'update a message',
    web: (s) => s.updateChatMessage(CLAN, CHANNEL, MODE, true, MESSAGE, { t: 'edited @alice' }, mentions),
    op: 'channel_message_update',
    payload: { ...base, message_id: MESSAGE, content: { t: 'edited @alice' }, mentions },
  },
  { name: 'remove a message', web: (s) => s.removeChatMessage(CLAN, CHANNEL, MODE, true, MESSAGE), op: 'channel_message_remove', payload: { ...base, message_id: MESSAGE } },
  {
    name: 'react to a message',
    web: (s) => s.writeMessageReaction('0', CLAN, CHANNEL, MODE, true, MESSAGE, '7', 'ok', 1, ALICE, false),
    op: 'message_reaction',
    payload: { ...base, message_id: MESSAGE, emoji_id: '7', emoji: 'ok', message_sender_id: ALICE },
  },
  {
    name: 'take a reaction back',
    web: (s) => s.writeMessageReaction('0', CLAN, CHANNEL, MODE, true, MESSAGE, '7', 'ok', 1, ALICE, true),
    op: 'message_reaction',
    payload: { ...base, message_id: MESSAGE, emoji_id: '7', emoji: 'ok', message_sender_id: ALICE, action_delete: true },
  },
  // The web client's heartbeat sends this envelope through the same send().
  { name: 'ping', web: (s) => s.send({ ping: {} }), op: 'ping', payload: {} },
];

describeWithWebClient("era B: the web client's socket and clanstream's sdk-2.8.37 wire write the same Envelopes", () => {
  const oracle = loadWebCodec();
  let web: WebSocketMethods;
  let adapter: { socket: StandInWebSocket };
  let original: unknown;

  beforeAll(() => {
    // The adapter asks the global WebSocket whether it is open on every send.
    const globals = globalThis as { WebSocket?: unknown };
    original = globals.WebSocket;
    globals.WebSocket = StandInWebSocket;
    const opened = openWebAdapter();
    adapter = opened;
    const mezon = createRequire(join(compatDir, 'package.json'))('mezon-js') as {
      DefaultSocket: new (host: string, port: string, useSSL: boolean, verbose: boolean, adapter: WebSocketAdapter) => WebSocketMethods;
    };
    web = new mezon.DefaultSocket('127.0.0.1', '7350', false, false, opened.adapter);
  });
  afterAll(() => {
    (globalThis as { WebSocket?: unknown }).WebSocket = original;
  });

  /** What the web client wrote for one operation, decoded, cid aside. Nothing answers, so its promise is left to time out unheard. */
  const writtenByWeb = (write: (s: WebSocketMethods) => Promise<unknown>): Record<string, unknown> => {
    const before = adapter.socket.sent.length;
    write(web).catch(() => undefined);
    const frames = adapter.socket.sent.slice(before);
    expect(frames).toHaveLength(1);
    return withoutCid(oracle.decodeEnvelope(frames[0]!));
  };

  const writtenByClanstream = (op: string, payload: unknown): Record<string, unknown> => {
    const frames = codecFor('sdk-2.8.37').codec.encode('1', op, payload);
    const list = Array.isArray(frames) ? frames : [frames];
    expect(list).toHaveLength(1);
    return withoutCid(oracle.decodeEnvelope(list[0] as Uint8Array));
  };

  it.each(OPERATIONS.map((o) => [o.name, o] as const))('%s', (_, operation) => {
    const ours = writtenByClanstream(operation.op, operation.payload);
    const theirs = writtenByWeb(operation.web);
    expect(ours).toEqual(theirs);
  });

  it('the frames compared carry what each operation says (the comparison is not of two empty envelopes)', () => {
    const sent = writtenByClanstream('channel_message_send', { ...base, content: { t: 'hi @alice' }, mentions });
    expect(sent.channel_message_send).toMatchObject({ clan_id: CLAN, channel_id: CHANNEL, mode: MODE, is_public: true, content: '{"t":"hi @alice"}', mentions: [expect.objectContaining({ user_id: ALICE, s: 3, e: 9 })] });
    expect(writtenByClanstream('message_reaction', { ...base, message_id: MESSAGE, emoji_id: '7', emoji: 'ok', message_sender_id: ALICE, action_delete: true }).message_reaction_event).toMatchObject({ message_id: MESSAGE, emoji_id: '7', action: true, count: 1 });
  });
});

function withoutCid(envelope: Record<string, unknown>): Record<string, unknown> {
  const { cid, ...rest } = envelope;
  expect(cid).toEqual(expect.any(String));
  return rest;
}
