/**
 * Inbound event throughput: a bench server pushes channel_message events
 * over loopback; how many events per second reach a
 * `client.stream(Events.ChannelMessage)` subscriber, against a baseline in
 * the same run that reads the same frames with a bare `ws` socket,
 * `JSON.parse` and an EventEmitter; the client with its default caches and
 * with message caching off. Targets: with message caches off at least 0.85
 * of the baseline (full frames) and 0.8 (compact frames); with the caches on
 * (this small world) at least 0.7. After the measured rounds, one more run of
 * each receiver is profiled (CPU, main thread) for the report.
 *
 * The producer is a bench server (bench/support/bench-server.ts) on its own
 * worker thread, not the emulator: the emulator stores and fans out every
 * message and is far slower than any consumer.
 *
 * Settings (environment): BENCH_INBOUND_EVENTS (200000), BENCH_INBOUND_ROUNDS (5),
 * BENCH_INBOUND_WARMUP (20000), BENCH_INBOUND_PRODUCER (`worker` or `inline`:
 * the server on this thread), BENCH_INBOUND_VARIANTS (`full,compact`).
 */
import { availableParallelism, loadavg } from 'node:os';
import type { BenchResult } from './run.js';
import { startBenchServer, type BenchServerHandle } from './support/bench-server.js';
import { buildChannelMessageFrames, type FrameSet, type FrameVariant } from './support/channel-message-frames.js';
import { baselineRun, baselineRunWith, clientRun, envInt, fmtExtra, fmtRate, fmtUs, median, rate, settle, verdictAtLeast } from './support/inbound-harness.js';
import { minimalCacheRun } from './support/minimal-cache-receiver.js';
import { profileLine } from './support/profile.js';
import { startBenchServerInWorker } from './support/worker-server.js';

/** Message caches off: full frames, compact frames. */
const LEAN_TARGET: Record<FrameVariant, number> = { full: 0.85, compact: 0.8 };
/** Caches on (defaults), in this small world. */
const CACHED_TARGET = 0.7;
const SEED = 0x5eed;

const EVENTS = envInt('BENCH_INBOUND_EVENTS', 200_000);
const ROUNDS = envInt('BENCH_INBOUND_ROUNDS', 5);
const WARMUP = Math.min(EVENTS, envInt('BENCH_INBOUND_WARMUP', 20_000));
const PRODUCER: 'worker' | 'inline' = process.env.BENCH_INBOUND_PRODUCER === 'inline' ? 'inline' : 'worker';
const VARIANTS: FrameVariant[] = (process.env.BENCH_INBOUND_VARIANTS ?? 'full,compact')
  .split(',')
  .map((v) => v.trim())
  .filter((v): v is FrameVariant => v === 'full' || v === 'compact');
/** A run that has not finished after this long is reported as failed rather than hanging the bench. */
const RUN_TIMEOUT_MS = 120_000;
/** Message caching off: no channel windows, no message store (clans, channels and users are still cached). */
const MESSAGE_CACHES_OFF = { caches: { messagesPerChannel: 0, messageStore: 0 } };

interface Server extends BenchServerHandle {
  payloadBytes: FrameSet['payloadBytes'];
  frameBytes: FrameSet['frameBytes'];
}

async function startServer(variant: FrameVariant): Promise<Server> {
  if (PRODUCER === 'worker') return startBenchServerInWorker({ frames: EVENTS, seed: SEED, variant });
  const set = buildChannelMessageFrames(EVENTS, SEED, variant);
  const server = await startBenchServer({ frames: set });
  return Object.assign(server, { payloadBytes: set.payloadBytes, frameBytes: set.frameBytes });
}

async function runVariant(variant: FrameVariant): Promise<BenchResult> {
  const server = await startServer(variant);
  const load = loadavg()[0] ?? 0;
  try {
    // Warm-up: every path, not reported.
    await baselineRun(server, WARMUP, RUN_TIMEOUT_MS);
    await clientRun(server, WARMUP, RUN_TIMEOUT_MS);
    await clientRun(server, WARMUP, RUN_TIMEOUT_MS, MESSAGE_CACHES_OFF);
    await minimalCacheRun(server, WARMUP, RUN_TIMEOUT_MS);

    const baselineMs: number[] = [];
    const cachedMs: number[] = [];
    const leanMs: number[] = [];
    const minimalMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await settle();
      baselineMs.push(await baselineRun(server, EVENTS, RUN_TIMEOUT_MS));
      await settle();
      cachedMs.push((await clientRun(server, EVENTS, RUN_TIMEOUT_MS)).ms);
      await settle();
      leanMs.push((await clientRun(server, EVENTS, RUN_TIMEOUT_MS, MESSAGE_CACHES_OFF)).ms);
      await settle();
      minimalMs.push(await minimalCacheRun(server, EVENTS, RUN_TIMEOUT_MS));
    }
    // One more run of each, profiled (not measured: the profiler slows what it watches).
    await settle();
    const baselineProfile = (await baselineRunWith(server, EVENTS, RUN_TIMEOUT_MS, true)).profile!;
    await settle();
    const cachedProfile = (await clientRun(server, EVENTS, RUN_TIMEOUT_MS, {}, true)).profile!;
    await settle();
    const leanProfile = (await clientRun(server, EVENTS, RUN_TIMEOUT_MS, MESSAGE_CACHES_OFF, true)).profile!;
    const stats = await server.stats();

    const baseline = rate(EVENTS, median(baselineMs));
    const cached = rate(EVENTS, median(cachedMs));
    const lean = rate(EVENTS, median(leanMs));
    const minimal = rate(EVENTS, median(minimalMs));
    // Each round's runs are adjacent in time, so their ratio is less exposed to drifting machine load.
    const paired = (ms: number[]) => median(ms.map((m, i) => baselineMs[i]! / m));
    const runs = (ms: number[]) => ms.map((m) => fmtRate(rate(EVENTS, m))).join(', ');
    const row = (what: string, eventsPerSecond: number, ms: number[]) =>
      `| ${what} | ${fmtRate(eventsPerSecond)} | ${fmtUs(eventsPerSecond)} | ${(eventsPerSecond / baseline).toFixed(2)} (paired ${paired(ms).toFixed(2)}) | ${runs(ms)} |`;

    const body = [
      `Workload: the bench server pushes ${EVENTS.toLocaleString('en-US')} \`channel_message\` events over loopback (127.0.0.1) to one gateway connection, writing as fast as the socket drains; the senders are 40 users of one clan, the messages spread over its 4 channels.`,
      variant === 'full'
        ? `Frames carry every ChannelMessage field, as the emulator sends them: payload ${server.payloadBytes.min}–${server.payloadBytes.max} bytes (mean ${server.payloadBytes.mean}), frame mean ${server.frameBytes.mean} bytes (with every field present a payload cannot be much under 500 bytes; the compact workload covers smaller frames).`
        : `Compact frames: what a server may omit (\`id\`, \`code\`, empty arrays and strings) is omitted and the client fills it in: payload ${server.payloadBytes.min}–${server.payloadBytes.max} bytes (mean ${server.payloadBytes.mean}), frame mean ${server.frameBytes.mean} bytes.`,
      `The same pre-built frames (byte-identical, seq 1…N on a fresh connection) go to every receiver; runs alternate (baseline, clanstream, clanstream without message caches, minimal caching receiver) × ${ROUNDS} after a ${WARMUP.toLocaleString('en-US')}-event warm-up of each; each figure is the median, timed from the trigger to the last event received. "Paired" is the median of the per-round ratios.`,
      `The producer is a bench server (\`bench/support/bench-server.ts\`, \`ws\` + \`node:http\`, speaking the protocol's login, handshake and push frames, writing pre-encoded WebSocket frames in 256 KiB slices so it costs next to nothing per frame) on ${PRODUCER === 'worker' ? 'a worker thread of the same process, so writing frames does not compete with receiving them' : 'the same thread as the receivers'}.`,
      '',
      '| Receiver | Median | Per event | Ratio to baseline | Runs |',
      '|---|---|---|---|---|',
      `| Baseline: bare \`ws\`, \`JSON.parse\`, EventEmitter | ${fmtRate(baseline)} | ${fmtUs(baseline)} | 1 | ${runs(baselineMs)} |`,
      row('clanstream, caches on (defaults): `client.stream(Events.ChannelMessage)`', cached, cachedMs),
      row('clanstream, message caches off (`caches: { messagesPerChannel: 0, messageStore: 0 }`)', lean, leanMs),
      row('Reference: minimal caching receiver (bare `ws`, `JSON.parse`, native Maps keeping the same caches and limits, frozen messages; bench/support/minimal-cache-receiver.ts)', minimal, minimalMs),
      '',
      `Targets: message caches off ≥ ${LEAN_TARGET[variant]} of the baseline — ${verdictAtLeast(lean / baseline, LEAN_TARGET[variant])}; caches on ≥ ${CACHED_TARGET} — ${verdictAtLeast(cached / baseline, CACHED_TARGET)}.`,
      `Per event, against the baseline, the client spends ${fmtExtra(lean, baseline)} without message caches and ${fmtExtra(cached, baseline)} with them; the minimal caching receiver, the least any client keeping these caches does, ${fmtExtra(minimal, baseline)} (clanstream with its caches on: ${(cached / minimal).toFixed(2)} of its rate).`,
      '',
      `Where the time goes (CPU profile of one more run of each, main thread, self time as a share of the non-idle samples; \`decodeFrame\` includes the frame's \`JSON.parse\`):`,
      '',
      `- baseline: ${profileLine(baselineProfile)}`,
      `- caches on: ${profileLine(cachedProfile)}`,
      `- message caches off: ${profileLine(leanProfile)}`,
      '',
      `Logins: ${stats.authentications}, session refreshes during the runs: ${stats.refreshes}. Load average when the runs started: ${load.toFixed(2)} (${availableParallelism()} cores); a loaded machine widens the spread between runs.`,
      '',
      `Run it: \`npm run bench -- inbound\`.`,
    ].join('\n');
    return {
      title: `Inbound event throughput (${variant} channel_message frames)`,
      body,
      targets: [
        { target: `message caches off: ≥ ${LEAN_TARGET[variant]} of the baseline`, measured: (lean / baseline).toFixed(2), met: lean / baseline >= LEAN_TARGET[variant] },
        { target: `caches on: ≥ ${CACHED_TARGET} of the baseline`, measured: (cached / baseline).toFixed(2), met: cached / baseline >= CACHED_TARGET },
      ],
    };
  } finally {
    await server.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const variant of VARIANTS) results.push(await runVariant(variant));
  return results;
}
