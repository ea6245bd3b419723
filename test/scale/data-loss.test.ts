/**
 * Redis that comes back without the bot's data (FLUSHALL, a restart without
 * persistence), against a real redis-server and the emulator: the gateway
 * and the workers create again what is missing, say loudly that data was
 * lost, give the workers a new snapshot, and go on handling events.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyClanstreamError, ChannelMessage } from '../../src/index.js';
import { scaleKeys, scaleStatus } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { ScaleTracker, type ScaleWorld } from './support.js';

const t = new ScaleTracker();
afterEach(async () => {
  vi.restoreAllMocks();
  await t.cleanup();
});

const stored = (w: ScaleWorld, text: string) => w.emu.messages(w.general).filter((m) => m.content.t === text).length;
const LOSS = 'Redis lost the data of bot';

const wipes: Array<[string, (w: ScaleWorld) => Promise<unknown>]> = [
  ['FLUSHALL', (w) => t.client(w).flushall()],
  ['a restart without persistence', (w) => w.redis.restart()],
];

describe.skipIf(!runRedisTests)('Redis that lost the bot data', () => {
  it.each(wipes)('after %s the gateway and the worker create again what is missing, report the loss, resync the caches and go on', async (_how, wipe) => {
    const w = await t.world({ appendOnly: false });
    const gateway = await t.gateway(w);
    const gatewayErrors: AnyClanstreamError[] = [];
    gateway.errors$.subscribe((error) => gatewayErrors.push(error));
    const worker = await t.worker(w, 'worker-1');
    const workerErrors: AnyClanstreamError[] = [];
    worker.errors$.subscribe((error) => workerErrors.push(error));
    const seen: Array<string | undefined> = [];
    worker.onChannelMessage(async (m: ChannelMessage) => {
      if (m.sender_id !== w.alice.id) return;
      seen.push(worker.clans.get(w.clanId)?.name);
      await worker.replyTo(m, { t: `re ${m.content.t}` });
    });
    const alice = w.emu.as(w.alice.id);
    alice.send(w.general, 'before');
    await until(() => stored(w, 're before') === 1, 'the answer before the loss', 10_000);
    // Settled and acknowledged before the loss: a command whose answer the loss takes waits for its timeout (see the guide).
    await until(() => worker.stats().acked >= 2 && worker.stats().inFlight === 0, 'both events of the exchange acknowledged', 10_000);
    const snapshotsBefore = gateway.stats().snapshots;

    await wipe(w);
    alice.send(w.general, 'after');
    await until(() => stored(w, 're after') === 1, 'the answer after the loss', 20_000);
    await until(() => gatewayErrors.some((e) => e.message.includes(LOSS)) && workerErrors.some((e) => e.message.includes(LOSS)), 'both roles reporting the loss', 10_000);

    const loss = gatewayErrors.find((e) => e.message.includes(LOSS))!;
    expect(loss).toMatchObject({ kind: 'connection', fatal: false });
    expect(loss.message).toContain('which ones cannot be known');
    expect(gateway.currentRole).toBe('active');
    expect(gatewayErrors.map((e) => e.message).filter((m) => m.includes('stepped down') || m.includes('another gateway'))).toEqual([]);
    // Recreated at once, not retried for ever.
    const nogroup = [...gatewayErrors, ...workerErrors].filter((e) => e.message.includes('NOGROUP'));
    expect(nogroup.length).toBeLessThanOrEqual(4);
    // The workers got a new snapshot of the gateway's caches.
    expect(gateway.stats().snapshots).toBeGreaterThan(snapshotsBefore);
    expect(await t.client(w).hget(scaleKeys(w.bot.botId).snapshot, 'reason')).toBe('loss');
    expect(seen).toEqual(['Scale Clan', 'Scale Clan']);
    await until(() => worker.stats().inFlight === 0, 'nothing in flight');
    const status = await scaleStatus(t.client(w), w.bot.botId);
    expect(status.events.groups.map((g) => g.name)).toEqual(['handlers']);
    expect(status.commands.groups.map((g) => g.name)).toEqual(['gateway']);
    expect(status.lease?.holder).toBe(gateway.gatewayId);
  });

  it('a standby follows the epoch the active gateway recovered to: its later take-over reports no second loss', async () => {
    const w = await t.world({ appendOnly: false });
    const first = await t.gateway(w, { gatewayId: 'a' });
    const second = await t.gateway(w, { gatewayId: 'b' });
    expect([first.currentRole, second.currentRole]).toEqual(['active', 'standby']);
    const firstErrors: AnyClanstreamError[] = [];
    first.errors$.subscribe((error) => firstErrors.push(error));
    const secondErrors: AnyClanstreamError[] = [];
    second.errors$.subscribe((error) => secondErrors.push(error));
    const keys = scaleKeys(w.bot.botId);
    const redis = t.client(w);
    // Everything lost but the lease, so the active gateway keeps it and is the one that deals with the loss.
    await redis.multi().flushall().set(keys.lease, 'a', 'PX', 60_000).exec();
    await until(() => firstErrors.some((e) => e.message.includes(LOSS)), 'the active gateway reporting the loss', 10_000);
    const epoch = await redis.get(keys.epoch);
    expect(epoch).toBeTruthy();
    await until(() => (second as unknown as { epoch: { current?: string } }).epoch.current === epoch, 'the standby following the new epoch', 10_000);

    await first.close();
    await second.whenActive();
    // The wipe took the resume point: the new holder logs in afresh, so the event is sent once it has (its login snapshot).
    await until(() => second.stats().snapshots >= 1, 'the new holder logged in', 10_000);
    w.emu.as(w.alice.id).send(w.general, 'after the take-over');
    await until(() => second.stats().publisher.published >= 1, 'the event after the take-over', 10_000);
    expect(secondErrors.filter((e) => e.message.includes(LOSS))).toEqual([]);
    expect(await redis.get(keys.epoch)).toBe(epoch);
  });

  it('a worker that nobody listens to prints the loss to stderr', async () => {
    const w = await t.world({ appendOnly: false });
    await t.gateway(w);
    const printed: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((text: unknown) => void printed.push(String(text)));
    const worker = await t.worker(w, 'worker-1');
    worker.onChannelMessage(async (m) => {
      if (m.sender_id === w.alice.id) await worker.replyTo(m, { t: `re ${m.content.t}` });
    });
    await t.client(w).flushall();
    w.emu.as(w.alice.id).send(w.general, 'after');
    await until(() => stored(w, 're after') === 1, 'the answer after the loss', 20_000);
    await until(() => printed.filter((line) => line.includes(LOSS)).length >= 2, 'the gateway and the worker printing the loss', 10_000);
    expect(printed.some((line) => line.startsWith('clanstream: unhandled ConnectionError') && line.includes(`worker worker-1 created its consumer group again`))).toBe(true);
  });
});
