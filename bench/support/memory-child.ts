/**
 * The measured part of bench/memory.bench.ts, in a child process started
 * with `--expose-gc`: a client with default cache limits logs in to a bench
 * server serving the large world, receives `BENCH_MEMORY_EVENTS` channel
 * messages in blocks, and after each block forces a full GC and samples the
 * heap. Reports through IPC (`process.send`).
 *
 * Input (environment): BENCH_MEMORY_EVENTS, BENCH_MEMORY_BLOCK, BENCH_MEMORY_SPREAD.
 */
import { Events, ServiceClient } from '../../src/index.js';
import { benchClientConfig, counter } from './inbound-harness.js';
import { LARGE_WORLD, type Distribution } from './world.js';
import { startBenchServerInWorker } from './worker-server.js';

export interface MemorySample {
  events: number;
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
  caches: { channels: number; users: number; messages: number; windows: number; messageStore: number };
  /** Receive rate of the block, events/s. */
  blockRate: number;
}

export interface MemoryReport {
  spread: Distribution;
  events: number;
  block: number;
  loginMs: number;
  /** Heap with the world synced, before any event. */
  afterLogin: MemorySample;
  samples: MemorySample[];
  load: number[];
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('memory-child must run with --expose-gc');
const send = process.send?.bind(process);
if (!send) throw new Error('memory-child must be started with an IPC channel (fork)');

const EVENTS = Number(process.env.BENCH_MEMORY_EVENTS ?? 1_000_000);
const BLOCK = Number(process.env.BENCH_MEMORY_BLOCK ?? 100_000);
const SPREAD: Distribution = process.env.BENCH_MEMORY_SPREAD === 'uniform' ? 'uniform' : 'zipf';

function fullGc(): void {
  // Twice: the first pass may leave objects that only become unreachable after finalizers ran.
  gc!();
  gc!();
}

const { loadavg } = await import('node:os');
const server = await startBenchServerInWorker({ frames: EVENTS, seed: 0x3e3, variant: 'full', world: { shape: LARGE_WORLD, seed: 0x3011d, distribution: SPREAD, lazy: true } });
const client = new ServiceClient(benchClientConfig(server));
const errors: string[] = [];
client.errors$.subscribe((error) => errors.push(`${error.name}: ${error.message}`));
let outcome: { ok: true; report: MemoryReport } | { ok: false; message: string };
try {
  const loginStarted = performance.now();
  await client.login();
  const loginMs = performance.now() - loginStarted;
  const token = client.sessionManager.getSession()?.token;
  if (!token) throw new Error('no session after login');
  let received = 0;
  let pending: ReturnType<typeof counter> | undefined;
  client.stream(Events.ChannelMessage).subscribe(() => {
    received += 1;
    pending?.hit();
  });

  const sample = (events: number, blockRate: number): MemorySample => {
    fullGc();
    const usage = process.memoryUsage();
    const { state } = client;
    const store = client.messageStore as { size?: number };
    return {
      events,
      heapUsed: usage.heapUsed,
      heapTotal: usage.heapTotal,
      rss: usage.rss,
      external: usage.external,
      caches: { channels: state.channels.size, users: state.users.size, messages: state.messageCount, windows: state.messages.size, messageStore: store.size ?? -1 },
      blockRate,
    };
  };

  const afterLogin = sample(0, 0);
  const samples: MemorySample[] = [];
  for (let from = 0; from < EVENTS; from += BLOCK) {
    const count = Math.min(BLOCK, EVENTS - from);
    pending = counter(count, `events ${from + 1}..${from + count}`, 900_000);
    const started = performance.now();
    await Promise.all([pending.done, server.push(token, count, from)]);
    const ms = performance.now() - started;
    if (client.gateway.lastSequence !== from + count) throw new Error(`last seq ${client.gateway.lastSequence}, expected ${from + count}`);
    const s = sample(received, (count * 1000) / ms);
    samples.push(s);
    process.stderr.write(`  ${SPREAD}: ${s.events} events, heap ${(s.heapUsed / 2 ** 20).toFixed(1)} MiB, ${Math.round(s.blockRate)} ev/s\n`);
  }
  if (errors.length > 0) throw new Error(`client errors: ${errors.slice(0, 3).join(' | ')}`);
  const report: MemoryReport = { spread: SPREAD, events: EVENTS, block: BLOCK, loginMs, afterLogin, samples, load: loadavg() };
  outcome = { ok: true, report };
} catch (error) {
  outcome = { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
} finally {
  client.destroy();
  await server.close();
}
await new Promise<void>((resolve) => send(outcome, undefined, undefined, () => resolve()));
process.disconnect?.();
