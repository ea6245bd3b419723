/**
 * The scale-out scenarios with real processes: a gateway and workers are
 * child programs (test/scale/fixtures), the platform is the emulator in this
 * process, Redis is a real redis-server. Processes are killed with SIGKILL
 * where the scenario says so; what counts is what the emulator stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { scaleStatus } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { startProgram, type Program } from './processes.js';
import { ScaleTracker, type ScaleWorld } from './support.js';

const t = new ScaleTracker();
afterEach(() => t.cleanup());

function gateway(w: ScaleWorld, id: string): Program {
  const program = startProgram(id, 'test/scale/fixtures/gateway-process.ts', { REDIS_PORT: String(w.redis.port), SCALE_CONFIG: JSON.stringify(w.config), GATEWAY_ID: id });
  t.onCleanup(() => program.kill());
  return program;
}

function worker(w: ScaleWorld, consumer: string, handlerMs = 0, maxInFlight = 64): Program {
  const program = startProgram(consumer, 'test/scale/fixtures/worker-process.ts', { REDIS_PORT: String(w.redis.port), BOT_ID: w.bot.botId, CONSUMER: consumer, HANDLER_MS: String(handlerMs), MAX_IN_FLIGHT: String(maxInFlight) });
  t.onCleanup(() => program.kill());
  return program;
}

/** How many times the emulator stored each answer. */
function answers(w: ScaleWorld): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of w.emu.messages(w.general)) if (m.content.t?.startsWith('done ')) counts.set(m.content.t, (counts.get(m.content.t) ?? 0) + 1);
  return counts;
}

function expectEachOnce(w: ScaleWorld, texts: string[]): void {
  const counts = answers(w);
  expect(texts.filter((text) => counts.get(`done ${text}`) !== 1)).toEqual([]);
  expect(counts.size).toBe(texts.length);
}

const jobs = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe.skipIf(!runRedisTests)('scale-out with real processes', { timeout: 120_000 }, () => {
  it('1 gateway + 2 workers: every message is handled and answered once, by one worker or the other', async () => {
    const w = await t.world();
    const g = gateway(w, 'gateway-a');
    await g.waitFor('role active');
    const workers = [worker(w, 'worker-1'), worker(w, 'worker-2')];
    await Promise.all(workers.map((p) => p.waitFor('ready')));
    const texts = jobs('m', 40);
    for (const text of texts) w.emu.as(w.alice.id).send(w.general, text);
    await until(() => answers(w).size === texts.length, 'every answer', 60_000);
    await until(() => workers.flatMap((p) => p.said('handled ')).length === texts.length, 'every worker to report', 10_000);
    expectEachOnce(w, texts);
    const handled = workers.flatMap((p) => p.said('handled '));
    expect(handled.sort()).toEqual([...texts].sort());
    expect(workers.every((p) => p.said('handled ').length > 0)).toBe(true);
  });

  it('kill -9 a worker mid-run: its pending events are claimed by the other, and all work is done exactly once', async () => {
    const w = await t.world();
    await gateway(w, 'gateway-a').waitFor('role active');
    // Few at a time each, so both hold some of the work when one is killed.
    const workers = [worker(w, 'worker-1', 40, 4), worker(w, 'worker-2', 40, 4)];
    await Promise.all(workers.map((p) => p.waitFor('ready')));
    const texts = jobs('k', 60);
    for (const text of texts) w.emu.as(w.alice.id).send(w.general, text);
    const redis = t.client(w);
    const pendingOf = async (name: string) => {
      const consumers = (await scaleStatus(redis, w.bot.botId)).events.groups.find((g) => g.name === 'handlers')?.consumers ?? [];
      return consumers.find((c) => c.name === name)?.pending ?? 0;
    };
    // Kill a worker while it holds events it has not acknowledged.
    let doomed: Program | undefined;
    await until(() => workers.some((p) => p.said('handled ').length >= 2), 'the workers at work', 60_000);
    for (let tries = 0; !doomed && tries < 200; tries += 1) {
      for (const p of workers) if (!doomed && (await pendingOf(p.name)) > 0) doomed = p;
    }
    expect(doomed).toBeDefined();
    await doomed!.kill();
    await until(() => answers(w).size === texts.length, 'every answer after the kill', 60_000);
    // Give a late duplicate every chance to show up: the survivor's claims run every 200 ms.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expectEachOnce(w, texts);
    expect((await scaleStatus(redis, w.bot.botId)).counters.redelivered).toBeGreaterThan(0);
  });

  it('kill -9 the gateway: the standby resumes the session from the last published event; nothing is lost or published twice', async () => {
    const w = await t.world();
    const first = gateway(w, 'gateway-a');
    await first.waitFor('role active');
    const standby = gateway(w, 'gateway-b');
    await standby.waitFor('role standby');
    const handler = worker(w, 'worker-1');
    await handler.waitFor('ready');
    const before = jobs('a', 15);
    for (const text of before) w.emu.as(w.alice.id).send(w.general, text);
    await until(() => answers(w).size >= 5, 'some answers', 60_000);
    await first.kill();
    const during = jobs('b', 15);
    for (const text of during) w.emu.as(w.alice.id).send(w.general, text);
    await standby.waitFor('role active', 30_000);
    const after = jobs('c', 10);
    for (const text of after) w.emu.as(w.alice.id).send(w.general, text);
    const texts = [...before, ...during, ...after];
    await until(() => answers(w).size === texts.length, 'every answer after the take-over', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expectEachOnce(w, texts);
    // The stream holds each of alice's messages once.
    const redis = t.client(w);
    const entries = await redis.xrange(`{bot:${w.bot.botId}}:events`, '-', '+');
    const published = entries.map(([, fields]) => fields[fields.indexOf('data') + 1]!).map((data) => JSON.parse(data) as { sender_id: string; content: { t?: string } }).filter((m) => m.sender_id === w.alice.id).map((m) => m.content.t);
    expect([...published].sort()).toEqual([...texts].sort());
  });

  it('SIGTERM a worker: it finishes the handlers in flight, acknowledges them and exits 0', async () => {
    const w = await t.world();
    await gateway(w, 'gateway-a').waitFor('role active');
    const slow = worker(w, 'worker-1', 300);
    await slow.waitFor('ready');
    w.emu.as(w.alice.id).send(w.general, 'last words');
    await until(() => w.emu.messages(w.general).length >= 1, 'the message', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await slow.stop()).toBe(0);
    expect(slow.said('handled ')).toEqual(['last words']);
    const closed = JSON.parse(slow.said('closed ')[0] ?? '{}') as { acked: number; delivered: number; inFlight: number };
    expect(closed.inFlight).toBe(0);
    expect(closed.acked).toBe(closed.delivered);
    expectEachOnce(w, ['last words']);
  });
});
