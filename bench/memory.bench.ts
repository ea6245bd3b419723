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
 * Then heap bytes per cached message and per cached user
 * (bench/support/entry-bytes-child.ts, another child): target, each at most
 * twice the bytes of its JSON on the wire.
 *
 * Settings (environment): BENCH_MEMORY_EVENTS (1000000), BENCH_MEMORY_BLOCK (100000),
 * BENCH_MEMORY_SPREADS (`zipf`; `zipf,uniform` adds the uniform spread),
 * BENCH_ENTRY_EVENTS (100000), BENCH_MEMORY_PARTS (`plateau,entries`).
 */
import { fork } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CACHE_LIMITS } from '../src/index.js';
import type { BenchResult } from './run.js';
import { envInt, fmtInt } from './support/inbound-harness.js';
import type { EntryBytesReport } from './support/entry-bytes-child.js';
import type { MemoryReport, MemorySample } from './support/memory-child.js';
import { LARGE_WORLD, type Distribution } from './support/world.js';

const TARGET = 0.1;
/** Heap bytes per cached message or user, at most this many times the bytes of its JSON on the wire. */
const ENTRY_TARGET = 2;
const ENTRY_EVENTS = envInt('BENCH_ENTRY_EVENTS', 100_000);
const PARTS = (process.env.BENCH_MEMORY_PARTS ?? 'plateau,entries').split(',').map((p) => p.trim());
const EVENTS = envInt('BENCH_MEMORY_EVENTS', 1_000_000);
const BLOCK = envInt('BENCH_MEMORY_BLOCK', 100_000);
const SPREADS: Distribution[] = (process.env.BENCH_MEMORY_SPREADS ?? 'zipf')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is Distribution => s === 'zipf' || s === 'uniform');

/** Runs a child of bench/support (started with --expose-gc) and resolves with the report it sends. */
function runChild<R>(file: string, env: Record<string, string>): Promise<R> {
  const child = fork(fileURLToPath(new URL(`./support/${file}`, import.meta.url)), [], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    child.on('message', (message: { ok: true; report: R } | { ok: false; message: string }) => {
      settled = true;
      if (message.ok) resolve(message.report);
      else reject(new Error(`${file} failed: ${message.message}`));
    });
    child.on('exit', (code) => {
      if (!settled) reject(new Error(`${file} exited (${code ?? 'signal'}) without a report`));
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

function describeEntries(report: EntryBytesReport, loadAtStart: number): BenchResult {
  const { users, messages } = report;
  const userRatio = users.perEntry / users.wireBytes;
  const messageRatio = messages.perEntry / messages.wireBytes;
  const verdict = (ratio: number) => (ratio <= ENTRY_TARGET ? `**met** (${ratio.toFixed(2)} ≤ ${ENTRY_TARGET})` : `**missed** (${ratio.toFixed(2)} > ${ENTRY_TARGET})`);
  const body = [
    `Workload: two clients, one after the other, log in to a bench server serving the large world (${fmtInt(LARGE_WORLD.clans)} clans, ${fmtInt(LARGE_WORLD.channels)} channels, ${fmtInt(LARGE_WORLD.users)} users) and receive the same ${fmtInt(report.events)} \`channel_message\` events (every field; channels and senders Zipf-like), in a child process (\`node --expose-gc\`); the heap is sampled after a full GC, after login and after the events, with the client still alive.`,
    `Users: the client with message caching off (\`caches: { messagesPerChannel: 0, messageStore: 0 }\`); what its heap grew by is what the users it cached cost (their records, the users map, their recency). Messages: the client with the default caches; what its heap grew by beyond the first client's is what the messages cost (the records and what they hold, the channel windows, the message store), divided by the distinct messages held.`,
    '',
    '| Cached | Held | Heap grown | Heap per entry | JSON on the wire | Ratio | Target ≤ 2× |',
    '|---|---:|---:|---:|---:|---:|---|',
    `| users | ${fmtInt(users.held)} | ${fmtInt(users.heapBytes)} B | **${fmtInt(users.perEntry)} B** | ${fmtInt(users.wireBytes)} B (\`GET /v2/users/{id}\`, mean) | ${userRatio.toFixed(2)} | ${verdict(userRatio)} |`,
    `| messages | ${fmtInt(messages.held)} (${fmtInt(messages.inWindows)} in windows, ${fmtInt(messages.onlyInStore)} only in the message store) | ${fmtInt(messages.heapBytes)} B | **${fmtInt(messages.perEntry)} B** | ${fmtInt(messages.wireBytes)} B (payload, mean) | ${messageRatio.toFixed(2)} | ${verdict(messageRatio)} |`,
    '',
    `A kept message shares what it would hold twice (src/state/message-record.ts): its empty lists are one frozen array, and its strings equal to its cached channel's and sender's are those strings; records are flat and frozen. Load average at the start: ${loadAtStart.toFixed(2)} (${availableParallelism()} cores).`,
    '',
    'Run it: `BENCH_MEMORY_PARTS=entries npm run bench -- memory`.',
  ].join('\n');
  return {
    title: 'Heap bytes per cached message and per cached user',
    body,
    targets: [
      { target: `heap per cached user ≤ ${ENTRY_TARGET}× its JSON on the wire`, measured: `${fmtInt(users.perEntry)} B (${userRatio.toFixed(2)}×)`, met: userRatio <= ENTRY_TARGET },
      { target: `heap per cached message ≤ ${ENTRY_TARGET}× its JSON on the wire`, measured: `${fmtInt(messages.perEntry)} B (${messageRatio.toFixed(2)}×)`, met: messageRatio <= ENTRY_TARGET },
    ],
  };
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  if (PARTS.includes('plateau')) {
    for (const spread of SPREADS) {
      const loadAtStart = loadavg()[0] ?? 0;
      const report = await runChild<MemoryReport>('memory-child.ts', { BENCH_MEMORY_EVENTS: String(EVENTS), BENCH_MEMORY_BLOCK: String(BLOCK), BENCH_MEMORY_SPREAD: spread });
      results.push(describe(report, loadAtStart));
    }
  }
  if (PARTS.includes('entries')) {
    const loadAtStart = loadavg()[0] ?? 0;
    results.push(describeEntries(await runChild<EntryBytesReport>('entry-bytes-child.ts', { BENCH_ENTRY_EVENTS: String(ENTRY_EVENTS) }), loadAtStart));
  }
  return results;
}
