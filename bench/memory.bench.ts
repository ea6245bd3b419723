/**
 * Bounded memory over a long run: 1,000,000 channel_message events across
 * the large world (1,000 clans, 10,000 channels, 100,000 users) reach a
 * client with the default cache limits; after every 100,000 events the heap
 * is sampled after a forced full GC. The run happens in a child process
 * started with `--expose-gc` (bench/support/memory-child.ts); the bench
 * server runs on a worker thread of that child, so its memory is in another
 * V8 heap and not counted.
 * Target: the heap plateaus — growth over the last half (from the sample at
 * 500,000 events to the one at 1,000,000) below 10%.
 *
 * Settings (environment): BENCH_MEMORY_EVENTS (1000000), BENCH_MEMORY_BLOCK (100000),
 * BENCH_MEMORY_SPREADS (`zipf`; `zipf,uniform` adds the uniform spread).
 */
import { fork } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CACHE_LIMITS } from '../src/index.js';
import type { BenchResult } from './run.js';
import { envInt, fmtInt } from './support/inbound-harness.js';
import type { MemoryReport, MemorySample } from './support/memory-child.js';
import { LARGE_WORLD, type Distribution } from './support/world.js';

const TARGET = 0.1;
const EVENTS = envInt('BENCH_MEMORY_EVENTS', 1_000_000);
const BLOCK = envInt('BENCH_MEMORY_BLOCK', 100_000);
const SPREADS: Distribution[] = (process.env.BENCH_MEMORY_SPREADS ?? 'zipf')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is Distribution => s === 'zipf' || s === 'uniform');

function runChild(spread: Distribution): Promise<MemoryReport> {
  const child = fork(fileURLToPath(new URL('./support/memory-child.ts', import.meta.url)), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, BENCH_MEMORY_EVENTS: String(EVENTS), BENCH_MEMORY_BLOCK: String(BLOCK), BENCH_MEMORY_SPREAD: spread },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    child.on('message', (message: { ok: true; report: MemoryReport } | { ok: false; message: string }) => {
      settled = true;
      if (message.ok) resolve(message.report);
      else reject(new Error(`the memory child failed: ${message.message}`));
    });
    child.on('exit', (code) => {
      if (!settled) reject(new Error(`the memory child exited (${code ?? 'signal'}) without a report`));
    });
  });
}

const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

function describe(report: MemoryReport, loadAtStart: number): BenchResult {
  const { samples } = report;
  const mid = samples.find((s) => s.events >= report.events / 2) ?? samples[0]!;
  const last = samples[samples.length - 1]!;
  const growth = (last.heapUsed - mid.heapUsed) / mid.heapUsed;
  const met = growth < TARGET;
  const firstHalfGrowth = (mid.heapUsed - report.afterLogin.heapUsed) / report.afterLogin.heapUsed;
  const row = (s: MemorySample) =>
    `| ${fmtInt(s.events)} | ${mib(s.heapUsed)} | ${mib(s.rss)} | ${fmtInt(s.caches.channels)} | ${fmtInt(s.caches.users)} | ${fmtInt(s.caches.messages)} in ${fmtInt(s.caches.windows)} | ${fmtInt(s.caches.messageStore)} | ${s.blockRate ? fmtInt(s.blockRate) : '—'} |`;
  const maxHeap = Math.max(...samples.map((s) => s.heapUsed));
  const minHeap = Math.min(...samples.filter((s) => s.events >= report.events / 2).map((s) => s.heapUsed));
  const body = [
    `Workload: ${fmtInt(report.events)} \`channel_message\` events (every field) over the large world (${fmtInt(LARGE_WORLD.clans)} clans, ${fmtInt(LARGE_WORLD.channels)} channels, ${fmtInt(LARGE_WORLD.users)} users, synced at login), channels and senders picked **${report.spread === 'zipf' ? 'Zipf-like (1/rank)' : 'uniformly'}**, pushed in blocks of ${fmtInt(report.block)} by the bench server (frames encoded as written, on a worker thread) to one client with the default cache limits (${fmtInt(CACHE_LIMITS.messagesPerChannel)} per channel, ${fmtInt(CACHE_LIMITS.messages)} messages, ${fmtInt(CACHE_LIMITS.users)} users, ${fmtInt(CACHE_LIMITS.channels)} channels, message store ${fmtInt(CACHE_LIMITS.messageStore)}) and one \`stream(Events.ChannelMessage)\` subscriber.`,
    `After each block the child process (\`node --expose-gc\`) forces a full GC (twice) and samples \`process.memoryUsage()\` of the thread that holds the client (the bench server's worker has its own heap, not counted).`,
    '',
    '| Events | Heap used | RSS (process) | Channels | Users | Messages (windows) | Message store | Block ev/s |',
    '|---|---|---|---|---|---|---|---|',
    row(report.afterLogin),
    ...samples.map(row),
    '',
    `Baseline in the same run: the heap after ${fmtInt(mid.events)} events, ${mib(mid.heapUsed)} (after login with the world synced, before any event: ${mib(report.afterLogin.heapUsed)}; the first half grew it by ${(firstHalfGrowth * 100).toFixed(1)}% as the caches filled to their limits).`,
    `Last half: ${mib(mid.heapUsed)} → ${mib(last.heapUsed)}, ratio **${(last.heapUsed / mid.heapUsed).toFixed(3)}**, growth **${(growth * 100).toFixed(1)}%** (range over the last half ${mib(minHeap)}–${mib(maxHeap)}). Target: growth < ${TARGET * 100}% — ${met ? `**met** (${(growth * 100).toFixed(1)}% < ${TARGET * 100}%: the heap plateaus)` : `**missed** by ${((growth - TARGET) * 100).toFixed(1)} points (${(growth * 100).toFixed(1)}% ≥ ${TARGET * 100}%)`}.`,
    `Login with the sync of the world: ${fmtInt(report.loginMs)} ms. Load average at the start: ${loadAtStart.toFixed(2)}, at the end (1, 5, 15 min): ${report.load.map((l) => l.toFixed(2)).join(', ')} (${availableParallelism()} cores).`,
    '',
    'Run it: `npm run bench -- memory`.',
  ].join('\n');
  return {
    title: `Memory over ${fmtInt(report.events)} events, default cache limits (${report.spread} spread)`,
    body,
    targets: [{ target: `heap growth over the last half < ${TARGET * 100}%`, measured: `${(growth * 100).toFixed(1)}%`, met }],
  };
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const spread of SPREADS) {
    const loadAtStart = loadavg()[0] ?? 0;
    results.push(describe(await runChild(spread), loadAtStart));
  }
  return results;
}
