/**
 * The outbox, two ways.
 *
 * (a) Pacing against the emulator: 50 actions/s for 20 s. A bot sends
 * burst + 50 × 20 messages at once through `TextChannel.send` (so through the
 * outbox at its default rate, 50/s with a burst of 20) to a channel of an
 * emulator on the same machine. Targets: the paced rate is at least 0.98 of
 * the limit (and never above it), nothing is lost (every send acknowledged,
 * the emulator stores exactly that many), order is kept (acks settle in send
 * order, message ids grow in send order, the emulator stores them and the
 * bot receives its own messages in send order).
 *
 * (b) Throughput with the limit off (`outbox: { ratePerSecond: null }`):
 * acknowledged `channel_message_send`s per second through
 * `client.outbox.enqueue`, against a raw baseline in the same run — a bare
 * `ws` socket sending the same frames with cids and waiting for each ack,
 * keeping as many in flight as the outbox's `maxInFlight` — both against the
 * same bench server (worker thread; it acknowledges at once and stores
 * nothing). Target: at least 0.8 of the baseline. One more outbox run after
 * the rounds is profiled (CPU, main thread) for the report.
 *
 * Settings (environment): BENCH_OUTBOX_SECONDS (20), BENCH_OUTBOX_SENDS (50000),
 * BENCH_OUTBOX_ROUNDS (7; runs of a loaded 2-core machine vary by ±15%), BENCH_OUTBOX_PARTS (`paced,unlimited`).
 */
import { availableParallelism, loadavg } from 'node:os';
import { WebSocket } from 'ws';
import { Events, OUTBOX_DEFAULTS, ServiceClient, type ChannelMessage } from '../src/index.js';
import { startEmulator } from '../src/emulator/index.js';
import type { BenchResult } from './run.js';
import { BENCH_CLAN_ID, CHANNEL_IDS } from './support/channel-message-frames.js';
import { benchClientConfig, envInt, fmtInt, fmtRate, load, median, rate, settle, verdictAtLeast } from './support/inbound-harness.js';
import type { BenchServerHandle } from './support/bench-server.js';
import { profiled, profileLine, type ProfileSummary } from './support/profile.js';
import { startBenchServerInWorker } from './support/worker-server.js';

const PACED_TARGET = 0.98;
const UNLIMITED_TARGET = 0.8;
const SECONDS = envInt('BENCH_OUTBOX_SECONDS', 20);
const SENDS = envInt('BENCH_OUTBOX_SENDS', 50_000);
const ROUNDS = envInt('BENCH_OUTBOX_ROUNDS', 7);
const WARMUP = Math.min(SENDS, 5_000);
const PARTS = (process.env.BENCH_OUTBOX_PARTS ?? 'paced,unlimited').split(',').map((p) => p.trim());
const bigId = (id: string): bigint => BigInt(id);

// ---------------- (a) paced, against the emulator ----------------

async function paced(): Promise<BenchResult> {
  const limit = OUTBOX_DEFAULTS.ratePerSecond!;
  const burst = OUTBOX_DEFAULTS.burst;
  const total = burst + limit * SECONDS;
  const loadAtStart = loadavg()[0] ?? 0;
  const emu = await startEmulator();
  const bot = emu.createBot({ username: 'outboxbot' });
  const clan = emu.createClan({ name: 'Outbox bench', ownerId: bot.botId });
  const url = new URL(emu.url);
  const client = new ServiceClient({ botId: bot.botId, token: bot.token, host: url.hostname, port: url.port, useSSL: false, mmnApiUrl: `${emu.url}/mmn`, zkApiUrl: `${emu.url}/zk` });
  const errors: string[] = [];
  client.errors$.subscribe((e) => errors.push(`${e.name}: ${e.message}`));
  try {
    await client.login();
    const channel = await client.channels.fetch(clan.welcome_channel_id);
    const echoes: string[] = [];
    const echoSub = client.stream(Events.ChannelMessage).subscribe((m: ChannelMessage) => {
      if (m.sender_id === bot.botId) echoes.push(String((m.content as { t?: string }).t ?? ''));
    });

    const settledOrder: number[] = [];
    const ackAt = new Array<number>(total);
    const ids = new Array<string>(total);
    const failures: string[] = [];
    const t0 = performance.now();
    const sends: Array<Promise<void>> = [];
    for (let i = 0; i < total; i++) {
      sends.push(
        channel.send({ t: `paced ${i}` }).then(
          (message) => {
            ackAt[i] = performance.now() - t0;
            ids[i] = message.id;
            settledOrder.push(i);
          },
          (error: unknown) => {
            failures.push(`#${i}: ${error instanceof Error ? error.message : String(error)}`);
          },
        ),
      );
    }
    await Promise.all(sends);
    const elapsedMs = performance.now() - t0;
    // Let the last echoes arrive.
    for (let i = 0; i < 100 && echoes.length < total; i++) await settle(20);
    echoSub.unsubscribe();

    const acked = ackAt.filter((t) => t !== undefined).length;
    const lastAck = Math.max(...ackAt.filter((t) => t !== undefined));
    const pacedRate = ((total - burst) * 1000) / lastAck;
    const overallRate = (total * 1000) / lastAck;
    // Most sends the server received in any 1-second window that starts after the burst was spent. Read at the
    // server (its wire log), as a server's rate limit sees them: ack times also carry each round trip's jitter.
    const received = emu.wire
      .frames('channel_message_send')
      .filter((e) => e.userId === bot.botId)
      .map((e) => e.at);
    const firstSend = received[0] ?? 0;
    const sorted = received.map((at) => at - firstSend).sort((a, b) => a - b);
    let maxWindow = 0;
    let lo = 0;
    for (let hi = 0; hi < sorted.length; hi++) {
      while (sorted[hi]! - sorted[lo]! >= 1000) lo++;
      if (sorted[lo]! >= 1000) maxWindow = Math.max(maxWindow, hi - lo + 1);
    }
    const inOrder = settledOrder.every((v, i) => v === i);
    const idsGrow = ids.every((id, i) => i === 0 || (id !== undefined && ids[i - 1] !== undefined && bigId(id) > bigId(ids[i - 1]!)));
    const stored = emu.messages(clan.welcome_channel_id).filter((m) => m.sender_id === bot.botId);
    const storedTexts = stored.map((m) => String((m.content as { t?: string }).t ?? ''));
    const expected = Array.from({ length: total }, (_, i) => `paced ${i}`);
    const storedInOrder = storedTexts.length === total && storedTexts.every((t, i) => t === expected[i]);
    const echoesInOrder = echoes.length === total && echoes.every((t, i) => t === expected[i]);
    const rateMet = pacedRate / limit >= PACED_TARGET && maxWindow <= limit + 1;
    const lossless = acked === total && failures.length === 0 && stored.length === total && new Set(storedTexts).size === total;
    const ordered = inOrder && idsGrow && storedInOrder && echoesInOrder;
    const ratio = pacedRate / limit;

    const body = [
      `Workload: a bot logged in to the emulator (in this process, loopback) sends ${fmtInt(total)} messages (${burst} burst + ${limit}/s × ${SECONDS} s) to one channel with \`TextChannel.send\`, all queued at once; the outbox runs at its defaults (${limit} actions/s, burst ${burst}, ${OUTBOX_DEFAULTS.maxInFlight} in flight). Timed from the first call to the last acknowledgement.`,
      '',
      '| Measure | Value |',
      '|---|---|',
      `| Paced rate: (sends − burst) / time to the last ack | **${pacedRate.toFixed(2)}/s** (limit ${limit}/s) |`,
      `| All sends / time to the last ack (burst included) | ${overallRate.toFixed(2)}/s |`,
      `| Most sends received by the server in any 1 s window after the first second | ${maxWindow} (limit ${limit}; ${fmtInt(received.length)} sends in its wire log) |`,
      `| Time to the last ack / all promises settled | ${(lastAck / 1000).toFixed(2)} s / ${(elapsedMs / 1000).toFixed(2)} s |`,
      `| Acknowledged / sent / failed | ${fmtInt(acked)} / ${fmtInt(total)} / ${failures.length}${failures.length ? ` (${failures.slice(0, 2).join('; ')})` : ''} |`,
      `| Stored by the emulator (distinct texts) | ${fmtInt(stored.length)} (${fmtInt(new Set(storedTexts).size)}) |`,
      `| Own messages received back | ${fmtInt(echoes.length)} |`,
      `| Acks settled in send order / message ids grow in send order | ${inOrder ? 'yes' : 'NO'} / ${idsGrow ? 'yes' : 'NO'} |`,
      `| Stored in send order / received back in send order | ${storedInOrder ? 'yes' : 'NO'} / ${echoesInOrder ? 'yes' : 'NO'} |`,
      '',
      `Baseline: the configured limit, ${limit}/s. Ratio paced rate / limit: **${ratio.toFixed(3)}**. Targets: rate ≥ ${PACED_TARGET} of the limit and not above it — ${rateMet ? `**met** (${ratio.toFixed(3)} ≥ ${PACED_TARGET}; at most ${maxWindow} sends received in any later second)` : ratio < PACED_TARGET ? `**missed** by ${(PACED_TARGET - ratio).toFixed(3)} (${ratio.toFixed(3)} < ${PACED_TARGET})` : `**missed**: ${maxWindow} sends in one second exceed the limit`}; nothing lost — ${lossless ? '**met**' : '**missed**'}; order kept — ${ordered ? '**met**' : '**missed**'}.`,
      `Client errors during the run: ${errors.length}. Load average at the start: ${loadAtStart.toFixed(2)}, at the end (1, 5, 15 min): ${load()} (${availableParallelism()} cores).`,
      '',
      'Run it: `npm run bench -- outbox` (only this part: `BENCH_OUTBOX_PARTS=paced npm run bench -- outbox`).',
    ].join('\n');
    return {
      title: `Outbox pacing: ${limit} actions/s for ${SECONDS} s against the emulator`,
      body,
      targets: [
        { target: `rate ≥ ${PACED_TARGET} of the limit, not above it`, measured: `${ratio.toFixed(3)} (at most ${maxWindow} sends in a second)`, met: rateMet },
        { target: 'nothing lost', measured: lossless ? 'none lost' : 'lost some', met: lossless },
        { target: 'order kept', measured: ordered ? 'kept' : 'not kept', met: ordered },
      ],
    };
  } finally {
    client.destroy();
    await emu.close();
  }
}

// ---------------- (b) unlimited, against the bench server ----------------

const sendPayload = (i: number) => ({ clan_id: BENCH_CLAN_ID, channel_id: CHANNEL_IDS[i % CHANNEL_IDS.length]!, content: { t: `bench message ${i}` } });

let rawConnections = 0;

/** A bare socket: channel_message_send frames with cids, `concurrency` in flight, each ack parsed and matched. */
async function rawRun(server: BenchServerHandle, count: number, concurrency: number): Promise<{ ms: number; ordered: boolean }> {
  rawConnections += 1;
  const token = `raw-${rawConnections}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${token}&protocol=1`);
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as Record<string, unknown>;
      if ('hello' in frame) ws.send(JSON.stringify({ cid: 'start', start: {} }));
      else if ('ready' in frame) resolve();
    });
  });
  ws.removeAllListeners('message');
  let sent = 0;
  let acked = 0;
  let ordered = true;
  let lastAcked = -1;
  const pending = new Map<string, number>();
  const sendOne = () => {
    const i = sent++;
    const cid = `r${i}`;
    pending.set(cid, i);
    ws.send(JSON.stringify({ cid, channel_message_send: { ...sendPayload(i), idempotency_key: `${token}-${i}` } }));
  };
  const started = performance.now();
  const ended = await new Promise<number>((resolve, reject) => {
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { cid?: string; channel_message_ack?: unknown; error?: { message: string } };
      const i = frame.cid === undefined ? undefined : pending.get(frame.cid);
      if (i === undefined) return;
      pending.delete(frame.cid!);
      if (!frame.channel_message_ack) return reject(new Error(`raw send ${i} failed: ${frame.error?.message ?? 'unknown reply'}`));
      if (i !== lastAcked + 1) ordered = false;
      lastAcked = i;
      acked += 1;
      if (acked === count) resolve(performance.now());
      else if (sent < count) sendOne();
    });
    for (let k = 0; k < Math.min(concurrency, count); k++) sendOne();
  });
  await new Promise<void>((resolve) => {
    ws.once('close', () => resolve());
    ws.close(1000);
  });
  return { ms: ended - started, ordered };
}

/** A logged-in client with the limit off: `count` sends through the outbox, kept up to `ahead` queued by a producer. */
async function outboxRun(server: BenchServerHandle, count: number, ahead = 1_000, profile = false): Promise<{ ms: number; ordered: boolean; maxInFlight: number; profile?: ProfileSummary }> {
  const client = new ServiceClient(benchClientConfig(server, { outbox: { ratePerSecond: null } }));
  try {
    await client.login();
    const outbox = client.outbox;
    // Read at each ack (most in flight is when an ack arrives), not through stats$: a subscriber would cost the outbox work per send.
    let maxInFlight = 0;
    let enqueued = 0;
    let acked = 0;
    let ordered = true;
    let lastAcked = -1;
    let lastId = 0n;
    const timed = () => new Promise<number>((resolve, reject) => {
      const started = performance.now();
      const enqueueOne = () => {
        const i = enqueued++;
        outbox.enqueue('channel_message_send', sendPayload(i)).then((ack) => {
          if (acked % 64 === 0) maxInFlight = Math.max(maxInFlight, outbox.current.inFlight);
          const id = BigInt(ack.message_id);
          if (i !== lastAcked + 1 || id <= lastId) ordered = false;
          lastAcked = i;
          lastId = id;
          acked += 1;
          if (acked === count) resolve(performance.now() - started);
          else if (enqueued < count) enqueueOne();
        }, reject);
      };
      for (let k = 0; k < Math.min(ahead, count); k++) enqueueOne();
    });
    const run = profile ? await profiled(timed) : { result: await timed(), profile: undefined };
    return { ms: run.result, ordered, maxInFlight, ...(run.profile ? { profile: run.profile } : {}) };
  } finally {
    client.destroy();
  }
}

async function unlimited(): Promise<BenchResult> {
  const concurrency = OUTBOX_DEFAULTS.maxInFlight;
  const server = await startBenchServerInWorker({ frames: 1, seed: 1, variant: 'full' });
  const loadAtStart = loadavg()[0] ?? 0;
  try {
    await rawRun(server, WARMUP, concurrency);
    await outboxRun(server, WARMUP);
    const rawMs: number[] = [];
    const outboxMs: number[] = [];
    let allOrdered = true;
    let maxInFlight = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await settle();
      const raw = await rawRun(server, SENDS, concurrency);
      await settle();
      const out = await outboxRun(server, SENDS);
      rawMs.push(raw.ms);
      outboxMs.push(out.ms);
      allOrdered &&= raw.ordered && out.ordered;
      maxInFlight = Math.max(maxInFlight, out.maxInFlight);
      console.log(`  unlimited round ${round + 1}: raw ${fmtRate(rate(SENDS, raw.ms), 'acks/s')}, outbox ${fmtRate(rate(SENDS, out.ms), 'acks/s')} (load ${load()})`);
    }
    await settle();
    const outboxProfile = (await outboxRun(server, SENDS, 1_000, true)).profile!;
    const stats = await server.stats();
    const baseline = rate(SENDS, median(rawMs));
    const outbox = rate(SENDS, median(outboxMs));
    const ratio = outbox / baseline;
    const paired = median(outboxMs.map((ms, i) => rawMs[i]! / ms));
    const runs = (ms: number[]) => ms.map((m) => fmtRate(rate(SENDS, m), 'acks/s')).join(', ');
    const body = [
      `Workload: ${fmtInt(SENDS)} \`channel_message_send\` requests per run (short text, one of four channels) to a bench server on a worker thread that acknowledges each at once (\`channel_message_ack\`, nothing stored or pushed back). Runs alternate (raw, outbox) × ${ROUNDS} after a ${fmtInt(WARMUP)}-send warm-up of each; medians; timed from the first send to the last ack.`,
      `clanstream: a logged-in client with \`outbox: { ratePerSecond: null }\` (maxInFlight ${concurrency}, the default; most in flight, sampled every 64 acks: ${maxInFlight}); a producer keeps up to 1,000 sends queued through \`client.outbox.enqueue\` (each gets an idempotency key; each ack resolves its promise). Baseline: a bare \`ws\` socket sending the same frames with cids (and an idempotency key), ${concurrency} in flight, each ack parsed and matched by cid before the next send.`,
      '',
      '| Sender | Median | Per send | Runs |',
      '|---|---|---|---|',
      `| Baseline: bare \`ws\`, ${concurrency} in flight | ${fmtRate(baseline, 'acks/s')} | ${(1e6 / baseline).toFixed(2)} µs | ${runs(rawMs)} |`,
      `| clanstream outbox, limit off | ${fmtRate(outbox, 'acks/s')} | ${(1e6 / outbox).toFixed(2)} µs | ${runs(outboxMs)} |`,
      '',
      `Ratio outbox / baseline (of the medians): **${ratio.toFixed(2)}**; median of the per-round ratios: ${paired.toFixed(2)}. Target: ≥ ${UNLIMITED_TARGET} — ${verdictAtLeast(ratio, UNLIMITED_TARGET)}. Acks in send order on both sides: ${allOrdered ? 'yes' : 'NO'}; sends acknowledged by the server: ${fmtInt(stats.sends)}.`,
      '',
      `Where the outbox's time goes (CPU profile of one more run, main thread, self time as a share of the non-idle samples): ${profileLine(outboxProfile)}.`,
      '',
      `Load average at the start: ${loadAtStart.toFixed(2)}, at the end (1, 5, 15 min): ${load()} (${availableParallelism()} cores).`,
      '',
      'Run it: `npm run bench -- outbox` (only this part: `BENCH_OUTBOX_PARTS=unlimited npm run bench -- outbox`).',
    ].join('\n');
    return {
      title: 'Outbox throughput with the rate limit off',
      body,
      targets: [{ target: `≥ ${UNLIMITED_TARGET} of the raw baseline`, measured: ratio.toFixed(2), met: ratio >= UNLIMITED_TARGET }],
    };
  } finally {
    await server.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  if (PARTS.includes('paced')) results.push(await paced());
  if (PARTS.includes('unlimited')) results.push(await unlimited());
  return results;
}
