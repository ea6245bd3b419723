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
import type { Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ClosedError, UnsupportedError, type AnyClanstreamError, type ChannelMessage } from '../../src/index.js';
import { production } from '../../src/production/index.js';
import type { DialectName } from '../../src/production/index.js';
import type { WorkerClient } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { LOADED_TEST_TIMEOUT_MS, LOADED_WAIT_MS, ScaleTracker, type ScaleWorld } from './support.js';

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

/** A worker that answers alice's messages with "pong <text>", noting what its caches said while it did. */
function answering(w: ScaleWorld, worker: WorkerClient, seen: Array<{ worker: string; text: string; clan: string | undefined; channel: string | undefined; channelClan: string | undefined }>): void {
  worker.onChannelMessage(async (m: ChannelMessage) => {
    if (m.sender_id !== w.alice.id) return;
    const message = await worker.messageOf(m);
    seen.push({ worker: worker.consumer, text: m.content.t ?? '', clan: worker.clans.get(w.clanId)?.name, channel: message.channel?.name, channelClan: message.channel?.clan?.name });
    await message.reply({ t: `pong ${m.content.t}` });
  });
}

describe.skipIf(!runRedisTests).each(DIALECTS)('scale-out with the gateway speaking production, dialect %s', { timeout: LOADED_TEST_TIMEOUT_MS }, (dialect) => {
  it('a gateway and two workers: every message answered exactly once through the gateway, caches from the snapshot', async () => {
    const w = await productionWorld(dialect);
    const gateway = await t.gateway(w);
    expect(gateway.currentRole).toBe('active');
    const seen: Parameters<typeof answering>[2] = [];
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
    // sdk-2.8.44 refuses a send to a channel not joined yet ("must join channel"): the gateway joins it once and sends that answer again.
    const mustJoin = dialect === 'sdk-2.8.44' ? 1 : 0;
    expect(sentByBot(w, 'channel_join')).toHaveLength(mustJoin);
    expect(sentByBot(w, 'channel_message_send')).toHaveLength(texts.length + mustJoin);
    expect(texts.filter((text) => sendsOf(w, `pong ${text}`).length === 0)).toEqual([]);
    const byText = new Map(w.emu.messages(w.general).map((m) => [m.content.t, m]));
    for (const text of texts) expect(byText.get(`pong ${text}`)?.references?.[0]?.message_ref_id).toBe(byText.get(text)?.message_id);
  });

  it('what production cannot do rejects on the worker with the UnsupportedError the gateway client gives', async () => {
    const w = await productionWorld(dialect);
    const gateway = await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    const client = gateway.client!;
    const attempts: Array<[string, (bot: { clans: typeof worker.clans; users: typeof worker.users }) => Promise<unknown>]> = [
      ['a member by id', (bot) => bot.clans.get(w.clanId)!.users.fetch(w.bob.id)],
      ['the member list', (bot) => bot.clans.get(w.clanId)!.loadMembers()],
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
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let started!: () => void;
    const handling = new Promise<void>((resolve) => (started = resolve));
    const failures: unknown[] = [];
    worker.onChannelMessage(async (m: ChannelMessage) => {
      if (m.sender_id !== w.alice.id) return;
      started();
      await gate;
      const error = await worker.replyTo(m, { t: 'lost pong' }).then(() => undefined, (e: unknown) => e);
      failures.push(error);
      // The first delivery fails, so the event comes again and runs the same reply under the same key.
      if (failures.length === 1) throw error;
    });
    w.emu.as(w.alice.id).send(w.general, 'ping');
    await handling;
    w.emu.pause();
    open();
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
});
