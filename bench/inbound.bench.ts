/**
 * Inbound event throughput: a bench server pushes channel_message events
 * over loopback; how many events per second reach a
 * `client.stream(Events.ChannelMessage)` subscriber, against a baseline in
 * the same run that reads the same frames with a bare `ws` socket,
 * `JSON.parse` and an EventEmitter. Target: at least 0.8 of the baseline.
 *
 * The producer is a bench server (bench/support/bench-server.ts) on its own
 * worker thread, not the emulator: the emulator stores and fans out every
 * message and is far slower than any consumer.
 *
 * Settings (environment): BENCH_INBOUND_EVENTS (200000), BENCH_INBOUND_ROUNDS (5),
 * BENCH_INBOUND_WARMUP (20000), BENCH_INBOUND_PRODUCER (`worker` or `inline`:
 * the server on this thread), BENCH_INBOUND_VARIANTS (`full,compact`).
 */
import { EventEmitter } from 'node:events';
import { availableParallelism, loadavg } from 'node:os';
import { WebSocket } from 'ws';
import { Events, ServiceClient } from '../src/index.js';
import type { BenchResult } from './run.js';
import { startBenchServer, type BenchServerHandle } from './support/bench-server.js';
import { BENCH_BOT_ID, buildChannelMessageFrames, type FrameSet, type FrameVariant } from './support/channel-message-frames.js';
import { startBenchServerInWorker } from './support/worker-server.js';

const TARGET = 0.8;
const SEED = 0x5eed;

function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

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

/** Resolves with `performance.now()` when `count` events arrived; rejects after RUN_TIMEOUT_MS. */
function counter(count: number, what: string): { hit: () => void; done: Promise<number> } {
  let received = 0;
  let resolve!: (at: number) => void;
  let reject!: (error: Error) => void;
  const done = new Promise<number>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const timer = setTimeout(() => reject(new Error(`${what}: only ${received} of ${count} events arrived within ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
  return {
    hit: () => {
      received += 1;
      if (received === count) {
        clearTimeout(timer);
        resolve(performance.now());
      }
    },
    done,
  };
}

let baselineConnections = 0;

/** Bare `ws` + JSON.parse + EventEmitter: ms from the trigger to the count-th event. */
async function baselineRun(server: Server, count: number): Promise<number> {
  baselineConnections += 1;
  const token = `baseline-${baselineConnections}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${token}&protocol=1`);
  // Handshake (not timed): hello → start → ready.
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if ('hello' in frame) ws.send(JSON.stringify({ cid: '1', start: {} }));
      else if ('ready' in frame) resolve();
      else reject(new Error(`baseline handshake: unexpected ${data.toString()}`));
    });
  });
  ws.removeAllListeners('message');
  ws.removeAllListeners('error');

  const events = new EventEmitter();
  const count$ = counter(count, 'baseline');
  events.on('channel_message', count$.hit);
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return;
    const frame = JSON.parse(data.toString()) as { channel_message?: unknown };
    events.emit('channel_message', frame.channel_message);
  });

  const started = performance.now();
  const [ended] = await Promise.all([count$.done, server.push(token, count)]);
  await new Promise<void>((resolve) => {
    ws.once('close', () => resolve());
    ws.close(1000);
  });
  return ended - started;
}

/** ServiceClient logged in to the bench server, one `stream(Events.ChannelMessage)` subscriber. */
async function clientRun(server: Server, count: number): Promise<number> {
  const client = new ServiceClient({ botId: BENCH_BOT_ID, token: 'bench-api-key', host: '127.0.0.1', port: String(server.port), useSSL: false });
  const errors: string[] = [];
  const errorSubscription = client.errors$.subscribe((error) => errors.push(`${error.name}: ${error.message}`));
  try {
    await client.login();
    const count$ = counter(count, 'clanstream');
    const subscription = client.stream(Events.ChannelMessage).subscribe(count$.hit);
    const token = client.sessionManager.getSession()?.token;
    if (!token) throw new Error('the client has no session after login');

    const started = performance.now();
    const [ended] = await Promise.all([count$.done, server.push(token, count)]).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; client errors: ${errors.slice(0, 3).join(' | ') || 'none'}`);
    });
    subscription.unsubscribe();
    if (client.gateway.lastSequence !== count) throw new Error(`the client's last seq is ${client.gateway.lastSequence}, expected ${count}`);
    if (errors.length > 0) throw new Error(`the client reported errors during the run: ${errors.slice(0, 3).join(' | ')}`);
    return ended - started;
  } finally {
    errorSubscription.unsubscribe();
    client.destroy();
  }
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const rate = (count: number, ms: number): number => (count * 1000) / ms;
const fmtRate = (eventsPerSecond: number): string => `${Math.round(eventsPerSecond).toLocaleString('en-US')} ev/s`;
const fmtUs = (eventsPerSecond: number): string => `${(1e6 / eventsPerSecond).toFixed(2)} µs`;
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 50));

async function runVariant(variant: FrameVariant): Promise<BenchResult> {
  const server = await startServer(variant);
  const load = loadavg()[0] ?? 0;
  try {
    // Warm-up: both paths, not reported.
    await baselineRun(server, WARMUP);
    await clientRun(server, WARMUP);

    const baselineMs: number[] = [];
    const clientMs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await settle();
      baselineMs.push(await baselineRun(server, EVENTS));
      await settle();
      clientMs.push(await clientRun(server, EVENTS));
    }
    const stats = await server.stats();

    const baseline = rate(EVENTS, median(baselineMs));
    const client = rate(EVENTS, median(clientMs));
    const ratio = client / baseline;
    const met = ratio >= TARGET;
    const extraUs = 1e6 / client - 1e6 / baseline;
    // Each round's runs are adjacent in time, so their ratio is less exposed to drifting machine load.
    const pairedRatio = median(clientMs.map((ms, i) => baselineMs[i]! / ms));
    const verdict = met
      ? `**met** (${ratio.toFixed(2)} ≥ ${TARGET})`
      : `**missed** by ${(TARGET - ratio).toFixed(2)} (${ratio.toFixed(2)} < ${TARGET}; the client would need ${fmtRate(baseline * TARGET)}, ${(((baseline * TARGET) / client - 1) * 100).toFixed(0)}% more)`;
    const runs = (ms: number[]) => ms.map((m) => fmtRate(rate(EVENTS, m))).join(', ');

    const body = [
      `Workload: the bench server pushes ${EVENTS.toLocaleString('en-US')} \`channel_message\` events over loopback (127.0.0.1) to one gateway connection, writing as fast as the socket drains.`,
      variant === 'full'
        ? `Frames carry every ChannelMessage field, as the emulator sends them: payload ${server.payloadBytes.min}–${server.payloadBytes.max} bytes (mean ${server.payloadBytes.mean}), frame mean ${server.frameBytes.mean} bytes (with every field present a payload cannot be much under 500 bytes; the compact workload covers smaller frames).`
        : `Compact frames: what a server may omit (\`id\`, \`code\`, empty arrays and strings) is omitted and the client fills it in: payload ${server.payloadBytes.min}–${server.payloadBytes.max} bytes (mean ${server.payloadBytes.mean}), frame mean ${server.frameBytes.mean} bytes.`,
      `The same pre-built frames (byte-identical, seq 1…N on a fresh connection) go to both receivers; runs alternate (baseline, clanstream) × ${ROUNDS} after a ${WARMUP.toLocaleString('en-US')}-event warm-up of each; each figure is the median, timed from the trigger to the last event received.`,
      `The producer is a bench server (\`bench/support/bench-server.ts\`, \`ws\` + \`node:http\`, speaking the protocol's login, handshake and push frames, writing pre-encoded WebSocket frames in 256 KiB slices so it costs next to nothing per frame) on ${PRODUCER === 'worker' ? 'a worker thread of the same process, so writing frames does not compete with receiving them' : 'the same thread as the receivers'}; the emulator stores and fans out every message and is far too slow a producer for this.`,
      '',
      '| Receiver | Median | Per event | Runs |',
      '|---|---|---|---|',
      `| Baseline: bare \`ws\`, \`JSON.parse\`, EventEmitter | ${fmtRate(baseline)} | ${fmtUs(baseline)} | ${runs(baselineMs)} |`,
      `| clanstream: \`client.stream(Events.ChannelMessage)\` | ${fmtRate(client)} | ${fmtUs(client)} | ${runs(clientMs)} |`,
      '',
      `Ratio clanstream / baseline (of the medians): **${ratio.toFixed(2)}** (the client spends ${extraUs.toFixed(2)} µs more per event); median of the per-round ratios: ${pairedRatio.toFixed(2)}. Target: ≥ ${TARGET} — ${verdict}.`,
      `Logins: ${stats.authentications}, session refreshes during the runs: ${stats.refreshes}. Load average when the runs started: ${load.toFixed(2)} (${availableParallelism()} cores); a loaded machine widens the spread between runs.`,
      '',
      `Run it: \`npm run bench -- inbound\`.`,
    ].join('\n');
    return { title: `Inbound event throughput (${variant} channel_message frames)`, body };
  } finally {
    await server.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const variant of VARIANTS) results.push(await runVariant(variant));
  return results;
}
