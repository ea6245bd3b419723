/**
 * Delivery guarantees of the scale-out path, in one process against a real
 * redis-server and the emulator: a failed handler is retried with the same
 * command keys (the emulator stores its reply once), a poison event goes to
 * the dead letters after maxDeliveries while the rest flows and can be
 * re-driven, per-channel order across two workers, a Redis restart (AOF)
 * loses nothing, and every worker's actions share the gateway's one outbox.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelMessage } from '../../src/index.js';
import { scaleStatus } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { LOADED_TEST_TIMEOUT_MS, LOADED_WAIT_MS, ScaleTracker, type ScaleWorld } from './support.js';

const t = new ScaleTracker();
afterEach(() => t.cleanup());

const fromAlice = (w: ScaleWorld) => (m: ChannelMessage) => m.sender_id === w.alice.id;
const stored = (w: ScaleWorld, text: string) => w.emu.messages(w.general).filter((m) => m.content.t === text).length;

describe.skipIf(!runRedisTests)('scale-out delivery', { timeout: LOADED_TEST_TIMEOUT_MS }, () => {
  it('a handler that fails after replying is retried; the retry carries the same key, so the reply is stored once', async () => {
    const w = await t.world();
    await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    let runs = 0;
    worker.onChannelMessage(async (m) => {
      if (!fromAlice(w)(m)) return;
      runs += 1;
      await worker.replyTo(m, { t: `answer to ${m.content.t}` });
      if (runs === 1) throw new Error('crashed after the reply');
    });
    w.emu.as(w.alice.id).send(w.general, 'question');
    await until(() => runs === 2 && worker.stats().acked >= 2, 'the retry and the acknowledgement', LOADED_WAIT_MS);
    expect(stored(w, 'answer to question')).toBe(1);
    expect(worker.stats()).toMatchObject({ failed: 1, deadLettered: 0 });
    expect(worker.stats().redelivered).toBeGreaterThanOrEqual(1);
  });

  it('a poison event goes to the dead letters after maxDeliveries with its reason; the rest flows; re-driven, it is handled', async () => {
    const w = await t.world();
    await t.gateway(w);
    const worker = await t.worker(w, 'worker-1', { maxDeliveries: 3 });
    let poisonRuns = 0;
    let cured = false;
    const handled: string[] = [];
    worker.onChannelMessage((m) => {
      if (!fromAlice(w)(m)) return;
      if (m.content.t === 'poison' && !cured) {
        poisonRuns += 1;
        throw new Error('cannot digest this');
      }
      handled.push(m.content.t ?? '');
    });
    const alice = w.emu.as(w.alice.id);
    alice.send(w.general, 'before');
    alice.send(w.general, 'poison');
    alice.send(w.general, 'after');
    await until(() => worker.stats().deadLettered === 1, 'the dead letter', LOADED_WAIT_MS);
    expect(poisonRuns).toBe(3);
    expect(handled).toEqual(['before', 'after']);
    const letters = await worker.deadLetters.list();
    expect(letters).toHaveLength(1);
    const [letter] = letters;
    expect(letter!.entry?.event).toMatchObject({ type: 'channel_message', data: { content: { t: 'poison' } } });
    expect(letter!.reason).toContain('delivered 3 times without being handled (limit 3)');
    expect(letter!.reason).toContain('cannot digest this');
    expect(letter!.deliveries).toBe(3);
    expect(await worker.deadLetters.get(letter!.id)).toEqual(letter);
    const status = await scaleStatus(t.client(w), w.bot.botId);
    expect(status.deadLetters).toBe(1);
    expect(status.events.groups.find((g) => g.name === 'handlers')?.pending).toBe(0);

    cured = true;
    await worker.deadLetters.redrive(letter!.id);
    await until(() => handled.includes('poison'), 'the re-driven event', LOADED_WAIT_MS);
    expect(await worker.deadLetters.count()).toBe(0);
  });

  it("with ordered: 'channel', one channel's handlers run one at a time in publish order across two workers", async () => {
    const w = await t.world();
    await t.gateway(w);
    const log: string[] = [];
    let running = 0;
    let overlapped = false;
    const handler = (name: string) => async (m: ChannelMessage) => {
      if (!fromAlice(w)(m)) return;
      running += 1;
      if (running > 1) overlapped = true;
      await new Promise((resolve) => setTimeout(resolve, Number(m.content.t) % 3));
      log.push(`${m.content.t}@${name}`);
      running -= 1;
    };
    const one = await t.worker(w, 'worker-1', { ordered: 'channel' });
    const two = await t.worker(w, 'worker-2', { ordered: 'channel' });
    one.onChannelMessage(handler('one'));
    two.onChannelMessage(handler('two'));
    const alice = w.emu.as(w.alice.id);
    for (let i = 0; i < 30; i += 1) alice.send(w.general, String(i));
    await until(() => log.length === 30, 'every message handled', LOADED_WAIT_MS);
    expect(log.map((entry) => Number(entry.split('@')[0]))).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(overlapped).toBe(false);
    // Both workers took part: the order held across processes' worth of consumers, not by one doing everything.
    expect(new Set(log.map((entry) => entry.split('@')[1]))).toEqual(new Set(['one', 'two']));
  });

  it('redis-server killed and restarted (AOF on): every message is handled and answered exactly once', async () => {
    const w = await t.world();
    const gateway = await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    worker.onChannelMessage(async (m) => {
      if (fromAlice(w)(m)) await worker.replyTo(m, { t: `re ${m.content.t}` });
    });
    const alice = w.emu.as(w.alice.id);
    for (let i = 0; i < 5; i += 1) alice.send(w.general, `a${i}`);
    await until(() => stored(w, 're a4') === 1, 'the first answers', LOADED_WAIT_MS);
    await w.redis.kill();
    // While Redis is down the gateway keeps the events it receives.
    for (let i = 0; i < 5; i += 1) alice.send(w.general, `b${i}`);
    await until(() => (gateway.stats().publisher.buffered ?? 0) >= 5, 'the gateway buffering', LOADED_WAIT_MS);
    await w.redis.restart();
    await until(() => [0, 1, 2, 3, 4].every((i) => stored(w, `re b${i}`) === 1), 'the answers after the restart', LOADED_WAIT_MS);
    for (let i = 0; i < 5; i += 1) {
      expect(stored(w, `re a${i}`)).toBe(1);
      expect(stored(w, `re b${i}`)).toBe(1);
    }
  });

  it("three workers' sends all go through the gateway's one outbox and socket", async () => {
    const w = await t.world();
    const gateway = await t.gateway(w, { config: { ...w.config, outbox: { ratePerSecond: 100, burst: 5 } } });
    const workers = await Promise.all(['w1', 'w2', 'w3'].map((name) => t.worker(w, name)));
    for (const worker of workers) {
      worker.onChannelMessage(async (m) => {
        if (fromAlice(w)(m)) await worker.replyTo(m, { t: `done ${m.content.t}` });
      });
    }
    const alice = w.emu.as(w.alice.id);
    for (let i = 0; i < 30; i += 1) alice.send(w.general, `job ${i}`);
    const acked = () => workers.map((worker) => worker.stats().acked).reduce((a, b) => a + b, 0);
    // The platform stores each answer before its acknowledgement reaches the gateway's outbox, and a worker
    // acknowledges its event only after the answer's result came back: wait for all three.
    await until(
      () => w.emu.messages(w.general).filter((m) => m.content.t?.startsWith('done ')).length === 30 && gateway.client?.outbox.current.sent === 30 && acked() >= 30,
      'every answer, acknowledged by the platform and by the workers',
      LOADED_WAIT_MS,
    );
    expect(w.emu.sessions(w.bot.botId).filter((s) => s.connected)).toHaveLength(1);
    expect(w.emu.wire.frames('channel_message_send')).toHaveLength(30);
    expect(gateway.client!.outbox.current.sent).toBe(30);
    expect(acked()).toBeGreaterThanOrEqual(30);
  });
});

describe.skipIf(!runRedisTests)('a rate limit shared in Redis', { timeout: LOADED_TEST_TIMEOUT_MS }, () => {
  it('gateways of two bots given the same key take their actions from one bucket, and every action is still carried out', async () => {
    const w = await t.world();
    const other = w.emu.createBot({ username: 'otherbot' });
    w.emu.addClanMember(w.clanId, other.botId);
    const shared = { key: 'platform:shared-bucket', ratePerSecond: 5, burst: 1 };
    const first = await t.gateway(w, { sharedRateLimit: shared });
    const second = await t.gateway(w, { config: { ...w.config, botId: other.botId, token: other.token }, sharedRateLimit: shared });
    const workers = [await t.worker(w, 'first-worker'), await t.worker(w, 'second-worker', { botId: other.botId })];
    for (const worker of workers) {
      worker.onChannelMessage(async (m) => {
        if (fromAlice(w)(m)) await worker.replyTo(m, { t: `${worker.consumer} got ${m.content.t}` });
      });
    }
    const alice = w.emu.as(w.alice.id);
    for (let i = 0; i < 4; i += 1) alice.send(w.general, `n${i}`);
    await until(() => w.emu.messages(w.general).filter((m) => m.content.t?.includes(' got ')).length === 8, 'both bots answering everything', LOADED_WAIT_MS);
    expect(first.stats().commands.throttled + second.stats().commands.throttled).toBeGreaterThan(0);
    expect(await t.client(w).hget(shared.key, 'at')).not.toBeNull();
    for (const name of ['first-worker', 'second-worker']) {
      for (let i = 0; i < 4; i += 1) expect(stored(w, `${name} got n${i}`)).toBe(1);
    }
  });
});
