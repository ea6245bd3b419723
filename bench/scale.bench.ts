/**
 * clanstream/scale against raw ioredis loops, side by side in one run, on a
 * real redis-server (Debian's) started for the run on a free port.
 *
 * (a) Publish: the gateway's publisher (one Lua script per batch: fencing by
 *     the lease, dedup by session and seq, the resume point) against a raw
 *     pipelined XADD loop of the same entries. Target ≥ 0.9.
 * (b) Consume: one WorkerClient (caches on, a no-op listener, acks after the
 *     listener settles) against a raw XREADGROUP + XACK loop. Target ≥ 0.4.
 * (c) CPU-bound handlers (~1 ms each): 2 worker processes against 1. Target ≥ 1.6×.
 * (d) Latency, publish call → handler in a worker process, at 5,000 events/s.
 *     Targets p50 ≤ 1 ms, p99 ≤ 10 ms.
 * (e) Redelivery: a worker holding events is killed (SIGKILL); time until
 *     another worker runs one of them. Target ≤ claimIdle + claimInterval + 1 s.
 *
 * Settings (environment): BENCH_SCALE_PUBLISH (100000), BENCH_SCALE_CONSUME
 * (50000), BENCH_SCALE_BUSY (3000), BENCH_SCALE_LATENCY_SECONDS (5),
 * BENCH_SCALE_ROUNDS (3), BENCH_SCALE_PARTS (`publish,consume,cpu,latency,redelivery`).
 */
import type { Redis } from 'ioredis';
import type { ClanstreamEvent } from '../src/events/payloads.js';
import { Events } from '../src/events/names.js';
import { scaleKeys, WorkerClient, type ScaleKeys } from '../src/scale/index.js';
import { EventPublisher } from '../src/scale/publisher.js';
import { asyncScheduler } from 'rxjs';
import { RedisServer } from '../test/support/redis-server.js';
import { mulberry32 } from '../test/support/prng.js';
import { startProgram, type Program } from '../test/scale/processes.js';
import type { BenchResult, TargetCheck } from './run.js';
import { BENCH_CLAN_ID, CHANNEL_IDS, CHANNEL_LABELS, chatMessage } from './support/channel-message-frames.js';
import { envInt, fmtInt, fmtRate, load, median, rate, settle } from './support/inbound-harness.js';

const PUBLISH = envInt('BENCH_SCALE_PUBLISH', 100_000);
const CONSUME = envInt('BENCH_SCALE_CONSUME', 50_000);
const BUSY = envInt('BENCH_SCALE_BUSY', 3_000);
const LATENCY_SECONDS = envInt('BENCH_SCALE_LATENCY_SECONDS', 5);
const ROUNDS = envInt('BENCH_SCALE_ROUNDS', 3);
const PARTS = (process.env.BENCH_SCALE_PARTS ?? 'publish,consume,cpu,latency,redelivery').split(',').map((p) => p.trim());
const SESSION = 'bench-session';
const MAX_LEN = 1_000_000;
const now = () => performance.timeOrigin + performance.now();

/** `n` channel_message events (~310 bytes of JSON each), the same in every run. */
function events(n: number, offset = 0): ClanstreamEvent[] {
  const random = mulberry32(7);
  return Array.from({ length: n }, (_, i) => {
    const c = i % CHANNEL_IDS.length;
    const data = chatMessage(offset + i + 1, { channel_id: CHANNEL_IDS[c]!, clan_id: BENCH_CLAN_ID, channel_label: CHANNEL_LABELS[c]!, sender_id: '1840000000000000002', username: 'alice', display_name: 'Alice', avatar: '' }, random);
    return { type: Events.ChannelMessage, seq: offset + i + 1, data };
  });
}

function publisher(redis: Redis, keys: ScaleKeys, gatewayId: string): EventPublisher {
  const fail = (why: string) => () => {
    throw new Error(`bench publisher: ${why}`);
  };
  return new EventPublisher({
    redis,
    keys,
    gatewayId,
    leaseMs: 60_000,
    epoch: () => BENCH_EPOCH,
    maxLen: MAX_LEN,
    publishBatch: 512,
    maxBuffered: 10_000_000,
    retryMs: 50,
    waitReplicas: 0,
    waitReplicasMs: 0,
    scheduler: asyncScheduler,
    onUnreplicated: fail('unreplicated'),
    onUnavailable: fail('Redis failed'),
    onRecovered: () => {},
    onOverflow: fail('overflow'),
    onLeaseLost: fail('lease lost'),
    onLost: fail('the epoch changed'),
  });
}

/** The epoch the bench's publisher writes under. */
const BENCH_EPOCH = 'bench-epoch';

/** A bot's keys with the lease taken by `gatewayId`, its epoch set, and the bot's id known to workers. */
async function botKeys(redis: Redis, botId: string, gatewayId = 'bench-gateway'): Promise<ScaleKeys> {
  const keys = scaleKeys(botId);
  await redis.set(keys.lease, gatewayId);
  await redis.set(keys.epoch, BENCH_EPOCH);
  await redis.hset(keys.resume, 'self', 'bench-bot-user');
  return keys;
}

async function publishAll(redis: Redis, keys: ScaleKeys, list: readonly ClanstreamEvent[], stamp = false): Promise<void> {
  const p = publisher(redis, keys, 'bench-gateway');
  for (const event of list) p.publish(SESSION, event, stamp ? now() : 0);
  await p.drained();
}

// ---------------- (a) publish ----------------

async function publishPart(server: RedisServer): Promise<BenchResult> {
  const redis = server.client();
  const list = events(PUBLISH);
  const raw: number[] = [];
  const ours: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await redis.flushall();
    let started = performance.now();
    for (let i = 0; i < list.length; i += 1_000) {
      const pipeline = redis.pipeline();
      for (const event of list.slice(i, i + 1_000)) {
        const data = event.data as { channel_id: string };
        pipeline.xadd('raw:events', 'MAXLEN', '~', MAX_LEN, '*', 'sid', SESSION, 'seq', String(event.seq), 'type', event.type, 'ch', data.channel_id, 'at', '0', 'data', JSON.stringify(event.data));
      }
      await pipeline.exec();
    }
    raw.push(rate(list.length, performance.now() - started));
    const keys = await botKeys(redis, `publish-${round}`);
    started = performance.now();
    await publishAll(redis, keys, list);
    ours.push(rate(list.length, performance.now() - started));
    if ((await redis.xlen(keys.events)) !== list.length) throw new Error('the publisher lost events');
  }
  const ratio = median(ours) / median(raw);
  const target: TargetCheck = { target: 'publish ≥ 0.9 of a raw pipelined XADD loop', measured: ratio.toFixed(2), met: ratio >= 0.9 };
  return {
    title: 'Scale-out: publish',
    body: [
      `${fmtInt(PUBLISH)} channel_message events (~${Math.round(JSON.stringify(list[0]!.data).length)} bytes of JSON each), ${ROUNDS} rounds, medians; load ${load()}.`,
      '',
      '| | events/s |',
      '|---|---|',
      `| raw: pipelined XADD, 1,000 per round trip | ${fmtRate(median(raw))} |`,
      `| gateway publisher: Lua batches of 512 (lease check, dedup by session and seq, resume point, per-channel numbering) | ${fmtRate(median(ours))} |`,
      '',
      `Ratio **${ratio.toFixed(2)}** (target ≥ 0.9: ${target.met ? 'met' : 'missed'}).`,
    ].join('\n'),
    targets: [target],
  };
}

// ---------------- (b) consume ----------------

async function consumePart(server: RedisServer): Promise<BenchResult> {
  const redis = server.client();
  const list = events(CONSUME);
  const raw: number[] = [];
  const ours: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await redis.flushall();
    const keys = await botKeys(redis, `consume-${round}`);
    await publishAll(redis, keys, list);
    await redis.call('XGROUP', 'CREATE', keys.events, 'raw', '0');
    let started = performance.now();
    let read = 0;
    while (read < list.length) {
      const reply = (await redis.xreadgroup('GROUP', 'raw', 'raw-consumer', 'COUNT', 512, 'STREAMS', keys.events, '>')) as unknown;
      const entries = (Array.isArray(reply) && typeof reply[0] === 'string' ? reply[1] : (reply as Array<[string, Array<[string, string[]]>]>)[0]![1]) as Array<[string, string[]]>;
      for (const [, fields] of entries) JSON.parse(fields[fields.length - 1]!);
      await redis.xack(keys.events, 'raw', ...entries.map(([id]) => id));
      read += entries.length;
    }
    raw.push(rate(list.length, performance.now() - started));
    started = performance.now();
    const worker = await WorkerClient.connect({ redis: server.client(), botId: `consume-${round}`, consumer: 'bench', blockMs: 100 });
    worker.onChannelMessage(() => {});
    while (worker.stats().acked < list.length) await settle(5);
    ours.push(rate(list.length, performance.now() - started));
    await worker.close();
  }
  const ratio = median(ours) / median(raw);
  const target: TargetCheck = { target: "one worker's consume ≥ 0.4 of a raw XREADGROUP + XACK loop", measured: ratio.toFixed(2), met: ratio >= 0.4 };
  return {
    title: 'Scale-out: consume',
    body: [
      `${fmtInt(CONSUME)} events waiting in the stream, ${ROUNDS} rounds, medians; load ${load()}.`,
      '',
      '| | events/s |',
      '|---|---|',
      `| raw: XREADGROUP COUNT 512 + XACK per batch, JSON.parse of each payload | ${fmtRate(median(raw))} |`,
      `| WorkerClient: caches on (every event reduced), a listener per event, ack after it settles | ${fmtRate(median(ours))} |`,
      '',
      `Ratio **${ratio.toFixed(2)}** (target ≥ 0.4: ${target.met ? 'met' : 'missed'}).`,
    ].join('\n'),
    targets: [target],
  };
}

// ---------------- (c) CPU-bound handlers: 2 workers against 1 ----------------

function workerProcess(server: RedisServer, botId: string, consumer: string, env: Record<string, string>): Program {
  return startProgram(consumer, 'bench/support/scale-worker.ts', { REDIS_PORT: String(server.port), BOT_ID: botId, CONSUMER: consumer, ...env });
}

const ackedBy = (program: Program) => Number(program.said('acked ').at(-1) ?? 0);

async function cpuRun(server: RedisServer, workers: number, round: number): Promise<number> {
  const redis = server.client();
  const botId = `cpu-${workers}-${round}`;
  const keys = await botKeys(redis, botId);
  await redis.call('XGROUP', 'CREATE', keys.events, 'handlers', '0', 'MKSTREAM');
  const programs = Array.from({ length: workers }, (_, i) => workerProcess(server, botId, `busy-${i}`, { MODE: 'busy', BUSY_MS: '1' }));
  try {
    await Promise.all(programs.map((p) => p.waitFor('ready', 60_000)));
    const started = performance.now();
    await publishAll(redis, keys, events(BUSY));
    while (programs.reduce((sum, p) => sum + ackedBy(p), 0) < BUSY) await settle(5);
    return rate(BUSY, performance.now() - started);
  } finally {
    await Promise.all(programs.map((p) => p.kill()));
  }
}

async function cpuPart(server: RedisServer): Promise<BenchResult> {
  const one: number[] = [];
  const two: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    one.push(await cpuRun(server, 1, round));
    two.push(await cpuRun(server, 2, round));
  }
  const ratio = median(two) / median(one);
  const target: TargetCheck = { target: 'CPU-bound handlers (~1 ms): 2 workers ≥ 1.6× one', measured: `${ratio.toFixed(2)}×`, met: ratio >= 1.6 };
  return {
    title: 'Scale-out: CPU-bound handlers',
    body: [
      `${fmtInt(BUSY)} events, each handler spinning 1 ms of CPU; worker processes started and ready before the events are published; ${ROUNDS} rounds, medians; load ${load()}.`,
      '',
      '| | events/s |',
      '|---|---|',
      `| 1 worker process | ${fmtRate(median(one))} |`,
      `| 2 worker processes | ${fmtRate(median(two))} |`,
      '',
      `Speed-up **${ratio.toFixed(2)}×** (target ≥ 1.6×: ${target.met ? 'met' : 'missed'}).`,
    ].join('\n'),
    targets: [target],
  };
}

// ---------------- (d) latency at 5,000 events/s ----------------

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function latencyPart(server: RedisServer): Promise<BenchResult> {
  const redis = server.client();
  const botId = 'latency';
  const keys = await botKeys(redis, botId);
  await redis.call('XGROUP', 'CREATE', keys.events, 'handlers', '0', 'MKSTREAM');
  const program = workerProcess(server, botId, 'latency-0', { MODE: 'latency' });
  const total = 5_000 * LATENCY_SECONDS;
  const pub = publisher(redis, keys, 'bench-gateway');
  try {
    await program.waitFor('ready', 60_000);
    const template = events(1)[0]!;
    let sent = 0;
    const started = performance.now();
    // 5 events every millisecond on average: the sender catches up to the schedule each turn (about every millisecond).
    while (sent < total) {
      const due = Math.min(total, Math.floor((performance.now() - started) * 5));
      for (; sent < due; sent += 1) {
        const data = { ...(template.data as object), message_id: `lat-${sent}`, content: { t: String(now()) } };
        pub.publish(SESSION, { type: Events.ChannelMessage, seq: sent + 1, data } as ClanstreamEvent, 0);
      }
      // A timer, not setImmediate: a sender spinning on the event loop would take a core from Redis and the worker.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const elapsed = performance.now() - started;
    await pub.drained();
    const latencies = () => program.said('latency ').flatMap((line) => line.split(',').map(Number));
    while (latencies().length < total) await settle(20);
    const measured = latencies().slice(Math.floor(total / 10)).sort((a, b) => a - b);
    const p50 = percentile(measured, 50);
    const p99 = percentile(measured, 99);
    const targets: TargetCheck[] = [
      { target: 'latency p50 ≤ 1 ms at 5,000 events/s', measured: `${p50.toFixed(2)} ms`, met: p50 <= 1 },
      { target: 'latency p99 ≤ 10 ms at 5,000 events/s', measured: `${p99.toFixed(2)} ms`, met: p99 <= 10 },
    ];
    return {
      title: 'Scale-out: end-to-end latency',
      body: [
        `${fmtInt(total)} events at ${fmtRate(rate(total, elapsed))} (target rate 5,000/s), from the publish call in this process to the listener in a worker process (caches on); the first 10% are warm-up; load ${load()}.`,
        '',
        `| p50 | p90 | p99 | max |`,
        '|---|---|---|---|',
        `| ${p50.toFixed(2)} ms | ${percentile(measured, 90).toFixed(2)} ms | ${p99.toFixed(2)} ms | ${(measured.at(-1) ?? NaN).toFixed(2)} ms |`,
        '',
        `Targets p50 ≤ 1 ms (${targets[0]!.met ? 'met' : 'missed'}), p99 ≤ 10 ms (${targets[1]!.met ? 'met' : 'missed'}).`,
      ].join('\n'),
      targets,
    };
  } finally {
    await program.kill();
  }
}

// ---------------- (e) redelivery after a crash ----------------

async function redeliveryPart(server: RedisServer): Promise<BenchResult> {
  const redis = server.client();
  const botId = 'redelivery';
  const keys = await botKeys(redis, botId);
  await redis.call('XGROUP', 'CREATE', keys.events, 'handlers', '0', 'MKSTREAM');
  const claimIdleMs = 1_000;
  const claimIntervalMs = 200;
  const doomed = workerProcess(server, botId, 'doomed', { MODE: 'hang', CLAIM_IDLE_MS: String(claimIdleMs) });
  await doomed.waitFor('ready', 60_000);
  await publishAll(redis, keys, events(10));
  // Wait until the doomed worker holds them all.
  while (Number((await redis.call('XPENDING', keys.events, 'handlers') as [number])[0]) < 10) await settle(10);
  const rescuer = await WorkerClient.connect({ redis: server.client(), botId, consumer: 'rescuer', claimIdleMs, claimIntervalMs, blockMs: 100 });
  let firstAt = 0;
  rescuer.onChannelMessage(() => {
    firstAt ||= performance.now();
  });
  await doomed.kill();
  const killedAt = performance.now();
  while (rescuer.stats().acked < 10) await settle(5);
  await rescuer.close();
  const ms = firstAt - killedAt;
  const bound = claimIdleMs + claimIntervalMs + 1_000;
  const target: TargetCheck = { target: `redelivery after a crash ≤ idle + interval + 1 s (${bound} ms)`, measured: `${Math.round(ms)} ms`, met: ms <= bound };
  return {
    title: 'Scale-out: redelivery after a crash',
    body: [
      `A worker process takes 10 events and is killed (SIGKILL) with all of them in flight; another worker (claimIdleMs ${claimIdleMs}, claimIntervalMs ${claimIntervalMs}) runs the first of them **${Math.round(ms)} ms** after the kill, and all 10 once (target ≤ ${bound} ms: ${target.met ? 'met' : 'missed'}).`,
    ].join('\n'),
    targets: [target],
  };
}

export async function run(): Promise<BenchResult[]> {
  const server = await RedisServer.start({ appendOnly: false });
  const results: BenchResult[] = [];
  try {
    if (PARTS.includes('publish')) results.push(await publishPart(server));
    if (PARTS.includes('consume')) results.push(await consumePart(server));
    if (PARTS.includes('cpu')) results.push(await cpuPart(server));
    if (PARTS.includes('latency')) results.push(await latencyPart(server));
    if (PARTS.includes('redelivery')) results.push(await redeliveryPart(server));
  } finally {
    await server.stop();
  }
  return results;
}
