/**
 * A worker process for bench/scale.bench.ts. MODE (environment):
 * `busy` spins BUSY_MS of CPU per event; `latency` reports, per event, the
 * time since the sender stamped it (content.t holds the stamp, in ms of
 * performance.timeOrigin + now()); `hang` takes events and never finishes
 * them (the bench kills it). Prints "ready", then "acked <n>" every 100
 * acknowledgements and "latency <ms,ms,…>" batches.
 */
import { Redis } from 'ioredis';
import { WorkerClient } from '../../src/scale/index.js';

const mode = process.env.MODE ?? 'busy';
const busyMs = Number(process.env.BUSY_MS ?? 1);
const redis = new Redis(Number(process.env.REDIS_PORT), '127.0.0.1', { maxRetriesPerRequest: null });
const worker = await WorkerClient.connect({
  redis,
  botId: process.env.BOT_ID ?? '',
  consumer: process.env.CONSUMER ?? 'bench-worker',
  claimIdleMs: Number(process.env.CLAIM_IDLE_MS ?? 10_000),
  blockMs: 100,
});
const now = () => performance.timeOrigin + performance.now();
let latencies: number[] = [];
worker.onChannelMessage((m) => {
  if (mode === 'hang') return new Promise(() => {});
  if (mode === 'latency') {
    latencies.push(now() - Number(m.content.t));
    if (latencies.length >= 100) {
      console.log(`latency ${latencies.map((l) => l.toFixed(3)).join(',')}`);
      latencies = [];
    }
    return undefined;
  }
  const until = performance.now() + busyMs;
  while (performance.now() < until) {
    // CPU-bound work, as a handler that computes would do.
  }
  return undefined;
});
let reported = 0;
setInterval(() => {
  const acked = worker.stats().acked;
  if (acked !== reported) {
    reported = acked;
    console.log(`acked ${acked}`);
  }
  if (latencies.length > 0) {
    console.log(`latency ${latencies.map((l) => l.toFixed(3)).join(',')}`);
    latencies = [];
  }
}, 20).unref();
console.log('ready');
process.on('SIGTERM', () => void worker.close().then(() => process.exit(0)));
