/**
 * The protocol seam end to end: a client built with a toy protocol object
 * (test/protocol/toy-protocol.ts: binary frames, greeted on open, no
 * resume, no idempotency keys, no socket token move, no lookups) against the
 * toy's raw `ws` gateway on 127.0.0.1. Everything above the wire — caches,
 * listeners, the outbox, structures — is the client's own.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  ClosedError,
  ProtocolError,
  ServiceClient,
  UnsupportedError,
  ValidationError,
  type ClanstreamError,
  type ChannelMessage,
  type DebugRecord,
  type LifecycleEvent,
} from '../../src/index.js';
import { NO_RESUME_REASON } from '../../src/gateway/connection.js';
import { until } from '../helpers/client.js';
import { toyProtocol, ToyWorld } from './toy-protocol.js';
import { ToyServer } from './toy-server.js';

/** Generous: the machine is shared, and nothing here asserts how long anything took. */
const WAIT_MS = 20_000;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A prover that records each proof request and refuses it (400: the wallet gives up at once, and login goes on). */
async function refusingProver(): Promise<{ url: string; bodies: Array<Record<string, unknown>> }> {
  const bodies: Array<Record<string, unknown>> = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text || '{}') as Record<string, unknown>);
      response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'bad_request', message: 'no proofs here' } }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies };
}

/** A logged-in client of the toy protocol (its greeting naming `maxFrameBytes`, when given), with what it said recorded. */
async function toyClient(maxFrameBytes?: number) {
  const server = await ToyServer.start();
  cleanups.push(() => server.close());
  const world = new ToyWorld(() => server.url);
  const prover = await refusingProver();
  const client = new ServiceClient({
    botId: '42',
    token: 'toy-api-key',
    protocol: toyProtocol(world, prover.url, maxFrameBytes),
    reconnect: { baseMs: 100, capMs: 200 },
    random: () => 0.5,
    unhandledErrors: 'silent',
  });
  cleanups.push(() => client.destroy());
  const lifecycle: LifecycleEvent[] = [];
  const errors: ClanstreamError[] = [];
  const debug: DebugRecord[] = [];
  client.lifecycle$.subscribe((event) => lifecycle.push(event));
  client.errors$.subscribe((error) => errors.push(error));
  client.debug$.subscribe((record) => debug.push(record));
  await client.login();
  return { client, server, world, prover, lifecycle, errors, debug };
}

const count = (lifecycle: LifecycleEvent[], type: LifecycleEvent['type']) => lifecycle.filter((event) => event.type === type).length;

describe('a client speaking another protocol through the seam', () => {
  it('logs in: the toy login answer and claims read by its session format, the caches synced through its API, the socket usable on open with the clans and the DM space joined', async () => {
    const { client, server, world, prover, lifecycle, errors } = await toyClient();
    const session = client.sessionManager.getSession()!;
    // The toy answers {access, refresh, user: 42, gateway}; its tokens carry sub, name and v.
    expect(client.clientId).toBe('42');
    expect(session).toMatchObject({ user_id: '42', username: 'toybot', vars: { tier: 'gold' }, ws_url: server.url });
    // Its gateway URL, token included; no hello, no start: the joins (K1 and the DM space "0") are the first frames.
    expect(server.urls).toEqual([`/toy?key=${encodeURIComponent(session.token)}`]);
    expect(server.requests.slice(0, 2).map((r) => `${r.op} ${String(r.body.clan_id)}`).sort()).toEqual(['clan_join 0', 'clan_join K1']);
    expect(lifecycle[0]).toMatchObject({ type: 'ready', userId: '42' });
    // The sync used the toy API, and skipped the bot's own profile (the toy cannot look a user up).
    expect(world.calls).toEqual(['authenticate', 'listClans', 'listClanChannels', 'listDmChannels']);
    expect(client.clans.get('K1')?.name).toBe('Toy clan');
    expect(client.channels.get('C1')?.name).toBe('general');
    // The wallet asked the protocol's prover with the protocol's client_type.
    await until(() => prover.bodies.length > 0, 'the proof request', WAIT_MS);
    expect(prover.bodies[0]).toMatchObject({ user_id: '42', client_type: 'toy' });
    expect(errors).toEqual([]);
  });

  it('delivers events through the same caches and listeners; a push with no event is dropped quietly as a debug record', async () => {
    const { client, server, errors, debug } = await toyClient();
    const seen: Array<{ message: ChannelMessage; cached: boolean }> = [];
    client.onChannelMessage((message) => {
      seen.push({ message, cached: client.channels.get('C1')?.messages.get(message.message_id) !== undefined });
    });
    server.push('presence_update', { user_id: '7', online: true });
    server.push('channel_message', { id: 'E1', message_id: 'E1', channel_id: 'C1', clan_id: 'K1', sender_id: '7', username: 'seven', content: '{"t":"hi from seven"}', code: 0, create_time_seconds: 1 });
    await until(() => seen.length === 1, 'the message', WAIT_MS);
    // Decoded by the toy's codec (content was JSON text), applied to the caches before the listener ran.
    expect(seen[0]).toMatchObject({ message: { message_id: 'E1', content: { t: 'hi from seven' }, mentions: [] }, cached: true });
    expect(client.users.get('7')?.username).toBe('seven');
    expect(debug.filter((r) => r.type === 'frame_ignored').map((r) => r.message)).toEqual(['ignored a toy push "presence_update" the client has no event for']);
    expect(errors).toEqual([]);
  });

  it('sends a write through the outbox and the toy codec (no idempotency key on the wire), and settles it with the acknowledgement', async () => {
    const { client, server, errors } = await toyClient();
    const sent = await client.channels.get('C1')!.send({ t: 'hello toy' });
    expect(sent).toMatchObject({ message_id: 'M1', content: { t: 'hello toy' } });
    const [request] = server.sent('channel_message_send');
    expect(request?.body).toMatchObject({ clan_id: 'K1', channel_id: 'C1', content: { t: 'hello toy' } });
    expect(request?.body).not.toHaveProperty('idempotency_key');
    expect(errors).toEqual([]);
  });

  it('a dropped socket: the next one is a fresh session with the clans joined again, then resync; a write lost in the drop settles unknown and is never resent, one queued while down is sent once', async () => {
    const { client, server, world, lifecycle } = await toyClient();
    const channel = client.channels.get('C1')!;
    server.holdAcks = true;
    const lost = channel.send({ t: 'lost in the drop' }).then(
      () => 'acknowledged',
      (error: unknown) => error,
    );
    await until(() => server.sent('channel_message_send').length === 1, 'the write to reach the server', WAIT_MS);
    const syncs = world.calls.filter((c) => c === 'listClans').length;
    server.drop();
    await until(() => count(lifecycle, 'disconnected') === 1, 'the drop', WAIT_MS);
    // Sent while the socket is down: it waits in the outbox.
    server.holdAcks = false;
    const queued = channel.send({ t: 'queued while down' });

    const outcome = await lost;
    expect(outcome).toBeInstanceOf(ClosedError);
    expect(outcome).toMatchObject({ operation: 'channel_message_send', outcome: 'unknown' });
    await expect(queued).resolves.toMatchObject({ content: { t: 'queued while down' } });
    await until(() => count(lifecycle, 'resync') === 1, 'resync', WAIT_MS);

    expect(lifecycle.filter((e) => e.type !== 'ready').map((e) => e.type)).toEqual(['disconnected', 'reconnected', 'resync']);
    expect(lifecycle.find((e) => e.type === 'reconnected')).toMatchObject({ resumed: false, replayed: 0 });
    expect(lifecycle.find((e) => e.type === 'resync')).toEqual({ type: 'resync', reason: NO_RESUME_REASON });
    // Two sockets, two sessions; the second joined K1 and the DM space again.
    const [first, second] = lifecycle.filter((e) => e.type === 'ready' || e.type === 'reconnected') as Array<{ sessionId: string }>;
    expect(first!.sessionId).not.toBe(second!.sessionId);
    expect(server.requests.filter((r) => r.socket === 1 && r.op === 'clan_join').map((r) => r.body.clan_id).sort()).toEqual(['0', 'K1']);
    // The resync fetched the state again through the toy API.
    expect(world.calls.filter((c) => c === 'listClans').length).toBeGreaterThan(syncs);
    // Each write reached the server once: the lost one was not resent.
    expect(server.sent('channel_message_send').map((r) => `${r.socket} ${(r.body.content as { t: string }).t}`)).toEqual(['0 lost in the drop', '1 queued while down']);
  });

  it('renews the token over REST without moving the socket: no token_refresh is sent, and the next socket carries the new token', async () => {
    const { client, server, world, lifecycle, errors } = await toyClient();
    const before = client.sessionManager.getSession()!.token;
    const renewed = await client.sessionManager.refresh();
    expect(renewed.token).not.toBe(before);
    expect(world.calls).toContain('refreshSession');
    server.drop();
    await until(() => count(lifecycle, 'reconnected') === 1, 'the reconnect', WAIT_MS);
    expect(server.urls).toEqual([`/toy?key=${encodeURIComponent(before)}`, `/toy?key=${encodeURIComponent(renewed.token)}`]);
    expect(server.sent('token_refresh')).toEqual([]);
    expect(errors.filter((e) => e instanceof UnsupportedError)).toEqual([]);
  });

  it("rejects what the protocol cannot do with an UnsupportedError naming the operation, before anything is sent; answers from the caches and what it learned; finds a clan in the clan list", async () => {
    const { client, server, world } = await toyClient();
    const clan = client.clans.get('K1')!;
    const calls = world.calls.length;

    await expect(client.users.fetch('U-unknown')).rejects.toMatchObject({ kind: 'unsupported', operation: 'getUser', protocol: 'toy' });
    await expect(clan.loadMembers()).rejects.toBeInstanceOf(UnsupportedError);
    await expect(clan.users.fetch('7')).rejects.toMatchObject({ operation: 'getClanMember' });
    await expect(client.channels.get('C1')!.messages.fetch('M-unknown')).rejects.toMatchObject({ operation: 'getMessage' });
    // An op the toy wire has no frame for: refused by its codec, nothing written.
    const frames = server.requests.length;
    await expect(client.gateway.request('clan_leave', { clan_id: 'K1' })).rejects.toMatchObject({ kind: 'unsupported', operation: 'clan_leave' });
    expect(server.requests.length).toBe(frames);
    // None of the ruled-out calls reached the toy API.
    expect(world.calls.slice(calls)).toEqual([]);

    // What was learned answers: a sender seen in a message.
    server.push('channel_message', { id: 'E2', message_id: 'E2', channel_id: 'C1', clan_id: 'K1', sender_id: '7', username: 'seven', content: '{"t":"hey"}', code: 0 });
    await until(() => client.users.get('7') !== undefined, 'the sender to be learned', WAIT_MS);
    await expect(client.users.fetch('7')).resolves.toMatchObject({ id: '7', username: 'seven' });

    // A clan by id comes from the clan list, never from a lookup the toy cannot make.
    world.clans.push({ clan_id: 'K2', clan_name: 'Second', welcome_channel_id: '', creator_id: '42' });
    await expect(client.clans.fetch('K2')).resolves.toMatchObject({ id: 'K2', name: 'Second' });
    await expect(client.clans.fetch('K9')).rejects.toBeInstanceOf(ApiError);
    expect(world.calls.slice(calls)).toEqual(['listClans', 'listClans']);
  });
});

describe('a frame limit named by an on-open greeting (no hello names one)', () => {
  it('a write over it is refused before it is sent, in the words of a hello\'s limit; one under it goes out', async () => {
    const { client, server, errors } = await toyClient(2048);
    const channel = client.channels.get('C1')!;
    const refused = await channel.send({ t: 'x'.repeat(3000) }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).message).toMatch(/^Invalid channel_message_send request: the frame is 3\d{3} bytes; the server reads frames of up to 2048 bytes, so nothing was sent$/);
    expect(server.sent('channel_message_send')).toEqual([]);
    await channel.send({ t: 'short' });
    expect(server.sent('channel_message_send')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('an absurd one is a ProtocolError on errors$, and the floor of a hello\'s limit is used', async () => {
    const { client, server, errors } = await toyClient(10);
    expect(errors.map((e) => [e.constructor, e.message])).toEqual([[ProtocolError, 'max_frame_bytes of hello of 10 is below 1024 bytes; sending frames of up to 1024 bytes']]);
    await client.channels.get('C1')!.send({ t: 'short' });
    expect(server.sent('channel_message_send')).toHaveLength(1);
  });
});

describe('a protocol\'s settings', () => {
  it('its defaults apply where the config sets nothing, and the config wins where it does', async () => {
    const { resolveConfig } = await import('../../src/client/config.js');
    const protocol = toyProtocol(new ToyWorld(() => 'ws://unused'), 'http://127.0.0.1:9');
    const defaults = resolveConfig({ botId: '42', token: 'k', protocol });
    expect(defaults).toMatchObject({ host: '127.0.0.1', port: '9', useSSL: false, zkApiUrl: 'http://127.0.0.1:9', proverClientType: 'toy', restIntervalMs: 0 });
    expect(resolveConfig({ botId: '42', token: 'k', protocol, host: 'chat.example', zkApiUrl: 'https://zk.example' })).toMatchObject({ host: 'chat.example', zkApiUrl: 'https://zk.example' });
    // clanstream's own, by name or by default.
    expect(resolveConfig({ botId: '42', token: 'k', protocol: 'clanstream' }).protocol.name).toBe('clanstream');
    expect(resolveConfig({ botId: '42', token: 'k' })).toMatchObject({ host: 'gateway.clanstream.chat', proverClientType: 'bot', restIntervalMs: 0 });
  });

  it('a protocol object missing what the seam needs is a ValidationError naming each part', async () => {
    const { resolveConfig } = await import('../../src/client/config.js');
    const broken = { name: 'half', wire: { greeting: { kind: 'on-open', heartbeatIntervalMs: 0 }, open: () => undefined }, can: { resume: false } };
    expect(() => resolveConfig({ botId: '42', token: 'k', protocol: broken as never })).toThrow(
      expect.objectContaining({
        kind: 'validation',
        issues: expect.arrayContaining([
          expect.objectContaining({ path: 'protocol.createApi' }),
          expect.objectContaining({ path: 'protocol.wire.greeting' }),
          expect.objectContaining({ path: 'protocol.session' }),
          expect.objectContaining({ path: 'protocol.can.idempotentWrites' }),
        ]) as unknown,
      }),
    );
  });
});
