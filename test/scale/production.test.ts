/**
 * Scale-out when the gateway's client speaks the platform's production
 * protocol (`protocol: production({ dialect })`) against the emulator's
 * production front end, in the dialects of `clanstream/production`: workers
 * answer every message once through the gateway's production socket, with
 * caches from its snapshot; what production cannot do is refused on the
 * worker as on the gateway; a write whose outcome is unknown stays unknown
 * and is never sent again; a fail-over is a fresh session and a resync, and
 * what users said while no gateway was connected never reaches a worker.
 */
import type { Redis } from 'ioredis';
import type { Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ClosedError, UnsupportedError, type AnyClanstreamError, type ChannelMessage } from '../../src/index.js';
import { production } from '../../src/production/index.js';
import type { DialectName } from '../../src/production/index.js';
import { ScaleGateway, scaleKeys, type WorkerClient } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { startProgram, type Program } from './processes.js';
import { FAST_GATEWAY, LOADED_TEST_TIMEOUT_MS, LOADED_WAIT_MS, ScaleTracker, type ScaleWorld } from './support.js';

const t = new ScaleTracker();
afterEach(() => t.cleanup());

const DIALECTS = ['sdk-2.8.44', 'sdk-2.8.37'] as const satisfies readonly DialectName[];

/** A world on the emulator's production front end, the gateway's client speaking `dialect` (REST unpaced: the emulator needs no pacing). */
async function productionWorld(dialect: DialectName): Promise<ScaleWorld & { bob: { id: string } }> {
  const w = await t.world({ emulator: { compat: true } });
  const bob = w.emu.createUser({ username: 'bob', display_name: 'Bob' });
  w.emu.addClanMember(w.clanId, bob.id);
  return { ...w, bob, config: { ...w.config, protocol: production({ dialect, restIntervalMs: 0 }) } };
}

/** What the bot sent over a socket of the production front end, by op. */
const sentByBot = (w: ScaleWorld, op: string) => w.emu.wire.entries().filter((e) => e.transport === 'ws' && e.userId === w.bot.botId && e.op === op);

/** The bot's sends of `text` the production front end read (production carries the content as JSON text). */
const sendsOf = (w: ScaleWorld, text: string) => sentByBot(w, 'channel_message_send').filter((e) => (JSON.parse(String((e.body as { content?: unknown }).content)) as { t?: string }).t === text);

/** How many times the emulator stored each text in #general. */
const stored = (w: ScaleWorld, text: string) => w.emu.messages(w.general).filter((m) => m.content.t === text).length;

/** Everything the streams report (so nothing is printed as unhandled), in order. */
function collect(...streams: Array<Observable<AnyClanstreamError>>): AnyClanstreamError[] {
  const errors: AnyClanstreamError[] = [];
  for (const stream of streams) stream.subscribe((error) => errors.push(error));
  return errors;
}

/** What a worker's caches said while it answered a message, and whether the answer was acknowledged. */
interface Answering {
  worker: string;
  text: string;
  clan: string | undefined;
  channel: string | undefined;
  channelClan: string | undefined;
  answered: boolean;
}

/** A worker that answers alice's messages with "pong <text>", noting what its caches said while it did. */
function answering(w: ScaleWorld, worker: WorkerClient, seen: Answering[]): void {
  worker.onChannelMessage(async (m: ChannelMessage) => {
    if (m.sender_id !== w.alice.id) return;
    const message = await worker.messageOf(m);
    const noted: Answering = { worker: worker.consumer, text: m.content.t ?? '', clan: worker.clans.get(w.clanId)?.name, channel: message.channel?.name, channelClan: message.channel?.clan?.name, answered: false };
    seen.push(noted);
    await message.reply({ t: `pong ${m.content.t}` });
    noted.answered = true;
  });
}

/** Alice says `text`; resolves once the worker answered it (through the gateway `through` names). */
async function saidAndAnswered(w: ScaleWorld, seen: readonly Answering[], text: string, through: string): Promise<void> {
  w.emu.as(w.alice.id).send(w.general, text);
  await until(() => seen.some((s) => s.text === text && s.answered), `the answer through ${through}`, LOADED_WAIT_MS);
}

/**
 * A worker whose answer to alice's message waits for `release()`, noting the
 * outcome of each attempt (`sent` or the error); `failFirst` fails the first
 * delivery with it, so the event comes again.
 */
function heldReply(w: ScaleWorld, worker: WorkerClient, text: string, failFirst: boolean): { handling: Promise<void>; release: () => void; outcomes: unknown[] } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const handling = new Promise<void>((resolve) => (started = resolve));
  const outcomes: unknown[] = [];
  worker.onChannelMessage(async (m: ChannelMessage) => {
    if (m.sender_id !== w.alice.id) return;
    started();
    await gate;
    const outcome = await worker.replyTo(m, { t: text }).then(() => 'sent', (error: unknown) => error);
    outcomes.push(outcome);
    if (failFirst && outcomes.length === 1 && outcome !== 'sent') throw outcome;
  });
  return { handling, release, outcomes };
}

/** Gateway "a" as a child process speaking `dialect`, holding a lease that lapses only when the test removes it. */
async function firstGateway(w: ScaleWorld, dialect: DialectName): Promise<Program> {
  const { protocol: _, ...plainConfig } = w.config;
  const program = startProgram('gateway-a', 'test/scale/fixtures/gateway-process.ts', { REDIS_PORT: String(w.redis.port), SCALE_CONFIG: JSON.stringify(plainConfig), GATEWAY_ID: 'a', LEASE_MS: '600000', PRODUCTION_DIALECT: dialect });
  t.onCleanup(() => program.kill());
  await program.waitFor('role active', LOADED_WAIT_MS);
  return program;
}

/** Gateway "b", in this process, standing by while "a" holds the lease. */
async function standbyGateway(w: ScaleWorld): Promise<{ gateway: ScaleGateway; errors: AnyClanstreamError[] }> {
  const gateway = new ScaleGateway({ redis: t.client(w), config: w.config, gatewayId: 'b', ...FAST_GATEWAY });
  const errors = collect(gateway.errors$);
  t.onCleanup(() => gateway.close());
  await gateway.start();
  expect(gateway.currentRole).toBe('standby');
  return { gateway, errors };
}

/** Resolves once Redis holds a key matching `pattern` (a marker a gateway sets before it sends a write). */
async function untilKey(redis: Redis, pattern: string): Promise<void> {
  const deadline = Date.now() + LOADED_WAIT_MS;
  while ((await redis.keys(pattern)).length === 0) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for a key ${pattern}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Kills "a" (SIGKILL) and waits until the emulator saw its socket go. */
async function kill(w: ScaleWorld, program: Program): Promise<void> {
  await program.kill();
  await until(() => w.emu.sessions(w.bot.botId).length === 0, "the first gateway's socket gone", LOADED_WAIT_MS);
}

/** Lets the lease lapse: the standby takes over at its next poll. Resolves once its socket is ready (its clans joined). */
async function takeOver(w: ScaleWorld, standby: ScaleGateway): Promise<void> {
  await t.client(w).del(scaleKeys(w.bot.botId).lease);
  await standby.whenActive();
  // Active means it holds the lease; its socket opens, and its clans are joined, only after its login: until then the gap goes on.
  await until(() => standby.client?.status === 'ready', "the standby's socket ready", LOADED_WAIT_MS);
}

describe.skipIf(!runRedisTests).each(DIALECTS)('scale-out with the gateway speaking production, dialect %s', { timeout: LOADED_TEST_TIMEOUT_MS }, (dialect) => {
  it('a gateway and two workers: every message answered exactly once through the gateway, caches from the snapshot', async () => {
    const w = await productionWorld(dialect);
    const gateway = await t.gateway(w);
    expect(gateway.currentRole).toBe('active');
    const seen: Answering[] = [];
    const workers = [await t.worker(w, 'worker-1'), await t.worker(w, 'worker-2')];
    for (const worker of workers) answering(w, worker, seen);
    expect(workers.map((worker) => [worker.clientId, worker.clans.get(w.clanId)?.name, worker.channels.get(w.general)?.name])).toEqual([
      [w.bot.botId, 'Scale Clan', 'general'],
      [w.bot.botId, 'Scale Clan', 'general'],
    ]);
    const texts = Array.from({ length: 20 }, (_, i) => `m${i}`);
    for (const text of texts) w.emu.as(w.alice.id).send(w.general, text);
    await until(() => texts.every((text) => stored(w, `pong ${text}`) === 1), 'every answer', LOADED_WAIT_MS);
    await until(() => workers.reduce((n, worker) => n + worker.stats().acked, 0) >= 2 * texts.length, 'every event acknowledged', LOADED_WAIT_MS);
    expect(texts.map((text) => stored(w, `pong ${text}`))).toEqual(texts.map(() => 1));
    expect(seen.map((s) => s.text).sort()).toEqual([...texts].sort());
    expect(new Set(seen.map((s) => `${s.clan}/${s.channel}/${s.channelClan}`))).toEqual(new Set(['Scale Clan/general/Scale Clan']));
    // The answers went over the gateway's production socket, as replies to the messages they answer.
    const connects = w.emu.wire.entries().filter((e) => e.transport === 'ws' && e.op === 'connect');
    expect(connects.map((e) => (e.body as { format?: string }).format)).toEqual(['protobuf']);
    // sdk-2.8.44 refuses a send to a channel not joined yet ("must join channel"): the gateway joins it and sends that answer once more.
    // How many answers meet the refusal depends on how many were on the wire before the first join: each is sent twice at most.
    const joins = sentByBot(w, 'channel_join');
    const sendsPerAnswer = texts.map((text) => sendsOf(w, `pong ${text}`).length);
    if (dialect === 'sdk-2.8.44') {
      expect(sendsPerAnswer.filter((n) => n !== 1 && n !== 2)).toEqual([]);
      // At least the first answer met the refusal, and no join came without one.
      expect(joins.length).toBeGreaterThanOrEqual(1);
      expect(joins.length).toBeLessThanOrEqual(sendsPerAnswer.filter((n) => n === 2).length);
    } else {
      expect(joins).toHaveLength(0);
      expect(sendsPerAnswer).toEqual(texts.map(() => 1));
    }
    expect(joins.map((e) => (e.body as { channel_id?: string }).channel_id)).toEqual(joins.map(() => w.general));
    expect(sentByBot(w, 'channel_message_send')).toHaveLength(sendsPerAnswer.reduce((sum, n) => sum + n, 0));
    const byText = new Map(w.emu.messages(w.general).map((m) => [m.content.t, m]));
    for (const text of texts) expect(byText.get(`pong ${text}`)?.references?.[0]?.message_ref_id).toBe(byText.get(text)?.message_id);
  });

  it('members come to the worker as the gateway lists them; what the platform refuses or production lacks rejects on the worker with the UnsupportedError the gateway client gives', async () => {
    const w = await productionWorld(dialect);
    const gateway = await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    const client = gateway.client!;
    // The member list is production's ListClanUsers: the worker's answer is the gateway client's.
    const listed = (bot: { clans: typeof worker.clans }) => [...bot.clans.get(w.clanId)!.users.values()].map((m) => `${m.id} ${m.username}`).sort();
    await client.clans.get(w.clanId)!.loadMembers();
    await worker.clans.get(w.clanId)!.loadMembers();
    expect(listed(worker)).toEqual(listed(client));
    expect(listed(worker)).toEqual(expect.arrayContaining([`${w.bob.id} bob`, `${w.alice.id} alice`]));
    expect((await worker.clans.get(w.clanId)!.users.fetch(w.bob.id)).id).toBe(w.bob.id);
    // The platform may refuse the member list to bots: the refusal is the same typed error on both sides.
    w.emu.refuseBotCalls(['ListClanUsers'], 501);
    const attempts: Array<[string, (bot: { clans: typeof worker.clans; users: typeof worker.users }) => Promise<unknown>]> = [
      ['the member list, refused by the platform', (bot) => bot.clans.get(w.clanId)!.loadMembers()],
      ['a user never seen (production has no lookup by id)', (bot) => bot.users.fetch('987654321')],
    ];
    for (const [what, attempt] of attempts) {
      const onGateway = await attempt(client).then(() => undefined, (error: unknown) => error);
      const onWorker = await attempt(worker).then(() => undefined, (error: unknown) => error);
      expect(onGateway, what).toBeInstanceOf(UnsupportedError);
      expect(onWorker, what).toBeInstanceOf(UnsupportedError);
      const { name, kind, operation, protocol, message } = onGateway as UnsupportedError;
      expect(onWorker, what).toMatchObject({ name, kind, operation, protocol, message });
      expect(protocol).toBe(`production:${dialect}`);
    }
  });

  it('a reply sent and lost with the socket settles unknown on the worker; its redelivered event does not send it again', async () => {
    const w = await productionWorld(dialect);
    const gateway = await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    const errors = collect(gateway.errors$, worker.errors$);
    // The first delivery fails, so the event comes again and runs the same reply under the same key.
    const { handling, release, outcomes: failures } = heldReply(w, worker, 'lost pong', true);
    w.emu.as(w.alice.id).send(w.general, 'ping');
    await handling;
    w.emu.pause();
    release();
    await until(() => gateway.client?.outbox.current.inFlight === 1, 'the reply on the wire', LOADED_WAIT_MS);
    w.emu.dropConnections();
    await until(() => failures.length === 1, 'the reply to fail', LOADED_WAIT_MS);
    w.emu.resume();
    await until(() => failures.length === 2, 'the event delivered again and its reply answered', LOADED_WAIT_MS);
    await until(() => worker.stats().acked >= 1, 'the redelivered event acknowledged', LOADED_WAIT_MS);
    for (const failure of failures) {
      expect(failure).toBeInstanceOf(ClosedError);
      expect(failure).toMatchObject({ kind: 'closed', operation: 'channel_message_send', outcome: 'unknown' });
    }
    expect(worker.stats()).toMatchObject({ redelivered: 1 });
    // The one attempt went out on the socket that dropped (the paused emulator never read it); the repetition was answered without the outbox.
    expect(gateway.client!.outbox.current).toMatchObject({ queued: 0, inFlight: 0, failed: 1 });
    expect(gateway.stats().commands).toMatchObject({ failed: 2 });
    expect(sendsOf(w, 'lost pong')).toHaveLength(0);
    expect(stored(w, 'lost pong')).toBe(0);
    expect(errors.filter((e) => e.kind === 'listener')).toHaveLength(1);
  });

  it('fail-over: the standby logs in to a fresh session and resyncs (clans and "0" joined); what users said while no gateway was connected never reaches a worker', async () => {
    const w = await productionWorld(dialect);
    const keys = scaleKeys(w.bot.botId);
    const first = await firstGateway(w, dialect);
    const { gateway: standby, errors } = await standbyGateway(w);
    const worker = await t.worker(w, 'worker-1');
    const seen: Answering[] = [];
    answering(w, worker, seen);
    const alice = w.emu.as(w.alice.id);
    await saidAndAnswered(w, seen, 'before', 'the first gateway');
    const [firstSession] = await t.client(w).hmget(keys.resume, 'sid');
    const joinsBefore = sentByBot(w, 'clan_join').length;

    await kill(w, first);
    // No gateway is connected: production keeps nothing for a bot that is away.
    alice.send(w.general, 'gap 1');
    alice.send(w.general, 'gap 2');
    await takeOver(w, standby);
    await saidAndAnswered(w, seen, 'after', 'the standby');

    // A fresh session, announced as a resync, with every clan and the DM space joined again.
    const session = standby.client!.gateway.currentSessionId;
    expect(session).toBeTruthy();
    expect(session).not.toBe(firstSession);
    expect((await t.client(w).hmget(keys.resume, 'sid'))[0]).toBe(session);
    expect(errors.map((e) => e.message).filter((m) => m.includes('the platform session could not be resumed'))).toHaveLength(1);
    expect(sentByBot(w, 'clan_join').slice(joinsBefore).map((e) => (e.body as { clan_id?: string }).clan_id ?? '0')).toEqual(expect.arrayContaining([w.clanId, '0']));
    // The worker went on, each message answered once, with the caches of the standby's snapshot.
    expect(seen.map((s) => [s.text, s.clan, s.channel, s.channelClan])).toEqual([
      ['before', 'Scale Clan', 'general', 'Scale Clan'],
      ['after', 'Scale Clan', 'general', 'Scale Clan'],
    ]);
    expect([stored(w, 'pong before'), stored(w, 'pong after')]).toEqual([1, 1]);
    // The gap: stored by the platform, never published, never handled or answered, absent from the worker's caches.
    expect(stored(w, 'gap 1') + stored(w, 'gap 2')).toBe(2);
    const published = (await t.client(w).xrange(keys.events, '-', '+')).map(([, fields]) => JSON.parse(fields[fields.indexOf('data') + 1]!) as ChannelMessage);
    expect(published.filter((m) => m.sender_id === w.alice.id).map((m) => m.content.t)).toEqual(['before', 'after']);
    expect(stored(w, 'pong gap 1') + stored(w, 'pong gap 2')).toBe(0);
    expect([...(worker.channels.get(w.general)?.messages.values() ?? [])].map((m) => m.content.t).filter((text) => text?.startsWith('gap'))).toEqual([]);
  });

  it('close() hands over to the standby at once, as a fresh session: what users said before its socket was ready is lost', async () => {
    const w = await productionWorld(dialect);
    const first = await t.gateway(w, { gatewayId: 'a' });
    const { gateway: standby, errors } = await standbyGateway(w);
    const worker = await t.worker(w, 'worker-1');
    const seen: Answering[] = [];
    answering(w, worker, seen);
    const alice = w.emu.as(w.alice.id);
    await saidAndAnswered(w, seen, 'to a', 'the first gateway');
    const firstSession = first.client!.gateway.currentSessionId;
    await first.close();
    // Sent in the same turn as close() resolved: the standby has not even polled for the lease yet.
    alice.send(w.general, 'handing over');
    await standby.whenActive();
    await until(() => standby.client?.status === 'ready', "the standby's socket ready", LOADED_WAIT_MS);
    await saidAndAnswered(w, seen, 'to b', 'the standby');
    expect(standby.client!.gateway.currentSessionId).not.toBe(firstSession);
    expect(errors.map((e) => e.message).filter((m) => m.includes('the platform session could not be resumed'))).toHaveLength(1);
    expect(seen.map((s) => s.text)).toEqual(['to a', 'to b']);
    expect([stored(w, 'pong to a'), stored(w, 'handing over'), stored(w, 'pong handing over'), stored(w, 'pong to b')]).toEqual([1, 1, 0, 1]);
  });

  it('a gateway killed after it took a reply to send: the standby does not send it again, and the worker learns the outcome is unknown', async () => {
    const w = await productionWorld(dialect);
    const keys = scaleKeys(w.bot.botId);
    const first = await firstGateway(w, dialect);
    const { gateway: standby } = await standbyGateway(w);
    const worker = await t.worker(w, 'worker-1');
    const workerErrors = collect(worker.errors$);
    const { handling, release, outcomes } = heldReply(w, worker, 'held pong', false);
    w.emu.as(w.alice.id).send(w.general, 'ping');
    await handling;
    // The platform takes the frame and never answers it: the reply is on the wire when the gateway dies.
    w.emu.pause();
    release();
    const redis = t.client(w);
    await untilKey(redis, `${keys.done('*')}:started`);
    await kill(w, first);
    w.emu.resume();
    await takeOver(w, standby);
    await until(() => outcomes.length === 1, 'the answer to the reply', LOADED_WAIT_MS);
    expect(outcomes[0]).toBeInstanceOf(ClosedError);
    expect(outcomes[0]).toMatchObject({ kind: 'closed', operation: 'channel_message_send', outcome: 'unknown' });
    expect((outcomes[0] as ClosedError).message).toContain('the gateway that sent it stopped');
    expect(standby.client!.outbox.current).toMatchObject({ queued: 0, inFlight: 0, sent: 0 });
    expect(standby.stats().commands).toMatchObject({ executed: 0, failed: 1 });
    expect(sendsOf(w, 'held pong')).toHaveLength(0);
    expect(stored(w, 'held pong')).toBe(0);
    expect(workerErrors).toEqual([]);
  });
});
