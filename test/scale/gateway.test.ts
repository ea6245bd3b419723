/**
 * The gateway against a real redis-server and the emulator: the snapshot a
 * late worker starts from, a slow worker that never grows the gateway, Redis
 * outages longer than the buffer, hand-over on close, fencing by the lease,
 * and re-publications recognised by session and seq.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { firstValueFrom, filter } from 'rxjs';
import { Events, type AnyClanstreamError, type ChannelMessage } from '../../src/index.js';
import { ScaleGateway, scaleKeys, scaleStatus } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { FAST_GATEWAY, ScaleTracker, type ScaleWorld } from './support.js';

const t = new ScaleTracker();
afterEach(() => t.cleanup());

const stored = (w: ScaleWorld, text: string) => w.emu.messages(w.general).filter((m) => m.content.t === text).length;

describe.skipIf(!runRedisTests)('the scale-out gateway', () => {
  it("a worker that connects later starts from the gateway's snapshot: clans, channels, members and recent messages are there before any event", async () => {
    const w = await t.world();
    const gateway = await t.gateway(w, { snapshotEvery: 2 });
    const alice = w.emu.as(w.alice.id);
    alice.send(w.general, 'first');
    alice.send(w.general, 'second');
    await until(() => gateway.stats().snapshots >= 2 && gateway.stats().publisher.published >= 2, 'a snapshot after the messages', 10_000);
    const worker = await t.worker(w, 'late-worker');
    expect(worker.clientId).toBe(w.bot.botId);
    expect(worker.clans.get(w.clanId)?.name).toBe('Scale Clan');
    const general = worker.channels.get(w.general);
    expect(general?.name).toBe('general');
    expect([...general!.messages.values()].map((m) => m.content.t)).toEqual(['first', 'second']);
    expect(worker.users.get(w.alice.id)?.username).toBe('alice');
  });

  it('a worker started before any gateway gets its caches from the first snapshot: clans, channels and message.channel.clan for every event', async () => {
    const w = await t.world();
    const worker = await t.worker(w, 'early-worker');
    expect(worker.clans.size).toBe(0);
    const seen: Array<{ clan: string | undefined; channelClan: string | undefined }> = [];
    worker.onChannelMessage(async (m: ChannelMessage) => {
      if (m.sender_id !== w.alice.id) return;
      const message = await worker.messageOf(m);
      seen.push({ clan: worker.clans.get(w.clanId)?.name, channelClan: message.channel?.clan?.name });
    });
    await t.gateway(w);
    const alice = w.emu.as(w.alice.id);
    alice.send(w.general, 'one');
    alice.send(w.general, 'two');
    await until(() => seen.length === 2, 'both events handled', 10_000);
    expect(seen).toEqual([
      { clan: 'Scale Clan', channelClan: 'Scale Clan' },
      { clan: 'Scale Clan', channelClan: 'Scale Clan' },
    ]);
    expect(worker.clientId).toBe(w.bot.botId);
  });

  it('a take-over after the platform lost the session resynchronises, says so on errors$, and the running worker loads the new snapshot', async () => {
    const w = await t.world();
    const first = await t.gateway(w, { gatewayId: 'a' });
    const worker = await t.worker(w, 'worker-1');
    const handled: Array<{ text: string | undefined; channel: string | undefined; clan: string | undefined }> = [];
    worker.onChannelMessage(async (m: ChannelMessage) => {
      if (m.sender_id !== w.alice.id) return;
      const message = await worker.messageOf(m);
      handled.push({ text: m.content.t, channel: message.channel?.name, clan: message.channel?.clan?.name });
    });
    w.emu.as(w.alice.id).send(w.general, 'before');
    await until(() => handled.length === 1, 'the first event', 10_000);
    await first.close();
    // While no gateway holds the socket the platform forgets the session, and a channel appears that no event announces to the bot.
    await w.emu.restart();
    const lounge = w.emu.createChannel({ clanId: w.clanId, name: 'lounge' });
    const second = new ScaleGateway({ redis: t.client(w), config: w.config, gatewayId: 'b', ...FAST_GATEWAY });
    const errors: AnyClanstreamError[] = [];
    second.errors$.subscribe((error) => errors.push(error));
    t.onCleanup(() => second.close());
    await second.start();
    expect(second.currentRole).toBe('active');
    expect(errors.map((e) => e.message).filter((m) => m.includes('the platform session could not be resumed'))).toHaveLength(1);
    await until(() => worker.channels.get(lounge.channel_id) !== undefined, 'the worker loading the snapshot written after the resync', 10_000);
    w.emu.as(w.alice.id).send(lounge.channel_id, 'in the lounge');
    await until(() => handled.length === 2, 'the event in the new channel', 10_000);
    expect(handled[1]).toEqual({ text: 'in the lounge', channel: 'lounge', clan: 'Scale Clan' });
  });

  it('a slow worker never grows the gateway: the backlog waits in Redis, trimmed to maxLen', async () => {
    const w = await t.world();
    const gateway = await t.gateway(w, { maxLen: 200 });
    const worker = await t.worker(w, 'slow', { maxInFlight: 1 });
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    worker.onChannelMessage(() => blocked);
    const alice = w.emu.as(w.alice.id);
    for (let i = 0; i < 1_000; i += 1) alice.send(w.general, `flood ${i}`);
    try {
      await until(() => gateway.stats().publisher.published >= 1_000 && worker.stats().inFlight === 1, 'every event published, one in the worker', 20_000);
      expect(gateway.stats().publisher.buffered).toBe(0);
      const status = await scaleStatus(t.client(w), w.bot.botId);
      // MAXLEN ~ trims whole nodes (100 entries by default), so the stream may hold up to one node more.
      expect(status.events.length).toBeLessThanOrEqual(300);
      expect(worker.stats().inFlight).toBe(1);
    } finally {
      release();
    }
  });

  it('Redis away for longer than the buffer holds: the gateway stops reading the platform, says so, and resumes from the last published event', async () => {
    const w = await t.world();
    const gateway = await t.gateway(w, { maxBuffered: 5 });
    const errors: AnyClanstreamError[] = [];
    gateway.errors$.subscribe((error) => errors.push(error));
    const worker = await t.worker(w, 'worker-1');
    worker.onChannelMessage(async (m: ChannelMessage) => {
      if (m.sender_id === w.alice.id) await worker.replyTo(m, { t: `re ${m.content.t}` });
    });
    await w.redis.kill();
    const alice = w.emu.as(w.alice.id);
    for (let i = 0; i < 20; i += 1) alice.send(w.general, `x${i}`);
    await until(() => gateway.currentRole === 'suspended', 'the gateway to suspend', 10_000);
    expect(errors.map((e) => e.message).some((m) => m.includes('events wait for Redis (limit 5)'))).toBe(true);
    await w.redis.restart();
    await until(() => Array.from({ length: 20 }, (_, i) => stored(w, `re x${i}`)).every((n) => n === 1), 'every answer after Redis returned', 30_000);
    await until(() => gateway.currentRole === 'active', 'the gateway active again', 10_000);
    const entries = await t.client(w).xrange(scaleKeys(w.bot.botId).events, '-', '+');
    const texts = entries.map(([, f]) => JSON.parse(f[f.indexOf('data') + 1]!) as ChannelMessage).filter((m) => m.sender_id === w.alice.id).map((m) => m.content.t);
    expect(texts).toEqual(Array.from({ length: 20 }, (_, i) => `x${i}`));
  });

  it('close() hands over at once: the standby takes the lease and resumes the session; nothing is published twice', async () => {
    const w = await t.world();
    const first = await t.gateway(w, { gatewayId: 'a' });
    const second = await t.gateway(w, { gatewayId: 'b' });
    expect([first.currentRole, second.currentRole]).toEqual(['active', 'standby']);
    const alice = w.emu.as(w.alice.id);
    alice.send(w.general, 'to a');
    await until(() => first.stats().publisher.published === 1, 'the first event');
    const sessionId = first.client!.gateway.currentSessionId;
    await first.close();
    await second.whenActive();
    alice.send(w.general, 'to b');
    await until(() => second.stats().publisher.published === 1, 'the event after the hand-over', 10_000);
    expect(second.client!.gateway.currentSessionId).toBe(sessionId);
    expect(w.emu.wire.frames('resume').map((f) => f.body)).toEqual([{ session_id: sessionId, seq: 1 }]);
    const status = await scaleStatus(t.client(w), w.bot.botId);
    expect(status.lease?.holder).toBe('b');
    expect(status.counters).toMatchObject({ published: 2 });
  });

  it('a gateway whose lease was taken is fenced off: its next publish is refused and it steps down', async () => {
    const w = await t.world();
    const gateway = await t.gateway(w, { gatewayId: 'a', leaseMs: 60_000 });
    const keys = scaleKeys(w.bot.botId);
    await t.client(w).set(keys.lease, 'intruder', 'PX', 60_000);
    const steppedDown = firstValueFrom(gateway.role$.pipe(filter((role) => role === 'standby')));
    w.emu.as(w.alice.id).send(w.general, 'refused');
    await steppedDown;
    expect(gateway.client).toBeUndefined();
    expect(await t.client(w).xlen(keys.events)).toBe(0);
  });

  it('an event published again (same session and seq) is recognised and skipped', async () => {
    const w = await t.world();
    const gateway = await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    const seen: string[] = [];
    worker.onChannelMessage((m) => void seen.push(m.content.t ?? ''));
    w.emu.as(w.alice.id).send(w.general, 'once');
    await until(() => seen.length === 1, 'the event');
    // What a take-over replays: the last event again.
    const client = gateway.client!;
    const replayed = { type: Events.ChannelMessage, seq: client.gateway.lastSequence, data: w.emu.messages(w.general)[0] } as never;
    (gateway as unknown as { publisher: { publish(sid: string, e: never, at: number): void } }).publisher.publish(client.gateway.currentSessionId!, replayed, Date.now());
    await until(() => gateway.stats().publisher.skipped === 1, 'the skip');
    expect(gateway.stats().publisher.published).toBe(1);
    expect((await scaleStatus(t.client(w), w.bot.botId)).counters).toMatchObject({ published: 1, republished_skipped: 1 });
  });
});
