/**
 * Inbound throughput with the caches on, in a large world: the bench server
 * serves the client's initial sync for 1,000 clans, 10,000 channels (skewed:
 * 2 to ~1,000 per clan) and 100,000 users, then pushes 200,000
 * channel_message events spread over those channels and senders. How many
 * events per second reach a `client.stream(Events.ChannelMessage)`
 * subscriber (every event reduced into the caches first: channels, users,
 * the per-channel message windows, the message store, LRU bounds), against
 * the raw baseline of inbound.bench.ts (bare `ws` + JSON.parse +
 * EventEmitter) reading the same frames in the same run.
 * Target: at least 0.6 of the baseline. Two spreads: Zipf-like (weight
 * 1/rank over channels and over senders) and uniform. A reference receiver
 * runs in the same rounds: the least a JavaScript client can do and keep the
 * same caches (bench/support/minimal-cache-receiver.ts). After the rounds,
 * one more run of the baseline and of clanstream is profiled (CPU, main
 * thread) for the report.
 *
 * Settings (environment): BENCH_CACHES_EVENTS (200000), BENCH_CACHES_ROUNDS (3),
 * BENCH_CACHES_WARMUP (20000), BENCH_CACHES_SPREADS (`zipf,uniform`).
 */
import { availableParallelism, loadavg } from 'node:os';
import { CACHE_LIMITS } from '../src/index.js';
import type { BenchResult } from './run.js';
import { baselineRun, baselineRunWith, clientRun, envInt, fmtExtra, fmtInt, fmtRate, fmtUs, load, median, rate, settle, verdictAtLeast, type ClientRunResult } from './support/inbound-harness.js';
import { minimalCacheRun } from './support/minimal-cache-receiver.js';
import { profileLine } from './support/profile.js';
import { channelsPerClan, generator, LARGE_WORLD, type Distribution } from './support/world.js';
import { startBenchServerInWorker, type WorkerBenchServer } from './support/worker-server.js';

const TARGET = 0.6;
const SEED = 0xcac4e5;
const WORLD_SEED = 0x3011d;
const EVENTS = envInt('BENCH_CACHES_EVENTS', 200_000);
const ROUNDS = envInt('BENCH_CACHES_ROUNDS', 3);
const WARMUP = Math.min(EVENTS, envInt('BENCH_CACHES_WARMUP', 20_000));
const SPREADS: Distribution[] = (process.env.BENCH_CACHES_SPREADS ?? 'zipf,uniform')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is Distribution => s === 'zipf' || s === 'uniform');
const RUN_TIMEOUT_MS = 600_000;
/** What caching messages costs: the same client with message windows and the message store off. */
const WITHOUT_MESSAGES = { caches: { messagesPerChannel: 0, messageStore: 0 } };

async function runSpread(distribution: Distribution): Promise<BenchResult> {
  const server: WorkerBenchServer = await startBenchServerInWorker({
    frames: EVENTS,
    seed: SEED,
    variant: 'full',
    world: { shape: LARGE_WORLD, seed: WORLD_SEED, distribution },
  });
  const loadAtStart = loadavg()[0] ?? 0;
  try {
    await baselineRun(server, WARMUP, RUN_TIMEOUT_MS);
    await clientRun(server, WARMUP, RUN_TIMEOUT_MS);
    await clientRun(server, WARMUP, RUN_TIMEOUT_MS, WITHOUT_MESSAGES);
    await minimalCacheRun(server, WARMUP, RUN_TIMEOUT_MS);

    const baselineMs: number[] = [];
    const clientRuns: ClientRunResult[] = [];
    const leanMs: number[] = [];
    const minimalMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await settle();
      baselineMs.push(await baselineRun(server, EVENTS, RUN_TIMEOUT_MS));
      await settle();
      clientRuns.push(await clientRun(server, EVENTS, RUN_TIMEOUT_MS));
      await settle();
      leanMs.push((await clientRun(server, EVENTS, RUN_TIMEOUT_MS, WITHOUT_MESSAGES)).ms);
      await settle();
      minimalMs.push(await minimalCacheRun(server, EVENTS, RUN_TIMEOUT_MS));
      console.log(
        `  ${distribution} round ${round + 1}: baseline ${fmtRate(rate(EVENTS, baselineMs[round]!))}, clanstream ${fmtRate(rate(EVENTS, clientRuns[round]!.ms))}, without message caches ${fmtRate(rate(EVENTS, leanMs[round]!))}, minimal caching receiver ${fmtRate(rate(EVENTS, minimalMs[round]!))} (load ${load()})`,
      );
    }
    const loadAtEnd = load();
    await settle();
    const baselineProfile = (await baselineRunWith(server, EVENTS, RUN_TIMEOUT_MS, true)).profile!;
    await settle();
    const clientProfile = (await clientRun(server, EVENTS, RUN_TIMEOUT_MS, {}, true)).profile!;
    const stats = await server.stats();
    const clientMs = clientRuns.map((r) => r.ms);
    const baseline = rate(EVENTS, median(baselineMs));
    const client = rate(EVENTS, median(clientMs));
    const ratio = client / baseline;
    const lean = rate(EVENTS, median(leanMs));
    const minimal = rate(EVENTS, median(minimalMs));
    const pairedRatio = median(clientMs.map((ms, i) => baselineMs[i]! / ms));
    const runs = (ms: number[]) => ms.map((m) => fmtRate(rate(EVENTS, m))).join(', ');
    const spread = server.spread!;
    const caches = clientRuns[clientRuns.length - 1]!.caches;
    const loginMs = median(clientRuns.map((r) => r.loginMs));

    const body = [
      `Workload: a world of ${fmtInt(LARGE_WORLD.clans)} clans, ${fmtInt(LARGE_WORLD.channels)} clan channels (2 to ${fmtInt(maxChannels())} per clan, skewed), ${fmtInt(LARGE_WORLD.dmChannels)} DM channels and ${fmtInt(LARGE_WORLD.users)} users, served over REST by the bench server for the client's initial sync (every page of every list; not timed).`,
      `Then ${fmtInt(EVENTS)} \`channel_message\` events (every field, as the emulator sends them; frame mean ${server.frameBytes.mean} bytes, payload ${server.payloadBytes.min}–${server.payloadBytes.max} bytes) are pushed over loopback as fast as the socket drains; channels and senders are picked **${distribution === 'zipf' ? 'Zipf-like (weight 1/rank, ranks shuffled over the ids)' : 'uniformly'}**: ${fmtInt(spread.distinctChannels)} distinct channels and ${fmtInt(spread.distinctSenders)} distinct senders; the busiest 1% of channels get ${(spread.topChannelShare * 100).toFixed(1)}% of the events, the busiest 1% of senders ${(spread.topSenderShare * 100).toFixed(1)}%.`,
      `Caches on with the default limits (${fmtInt(CACHE_LIMITS.messagesPerChannel)} messages per channel, ${fmtInt(CACHE_LIMITS.messages)} messages, ${fmtInt(CACHE_LIMITS.users)} users, ${fmtInt(CACHE_LIMITS.channels)} channels, message store ${fmtInt(CACHE_LIMITS.messageStore)}); after a run they held ${fmtInt(caches.clans)} clans, ${fmtInt(caches.channels)} channels, ${fmtInt(caches.users)} users and ${fmtInt(caches.messages)} messages in ${fmtInt(caches.windows)} windows. Login (authentication, initial sync, connection, ${fmtInt(LARGE_WORLD.clans)} clan joins): median ${fmtInt(loginMs)} ms.`,
      `Same pre-built frames (seq 1…N on a fresh connection) for every receiver; runs alternate (baseline, clanstream, clanstream without message caches, minimal caching receiver) × ${ROUNDS} after a ${fmtInt(WARMUP)}-event warm-up of each; each figure is the median, timed from the trigger to the last event received. Producer: the bench server on a worker thread.`,
      '',
      '| Receiver | Median | Per event | Runs |',
      '|---|---|---|---|',
      `| Baseline: bare \`ws\`, \`JSON.parse\`, EventEmitter | ${fmtRate(baseline)} | ${fmtUs(baseline)} | ${runs(baselineMs)} |`,
      `| clanstream, caches on: \`client.stream(Events.ChannelMessage)\` | ${fmtRate(client)} | ${fmtUs(client)} | ${runs(clientMs)} |`,
      `| clanstream, message caches off (\`caches: { messagesPerChannel: 0, messageStore: 0 }\`; clans, channels and users still cached) | ${fmtRate(lean)} | ${fmtUs(lean)} | ${runs(leanMs)} |`,
      `| Reference: minimal caching receiver (bare \`ws\`, \`JSON.parse\`, native Maps keeping the same caches and limits, frozen messages) | ${fmtRate(minimal)} | ${fmtUs(minimal)} | ${runs(minimalMs)} |`,
      '',
      `Ratio clanstream / baseline (of the medians): **${ratio.toFixed(2)}** (the client spends ${fmtExtra(client, baseline)} per event); median of the per-round ratios: ${pairedRatio.toFixed(2)}. Target: ≥ ${TARGET} — ${verdictAtLeast(ratio, TARGET)}.`,
      `Without the message caches: ${(lean / baseline).toFixed(2)} of the baseline. The minimal caching receiver reaches ${(minimal / baseline).toFixed(2)} of the baseline, and clanstream ${(client / minimal).toFixed(2)} of it: keeping ${fmtInt(CACHE_LIMITS.messages)} messages means every message outlives the young generation of V8's heap (the garbage collector copies and later marks and sweeps each one; the baseline drops every message at once), and in a world of ${fmtInt(LARGE_WORLD.channels)} channels and ${fmtInt(LARGE_WORLD.users)} users each event's lookups (its channel, its sender, their recency, its window) miss the processor's caches.`,
      '',
      `Where the time goes (CPU profile of one more run of each, main thread, self time as a share of the non-idle samples; \`decodeFrame\` includes the frame's \`JSON.parse\`):`,
      '',
      `- baseline: ${profileLine(baselineProfile)}`,
      `- clanstream, caches on: ${profileLine(clientProfile)}`,
      '',
      `Logins: ${stats.authentications}, refreshes: ${stats.refreshes}, REST requests: ${fmtInt(stats.restRequests)}. Load average (1, 5, 15 min) at the start: ${loadAtStart.toFixed(2)}, at the end: ${loadAtEnd} (${availableParallelism()} cores); a loaded machine widens the spread between runs.`,
      '',
      'Run it: `npm run bench -- caches`.',
    ].join('\n');
    return {
      title: `Inbound throughput with caches on, large world (${distribution} spread)`,
      body,
      targets: [{ target: `caches on: ≥ ${TARGET} of the raw baseline`, measured: ratio.toFixed(2), met: ratio >= TARGET }],
    };
  } finally {
    await server.close();
  }
}

function maxChannels(): number {
  // The same draw as buildWorld: channel counts come first from the world's generator.
  return Math.max(...channelsPerClan(LARGE_WORLD.clans, LARGE_WORLD.channels, generator(WORLD_SEED)));
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const spread of SPREADS) results.push(await runSpread(spread));
  return results;
}
