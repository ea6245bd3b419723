/**
 * clanstream/scale on a real Redis Cluster (six redis-server nodes: three
 * masters, three replicas): three bots whose keys live on different masters,
 * each with a gateway and two workers (one in this process, one a child
 * process killed with SIGKILL mid-run). Every guarantee of the guide holds
 * per bot, and no command or script crosses a slot (the cluster refuses
 * CROSSSLOT, so a violation would fail the run).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeadLetters, scaleKeys, scaleStatus, type ScaleStatus } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { RedisClusterHarness, runRedisClusterTests } from '../support/redis-cluster.js';
import { answering, answersOf, ClusterTracker, type ClusterWorld } from './cluster-support.js';
import { clanstreamCli as cli } from './processes.js';
import { LOADED_TEST_TIMEOUT_MS, LOADED_WAIT_MS } from './support.js';


let cluster: RedisClusterHarness;
let t: ClusterTracker;
beforeAll(async () => {
  if (!runRedisClusterTests) return;
  cluster = await RedisClusterHarness.start();
  t = new ClusterTracker(cluster);
}, 180_000);
afterEach(() => t?.cleanup());
afterAll(() => cluster?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for a condition that asks Redis. */
async function untilTrue(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + LOADED_WAIT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const jobs = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe.skipIf(!runRedisClusterTests)('clanstream/scale on a Redis Cluster', { timeout: LOADED_TEST_TIMEOUT_MS }, () => {
  it('three bots on three masters, each with a gateway and two workers (one killed with SIGKILL): every message answered exactly once, poison dead-lettered and re-driven, claims after the kill', async () => {
    const w = await t.world(3);
    // The bots' hash tags are served by three different masters, and each slot is the tag's.
    expect(new Set(w.bots.map((b) => b.master)).size).toBe(3);
    const nodes = await cluster.nodes();
    for (const { bot, master, slot } of w.bots) {
      const node = nodes.find((n) => n.port === master)!;
      expect(node.role).toBe('master');
      expect(node.slots.some(([from, to]) => slot >= from && slot <= to)).toBe(true);
      for (const key of [scaleKeys(bot.botId).commands, scaleKeys(bot.botId).lease, scaleKeys(bot.botId).results('w')]) {
        expect(Number((await cluster.cli(master, 'CLUSTER', 'KEYSLOT', key)).trim())).toBe(slot);
      }
    }

    const errors: string[] = [];
    let cured = false;
    const roles = await Promise.all(
      w.bots.map(async ({ bot, config }) => {
        const gateway = await t.gateway(config, { gatewayId: `gateway-${bot.botId}`, waitReplicas: 1 });
        gateway.errors$.subscribe((error) => errors.push(error.message));
        // Four at a time, so the worker process gets its share of the work.
        const local = await t.worker(bot.botId, 'local', { maxInFlight: 4 });
        local.errors$.subscribe((error) => errors.push(error.message));
        local.onChannelMessage(answering(local, w.alice.id, () => cured));
        // Few at a time and a slow handler, so the process holds unacknowledged events when it is killed.
        const doomed = t.workerProcess(bot.botId, 'doomed', w.alice.id, 100, 4);
        return { bot, gateway, local, doomed };
      }),
    );
    await Promise.all(roles.map(({ doomed }) => doomed.waitFor('ready', LOADED_WAIT_MS)));
    await until(() => roles.every(({ gateway }) => gateway.stats().role === 'active'), 'every gateway active', LOADED_WAIT_MS);

    const texts = jobs('c', 60);
    const alice = w.emu.as(w.alice.id);
    alice.send(w.general, 'poison');
    for (const text of texts) alice.send(w.general, text);

    // Kill each worker process while it holds events it has not acknowledged.
    const status = cluster.client();
    const pendingOf = async (botId: string, consumer: string) => {
      const groups = (await scaleStatus(status, botId)).events.groups;
      return groups.find((g) => g.name === 'handlers')?.consumers.find((c) => c.name === consumer)?.pending ?? 0;
    };
    const killed = await Promise.all(
      roles.map(async ({ bot, doomed }) => {
        await doomed.waitFor('handled ', LOADED_WAIT_MS);
        for (let tries = 0; tries < 200; tries += 1) {
          if ((await pendingOf(bot.botId, 'doomed')) > 0) {
            await doomed.kill();
            return true;
          }
        }
        return false;
      }),
    );
    expect(killed).toEqual([true, true, true]);

    await until(() => roles.every(({ bot }) => answersOf(w, bot.botId).size === texts.length), 'every bot answering every message', LOADED_WAIT_MS).catch((error: unknown) => {
      throw new Error(`${String(error)}: answers ${roles.map(({ bot }) => answersOf(w, bot.botId).size).join(', ')}; errors ${errors.slice(0, 5).join(' | ')}`);
    });
    const letters = new Map<string, DeadLetters>(roles.map(({ bot }) => [bot.botId, new DeadLetters(status, scaleKeys(bot.botId))]));
    // The poison may have been dead-lettered by the killed process or by the survivor: count the letters in Redis.
    await untilTrue(async () => (await Promise.all(roles.map(async ({ bot }) => (await letters.get(bot.botId)!.count()) === 1))).every(Boolean), 'a dead letter per bot');
    // Give a late duplicate every chance to show up: the survivors' claims run every 200 ms.
    await sleep(1_500);
    for (const { bot } of roles) {
      const counts = answersOf(w, bot.botId);
      expect(texts.filter((text) => counts.get(`done ${text}`) !== 1)).toEqual([]);
      expect(counts.size).toBe(texts.length);
      const stats: ScaleStatus = await scaleStatus(status, bot.botId);
      expect(stats.counters.redelivered).toBeGreaterThan(0);
      expect(stats.counters.published).toBeGreaterThanOrEqual(texts.length + 1);
      const [letter, ...more] = await letters.get(bot.botId)!.list();
      expect(more).toEqual([]);
      expect(letter!.entry?.event).toMatchObject({ type: 'channel_message', data: { content: { t: 'poison' } } });
      expect(letter!.reason).toContain('cannot digest poison');
    }

    // Re-driven (a MULTI over the events and dead-letter streams: one slot), the cured poison is answered once.
    cured = true;
    for (const { bot } of roles) {
      const [letter] = await letters.get(bot.botId)!.list();
      await letters.get(bot.botId)!.redrive(letter!.id);
    }
    await until(() => roles.every(({ bot }) => answersOf(w, bot.botId).get('done poison') === 1), 'the re-driven poison answered by every bot', LOADED_WAIT_MS);
    for (const { bot } of roles) expect(await letters.get(bot.botId)!.count()).toBe(0);
    expect(errors.filter((message) => message.includes('CROSSSLOT'))).toEqual([]);

    // `clanstream scale status` reads a bot from a list of nodes, or from one node with --cluster.
    const [first] = roles;
    const listed = await cli('scale', 'status', '--bot', first!.bot.botId, '--redis', cluster.ports.map((port) => `redis://127.0.0.1:${port}`).join(','), '--json');
    expect(listed.code).toBe(0);
    const fromList = JSON.parse(listed.output) as ScaleStatus;
    expect(fromList.lease?.holder).toBe(`gateway-${first!.bot.botId}`);
    expect(fromList.counters.published).toBeGreaterThanOrEqual(texts.length + 1);
    const oneNode = await cli('scale', 'status', '--bot', first!.bot.botId, '--redis', `redis://127.0.0.1:${cluster.ports[5]}`, '--cluster');
    expect(oneNode.code).toBe(0);
    expect(oneNode.output).toContain(`gateway: gateway-${first!.bot.botId} holds the lease`);
    expect(oneNode.output).toMatch(/published \d+, re-publications skipped \d+/);
  });

  // Runs last: the cluster keeps two masters with replicas and one without.
  it("the master of a bot's keys killed with SIGKILL mid-run: its replica is promoted, and with waitReplicas: 1 every message is published once and answered exactly once, no loss reported", async () => {
    const w = await t.world(1);
    const [{ bot, config, master }] = w.bots as [ClusterWorld['bots'][number]];
    const errors: string[] = [];
    const gateway = await t.gateway(config, { gatewayId: 'gateway-f', waitReplicas: 1 });
    gateway.errors$.subscribe((error) => errors.push(error.message));
    const workers = await Promise.all(['one', 'two'].map((name) => t.worker(bot.botId, name, { maxInFlight: 4, commandTimeoutMs: 5_000 })));
    for (const worker of workers) {
      worker.errors$.subscribe((error) => errors.push(error.message));
      worker.onChannelMessage(answering(worker, w.alice.id, () => true));
    }
    await until(() => gateway.stats().role === 'active', 'the gateway active', LOADED_WAIT_MS);

    const texts = jobs('f', 60);
    const alice = w.emu.as(w.alice.id);
    for (const text of texts.slice(0, 30)) alice.send(w.general, text);
    await until(() => answersOf(w, bot.botId).size >= 10, 'the first answers', LOADED_WAIT_MS);
    await cluster.killNode(master);
    // Sent while the master is dead and no replica has taken over yet.
    for (const text of texts.slice(30)) alice.send(w.general, text);
    const promoted = await cluster.waitForFailover(master);
    expect(promoted).not.toBe(master);
    expect(await cluster.masterOf(scaleKeys(bot.botId).events)).toBe(promoted);

    await until(() => answersOf(w, bot.botId).size === texts.length, 'every answer after the fail-over', LOADED_WAIT_MS).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${answersOf(w, bot.botId).size} answered; errors ${errors.slice(0, 5).join(' | ')}`);
    });
    // Give a late duplicate every chance to show up: the workers' claims run every 200 ms.
    await sleep(1_500);
    const counts = answersOf(w, bot.botId);
    expect(texts.filter((text) => counts.get(`done ${text}`) !== 1)).toEqual([]);
    expect(counts.size).toBe(texts.length);
    // The promoted replica holds each of alice's messages once in the events stream: none lost, none published twice.
    const entries = (await cluster.client().xrange(scaleKeys(bot.botId).events, '-', '+')).map(([, fields]) => fields);
    const published = entries.map((fields) => fields[fields.indexOf('data') + 1] ?? '').map((data) => (JSON.parse(data) as { sender_id?: string; content?: { t?: string } }));
    const fromAlice = published.filter((data) => data.sender_id === w.alice.id).map((data) => data.content?.t);
    expect([...fromAlice].sort()).toEqual([...texts].sort());
    expect(errors.filter((message) => message.includes('lost the data'))).toEqual([]);
    // The promoted master has no replica left: its batches are published unconfirmed, and the gateway says so.
    expect(errors.some((message) => message.includes('held by 0 of the 1 replicas asked for (waitReplicas)'))).toBe(true);
  });
});
