/**
 * Frame sizes, both ways, on a logged-in client.
 *
 * Outgoing: every frame the client writes (the outbox, a structure's send, a
 * raw gateway request) is checked against the `max_frame_bytes` of the
 * server's hello (production, which has no hello, against its own
 * `maxFrameBytes`, here the emulator's limit). One over it is refused at once with a ValidationError that
 * names its size and the limit, and nothing behind it waits: before, a 2 MB
 * `outbox.enqueue` made the emulator close the socket (1009) on every
 * reconnect, and nothing settled.
 *
 * Incoming: a frame over `maxInboundFrameBytes` (default 4 MiB) is not read.
 * It is reported on errors$ with its size and the limit, and the client
 * starts a fresh session (a resume would have the server send it again).
 * Before, a 90 MB frame was delivered and a 120 MB one (over ws's own
 * 100 MiB) gave a silent reconnect loop.
 */
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { Events, ProtocolError, ServiceClient, ValidationError, type ChannelMessage, type ChannelMessageSendRequest, type ClanstreamError, type ClientConfigDto, type LifecycleEvent } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { rejection } from '../helpers/outcomes.js';
import { tappedWebSocket } from '../helpers/tapped-websocket.js';
import { HOSTILE_BOT, HOSTILE_CLAN, HostilePlatform, type FakeSocket, type HostilePlatformOptions } from '../support/hostile-platform.js';
import { SESSION_START_OP, writesOf } from '../support/protocol-under-test.js';
import { Tracker, type World } from './support.js';

const t = new Tracker();
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await t.cleanup();
});

/** A send request for the world's welcome channel. */
function sendRequest(w: World, text: string, extra: Partial<ChannelMessageSendRequest> = {}): ChannelMessageSendRequest {
  return { clan_id: w.clanId, channel_id: w.general, mode: 2, is_public: true, content: { t: text }, ...extra };
}

const storedTexts = (w: World) => w.emu.messages(w.general).map((m) => m.content.t);

describe('a frame over the server’s max_frame_bytes', () => {
  it('a 2 MB outbox.enqueue is refused at once with a ValidationError naming its size and the limit; the send behind it goes out, and the socket stays up', async () => {
    const w = await t.world();
    const { client, lifecycle, errors } = await t.connected(w);
    const huge = client.outbox.enqueue('channel_message_send', sendRequest(w, 'x'.repeat(2 * 1024 * 1024)));
    const after = client.outbox.enqueue('channel_message_send', sendRequest(w, 'after the huge one'));

    const refused = await rejection(huge);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).message).toMatch(/^Invalid channel_message_send request: the frame is 2097\d{3} bytes; the server reads frames of up to 262144 bytes, so nothing was sent$/);
    expect((refused as ValidationError).issues[0]?.code).toBe('too_large');
    expect(JSON.stringify(refused)).not.toContain('xxxx');

    const ack = await after;
    expect(storedTexts(w)).toEqual(['after the huge one']);
    expect(ack.message_id).toBe(w.emu.messages(w.general)[0]?.message_id);
    // Nothing over the limit reached the wire, and the socket was never cut.
    expect(writesOf(w.emu, 'channel_message_send')).toHaveLength(1);
    expect(lifecycle.map((e) => e.type)).toEqual(['ready']);
    expect(client.outbox.current).toMatchObject({ queued: 0, inFlight: 0, sent: 1, failed: 1 });
    expect(errors).toEqual([]);
  });

  it('a send through a channel and a raw gateway request are refused the same way, against the limit the hello announced', async () => {
    const w = await t.world({ maxFrameBytes: 4096 });
    const { client } = await t.connected(w);
    const channel = await client.channels.fetch(w.general);
    // Valid content (3000 characters), but with its attachments the frame is over 4096 bytes.
    const attachments = Array.from({ length: 10 }, (_, i) => ({ url: `https://cdn.example/${'a'.repeat(150)}/${i}.png`, filetype: 'image/png' }));
    const viaChannel = await rejection(channel.send('c'.repeat(3000), { attachments }));
    expect(viaChannel).toBeInstanceOf(ValidationError);
    expect((viaChannel as Error).message).toMatch(/^Invalid channel_message_send request: the frame is \d{4} bytes; the server reads frames of up to 4096 bytes/);

    const raw = await rejection(client.gateway.request('channel_message_send', sendRequest(w, 'r'.repeat(5000))));
    expect(raw).toBeInstanceOf(ValidationError);
    expect((raw as Error).message).toMatch(/the frame is 5\d{3} bytes; the server reads frames of up to 4096 bytes/);

    const sent = await channel.send('small enough');
    expect(storedTexts(w)).toEqual(['small enough']);
    expect(sent.content.t).toBe('small enough');
    expect(writesOf(w.emu, 'channel_message_send')).toHaveLength(1);
  });
});

async function platform(options: HostilePlatformOptions): Promise<HostilePlatform> {
  const p = await HostilePlatform.start(options);
  cleanups.push(() => p.close());
  return p;
}

function clientOf(p: HostilePlatform, overrides: Partial<ClientConfigDto> = {}) {
  const client = new ServiceClient({ ...p.config, reconnect: { baseMs: 10, capMs: 50 }, apiRetry: { retries: 2, baseMs: 5, capMs: 20 }, ...overrides });
  const errors: ClanstreamError[] = [];
  const lifecycle: LifecycleEvent[] = [];
  const received: ChannelMessage[] = [];
  client.errors$.subscribe((error) => errors.push(error));
  client.lifecycle$.subscribe((event) => lifecycle.push(event));
  client.stream(Events.ChannelMessage).subscribe((message) => received.push(message));
  cleanups.push(() => client.destroy());
  return { client, errors, lifecycle, received };
}

const CHANNEL = '1860000000000000001';

/** A channel_message push of exactly `bytes` bytes, made as one Buffer (a string of 120 MB would be two copies). */
function hugeEvent(bytes: number, sessionId: string): Buffer {
  const head = Buffer.from(`{"seq":1,"session_id":"${sessionId}","channel_message":{"message_id":"huge","channel_id":"${CHANNEL}","clan_id":"${HOSTILE_CLAN}","sender_id":"1","content":{"t":"`);
  const tail = Buffer.from('"}}}');
  const frame = Buffer.alloc(bytes, 'a');
  head.copy(frame, 0);
  tail.copy(frame, bytes - tail.length);
  return frame;
}

const smallEvent = (sessionId: string) => ({ seq: 1, session_id: sessionId, channel_message: { message_id: 'small', channel_id: CHANNEL, clan_id: HOSTILE_CLAN, sender_id: '1', content: { t: 'small' } } });

/**
 * A gateway that, like a server's resume buffer, pushes `huge` again on every resume (the test pushes it
 * first, once the client is ready); a fresh session after the first pushes a small event instead.
 */
async function gatewayReplaying(huge: (socket: FakeSocket) => void) {
  const handshakes: string[] = [];
  const p: HostilePlatform = await platform({
    gateway: {
      onFrame: (socket, frame, op) => {
        if (op !== 'start' && op !== 'resume') return false;
        handshakes.push(op);
        if (op === 'resume') huge(socket);
        p.answer(socket, frame, op);
        if (op === 'start' && handshakes.length > 1) socket.send(smallEvent(`S${socket.index}`));
        return true;
      },
    },
  });
  return { p, handshakes };
}

describe('an absurd max_frame_bytes in hello', () => {
  it.each([
    ['0', 0, 1024],
    ['a string', 'lots', 262_144],
    ['missing', undefined, 262_144],
  ])('a max_frame_bytes that is %s is a ProtocolError on errors$; the connection becomes ready, and a short send goes out', async (_name, value, used) => {
    const p = await platform({
      gateway: { onOpen: (socket) => socket.send({ hello: { protocol: 1, heartbeat_interval_ms: 60_000, heartbeat_timeout_ms: 180_000, max_frame_bytes: value, server_time_ms: 0 } }) },
    });
    const { client, errors } = clientOf(p);
    await client.login();
    expect(errors.map((e) => [e.constructor, e.message])).toEqual([[ProtocolError, expect.stringMatching(new RegExp(`^max_frame_bytes of hello .*; sending frames of up to ${used} bytes$`))]]);
    const sent = await client.sendMessage(CHANNEL, 'short');
    expect(sent.content.t).toBe('short');
    // 1100 characters: over the 1024-byte floor, well under the protocol's default.
    const longer = client.sendMessage(CHANNEL, 's'.repeat(1100));
    if (used === 1024) expect(await rejection(longer)).toBeInstanceOf(ValidationError);
    else expect((await longer).content.t).toHaveLength(1100);
  });
});

describe('a frame from the server over maxInboundFrameBytes', () => {
  it.each([
    ['90 MB', 90_000_000],
    ['120 MB', 120_000_000],
  ])('a %s event is not read: a ProtocolError names its size and the limit, and one fresh session (never a resume) brings the next events', async (_name, bytes) => {
    let frame: Buffer | undefined = hugeEvent(bytes, 'S0');
    cleanups.push(() => (frame = undefined));
    const { p, handshakes } = await gatewayReplaying((socket) => socket.ws.send(frame!, { binary: false }));
    const { client, errors, lifecycle, received } = clientOf(p);
    await client.login();
    p.sockets[0]!.ws.send(frame, { binary: false });
    await until(() => received.some((m) => m.message_id === 'small') && lifecycle.some((e) => e.type === 'resync'), 'the small event of the fresh session and the resync', 20_000);

    expect(received.map((m) => m.message_id)).toEqual(['small']);
    expect(handshakes).toEqual(['start', 'start']);
    expect(p.sockets).toHaveLength(2);
    expect(errors.map((e) => [e.constructor, e.message])).toEqual([
      [
        ProtocolError,
        `a frame from the server is ${bytes} bytes, over the limit of 4194304 (maxInboundFrameBytes); it was not read, and the connection starts a fresh session, since a resume would send it again`,
      ],
    ]);
    expect(lifecycle.map((e) => e.type)).toEqual(['ready', 'disconnected', 'reconnected', 'resync']);
    expect(lifecycle[1]).toMatchObject({ code: 1009, reason: 'a frame from the server was over maxInboundFrameBytes', willReconnect: true });
    expect(lifecycle[2]).toMatchObject({ resumed: false });
    expect(lifecycle[3]).toEqual({ type: 'resync', reason: 'a frame from the server was over maxInboundFrameBytes' });
    expect(client.status).toBe('ready');
  }, 60_000);

  it('a WebSocket that reads whole messages (as a browser does) is held to the same bound by the client', async () => {
    const tapped = tappedWebSocket();
    const huge = () => tapped.inject(JSON.stringify(smallEvent('S0')).replace('"small"', `"${'b'.repeat(70_000)}"`));
    const { p, handshakes } = await gatewayReplaying(huge);
    const { client, errors, lifecycle, received } = clientOf(p, { WebSocket: tapped.Ctor, maxInboundFrameBytes: 64 * 1024 });
    await client.login();
    huge();
    await until(() => received.length > 0 && lifecycle.some((e) => e.type === 'resync'), 'the small event of the fresh session and the resync');

    expect(received.map((m) => m.message_id)).toEqual(['small']);
    expect(handshakes).toEqual(['start', 'start']);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^a frame from the server is 70\d{3} bytes, over the limit of 65536 \(maxInboundFrameBytes\)/)]);
    expect(lifecycle.map((e) => e.type)).toEqual(['ready', 'disconnected', 'reconnected', 'resync']);
  });

  it('refuses a maxInboundFrameBytes that is not a whole number of bytes, naming the setting', () => {
    for (const value of [0, -1, 1.5, Number.NaN, '4096'] as unknown[]) {
      expect(() => new ServiceClient({ ...HOSTILE_BOT, maxInboundFrameBytes: value as number })).toThrow(/maxInboundFrameBytes: must be a whole number of bytes, at least 1/);
    }
  });
});

describe('against the emulator', () => {
  it('an event over maxInboundFrameBytes is reported; the client starts afresh, resynchronises, and has the message from the history', async () => {
    const w = await t.world();
    const { client, errors, lifecycle, received } = await t.connected(w, { maxInboundFrameBytes: 2048 });
    const first = w.emu.as(w.alice.id).send(w.general, 'first');
    await until(() => received.length === 1, 'the first message');
    const resynced = firstValueFrom(client.lifecycle$.pipe(filter((e) => e.type === 'resync')));
    const big = w.emu.as(w.alice.id).send(w.general, 'b'.repeat(3900));
    expect(await resynced).toEqual({ type: 'resync', reason: 'a frame from the server was over maxInboundFrameBytes' });

    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^a frame from the server is 4\d{3} bytes, over the limit of 2048 \(maxInboundFrameBytes\)/)]);
    expect(w.emu.wire.frames(SESSION_START_OP)).toHaveLength(2);
    expect(w.emu.wire.frames('resume')).toHaveLength(0);
    expect(lifecycle.find((e) => e.type === 'disconnected')).toMatchObject({ code: 1009, willReconnect: true });
    // The resync fetched the channel's history: the message the frame carried is in the cache after all.
    expect(client.channels.get(w.general)?.messages.get(big.message_id)?.content.t).toHaveLength(3900);

    const next = w.emu.as(w.alice.id).send(w.general, 'small again');
    await until(() => received.some((m) => m.message_id === next.message_id), 'the next event on the fresh session');
    expect(received.map((m) => m.message_id)).toEqual([first.message_id, next.message_id]);
  });
});
