/**
 * Inbound throughput in production mode: a stand-in of the platform's
 * servers on 127.0.0.1 (test/production/support/mini-platform.ts) pushes
 * channel_message events as protobuf Envelopes; how many per second reach a
 * `client.stream(Events.ChannelMessage)` subscriber of a ServiceClient with
 * `protocol: production()`, against a baseline in the same run that reads
 * the same frames with a bare `ws` socket, decodes each Envelope with the
 * same schema (`fromBinary`) and emits it to one subscriber. Targets
 * (sdk-2.8.44): message caches off at least 0.8 of the baseline, caches on
 * at least 0.5. A second section (sdk-2.8.37, era B) adds the platform's web
 * client codec (mezon-js-protobuf 1.10.20, from test/compat) as a reference
 * row, when it is installed. After the measured rounds, one more run of each
 * receiver is profiled (CPU, main thread) for the report.
 *
 * Settings (environment): BENCH_PROD_INBOUND_EVENTS (100000),
 * BENCH_PROD_INBOUND_ROUNDS (5), BENCH_PROD_INBOUND_WARMUP (20000).
 */
import { availableParallelism, loadavg } from 'node:os';
import { MiniPlatform } from '../test/production/support/mini-platform.js';
import type { BenchResult } from './run.js';
import { envInt, fmtExtra, fmtRate, fmtUs, median, rate, settle, verdictAtLeast } from './support/inbound-harness.js';
import { baselineRun, buildEnvelopeFrames, loadWebSocketAdapter, productionClientRun, webCodecRun, type EnvelopeFrames, type LaterDialect, type RunResult } from './support/production-inbound.js';
import { profileLine } from './support/profile.js';

const LEAN_TARGET = 0.8;
const CACHED_TARGET = 0.5;
const SEED = 0x5eed;
const EVENTS = envInt('BENCH_PROD_INBOUND_EVENTS', 100_000);
const ROUNDS = envInt('BENCH_PROD_INBOUND_ROUNDS', 5);
const WARMUP = Math.min(EVENTS, envInt('BENCH_PROD_INBOUND_WARMUP', 20_000));
/** A run that has not finished after this long is reported as failed rather than hanging the bench. */
const RUN_TIMEOUT_MS = 120_000;

type Receiver = (frames: EnvelopeFrames, profile?: boolean) => Promise<RunResult>;

interface Row {
  what: string;
  run: Receiver;
  ms: number[];
}

async function measure(platform: MiniPlatform, dialect: LaterDialect): Promise<{ rows: Row[]; load: number; frames: EnvelopeFrames; profiles: string[] }> {
  const frames = buildEnvelopeFrames(dialect, EVENTS, SEED);
  const warmup = buildEnvelopeFrames(dialect, WARMUP, SEED + 1);
  const rows: Row[] = [
    { what: `Baseline: bare \`ws\`, \`fromBinary\` with the ${dialect} Envelope schema, EventEmitter`, run: (f, p) => baselineRun(platform, dialect, f, RUN_TIMEOUT_MS, p), ms: [] },
    { what: `clanstream \`production({ dialect: '${dialect}' })\`, message caches off (\`caches: { messagesPerChannel: 0, messageStore: 0 }\`)`, run: (f, p) => productionClientRun(platform, dialect, f, RUN_TIMEOUT_MS, true, p), ms: [] },
    { what: `clanstream \`production({ dialect: '${dialect}' })\`, caches on (defaults)`, run: (f, p) => productionClientRun(platform, dialect, f, RUN_TIMEOUT_MS, false, p), ms: [] },
  ];
  const Adapter = dialect === 'sdk-2.8.37' ? loadWebSocketAdapter() : undefined;
  if (Adapter) rows.push({ what: 'Reference: the web client\'s socket adapter (mezon-js-protobuf 1.10.20 `WebSocketAdapterPb` over a `ws` socket, its own Envelope codec), EventEmitter', run: (f, p) => webCodecRun(Adapter, platform, f, RUN_TIMEOUT_MS, p), ms: [] });
  else if (dialect === 'sdk-2.8.37') console.warn('production-inbound: mezon-js-protobuf 1.10.20 is not installed in test/compat; the web codec row is left out');
  const load = loadavg()[0] ?? 0;
  for (const row of rows) await row.run(warmup);
  for (let round = 0; round < ROUNDS; round++) {
    for (const row of rows) {
      await settle();
      row.ms.push((await row.run(frames)).ms);
    }
  }
  const profiles: string[] = [];
  for (const row of rows) {
    await settle();
    profiles.push(`- ${row.what.split(',')[0]!.split(' (')[0]}${row.what.includes('caches on') ? ', caches on' : row.what.includes('caches off') ? ', caches off' : ''}: ${profileLine((await row.run(frames, true)).profile!)}`);
  }
  return { rows, load, frames, profiles };
}

async function section(dialect: LaterDialect): Promise<BenchResult> {
  const platform = await MiniPlatform.start(dialect);
  try {
    const { rows, load, frames, profiles } = await measure(platform, dialect);
    const [base, lean, cached, web] = rows as [Row, Row, Row, Row | undefined];
    const baseline = rate(EVENTS, median(base.ms));
    const runs = (ms: number[]) => ms.map((m) => fmtRate(rate(EVENTS, m))).join(', ');
    const paired = (ms: number[], to: number[]) => median(ms.map((m, i) => to[i]! / m));
    const line = (row: Row) => {
      const r = rate(EVENTS, median(row.ms));
      const toWeb = web && row !== web ? ` | ${(r / rate(EVENTS, median(web.ms))).toFixed(2)}` : web ? ' | 1' : '';
      return `| ${row.what} | ${fmtRate(r)} | ${fmtUs(r)} | ${row === base ? '1' : `${(r / baseline).toFixed(2)} (paired ${paired(row.ms, base.ms).toFixed(2)})`}${toWeb} | ${runs(row.ms)} |`;
    };
    const leanRatio = rate(EVENTS, median(lean.ms)) / baseline;
    const cachedRatio = rate(EVENTS, median(cached.ms)) / baseline;
    const leanRate = rate(EVENTS, median(lean.ms));
    const cachedRate = rate(EVENTS, median(cached.ms));
    const held = dialect === 'sdk-2.8.44';
    const body = [
      `Workload: the stand-in platform (\`test/production/support/mini-platform.ts\`, \`ws\` + \`node:http\` on 127.0.0.1, the same thread as the receivers) pushes ${EVENTS.toLocaleString('en-US')} \`channel_message\` Envelopes in the ${dialect} wire (built as \`test/production/support/push-frames.ts\` builds pushes: 40 senders, one clan and channel, short chat texts; Envelope ${frames.envelopeBytes.min}–${frames.envelopeBytes.max} bytes, mean ${frames.envelopeBytes.mean}) to one socket, pre-encoded as WebSocket binary frames and written in 256 KiB slices cut at frame boundaries, so writing costs next to nothing per frame.`,
      `Every receiver gets the same bytes; runs alternate (${rows.length} receivers) × ${ROUNDS} after a ${WARMUP.toLocaleString('en-US')}-event warm-up of each; each figure is the median, timed from the first write to the last event received. "Paired" is the median of the per-round ratios.`,
      '',
      `| Receiver | Median | Per event | Ratio to baseline |${web ? ' Ratio to the web codec |' : ''} Runs |`,
      `|---|---|---|---|${web ? '---|' : ''}---|`,
      ...rows.map(line),
      '',
      held
        ? `Targets: message caches off ≥ ${LEAN_TARGET} of the baseline — ${verdictAtLeast(leanRatio, LEAN_TARGET)}; caches on ≥ ${CACHED_TARGET} — ${verdictAtLeast(cachedRatio, CACHED_TARGET)}.`
        : `No target of its own (the targets are held in sdk-2.8.44): message caches off ${leanRatio.toFixed(2)} of the baseline, caches on ${cachedRatio.toFixed(2)}${web ? `; against the web client's codec, ${(leanRate / rate(EVENTS, median(web.ms))).toFixed(2)} and ${(cachedRate / rate(EVENTS, median(web.ms))).toFixed(2)}` : ''}.`,
      `Per event, against the baseline, the client spends ${fmtExtra(leanRate, baseline)} without message caches and ${fmtExtra(cachedRate, baseline)} with them.`,
      '',
      'Where the time goes (CPU profile of one more run of each, main thread, self time as a share of the non-idle samples; the stand-in server shares the thread, its writes included):',
      '',
      ...profiles,
      '',
      `Load average when the runs started: ${load.toFixed(2)} (${availableParallelism()} cores); a loaded machine widens the spread between runs.`,
      '',
      'Run it: `npx tsx bench/run.ts production-inbound`.',
    ].join('\n');
    return {
      title: `Production inbound throughput (${dialect} channel_message Envelopes)`,
      body,
      targets: held
        ? [
            { target: `message caches off: ≥ ${LEAN_TARGET} of the baseline`, measured: leanRatio.toFixed(2), met: leanRatio >= LEAN_TARGET },
            { target: `caches on: ≥ ${CACHED_TARGET} of the baseline`, measured: cachedRatio.toFixed(2), met: cachedRatio >= CACHED_TARGET },
          ]
        : [],
    };
  } finally {
    await platform.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  return [await section('sdk-2.8.44'), await section('sdk-2.8.37')];
}
