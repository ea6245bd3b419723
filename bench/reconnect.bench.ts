/**
 * Reconnect recovery: while a user of the emulator keeps writing in a
 * channel, the emulator cuts every gateway socket (`dropConnections`, no
 * close frame) again and again. Measured: the time from each cut to the
 * first event delivered after it (the replay of what was missed, or the next
 * live event), and whether every message reached the subscriber exactly once
 * and in order (events lost must be 0).
 *
 * Baseline, in the same run: a bare `ws` client that reconnects at once on
 * close and sends `resume` with its last seq, the fastest recovery the
 * protocol allows. clanstream is measured twice: with its defaults (the first
 * retry waits a random delay in [0, 500 ms), so many bots cut at once do not
 * return at once), and with `random: () => 0` (no jitter: the cost of the
 * client's own recovery path).
 *
 * Settings (environment): BENCH_RECONNECT_DROPS (20), BENCH_RECONNECT_GAP_MS
 * (600: time between cuts), BENCH_RECONNECT_RATE (500 messages/s).
 */
import { availableParallelism, loadavg } from 'node:os';
import WebSocket from 'ws';
import { Events, ServiceClient, type ClientConfigDto } from '../src/index.js';
import { createTestWorld, type TestWorld } from '../src/testing/index.js';
import type { BenchResult } from './run.js';
import { envInt, fmtInt, load, median } from './support/inbound-harness.js';

const DROPS = envInt('BENCH_RECONNECT_DROPS', 20);
const GAP_MS = envInt('BENCH_RECONNECT_GAP_MS', 600);
const RATE = envInt('BENCH_RECONNECT_RATE', 500);
/** A cut not recovered from after this long fails the run rather than hanging it. */
const RECOVERY_TIMEOUT_MS = 30_000;

/** What a receiver under test does: connect, record each alice message id as it is delivered, close. */
interface Receiver {
  readonly name: string;
  start(world: TestWorld, onMessage: (id: string) => void): Promise<void>;
  close(): Promise<void>;
}

interface RunResult {
  recoveriesMs: number[];
  sent: number;
  delivered: number;
  lost: number;
  duplicates: number;
  outOfOrder: number;
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** The clanstream client as a receiver. */
function clanstream(name: string, overrides: Partial<ClientConfigDto>): Receiver {
  let client: ServiceClient | undefined;
  return {
    name,
    async start(world, onMessage) {
      client = world.client(overrides);
      client.stream(Events.ChannelMessage).subscribe((m) => {
        if (m.username === 'alice') onMessage(m.message_id);
      });
      await client.login();
    },
    async close() {
      client?.destroy();
    },
  };
}

/** A bare socket that reconnects at once and resumes from its last seq: the protocol's floor. */
function rawResumer(): Receiver {
  let socket: WebSocket | undefined;
  let closed = false;
  return {
    name: 'Baseline: bare `ws`, reconnect at once, `resume` with the last seq',
    async start(world, onMessage) {
      const { emu, bot } = world;
      const res = await fetch(`${emu.url}/v2/apps/authenticate/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${bot.token}:`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ account: { appid: bot.botId, token: bot.token } }),
      });
      const session = (await res.json()) as { token: string; ws_url: string };
      let sessionId: string | undefined;
      let lastSeq = 0;
      const clanId = world.clan?.id ?? '';
      await new Promise<void>((ready) => {
        const open = () => {
          const ws = new WebSocket(`${session.ws_url}/ws?token=${session.token}&protocol=1`);
          socket = ws;
          ws.on('message', (data: Buffer) => {
            const frame = JSON.parse(data.toString()) as Record<string, unknown>;
            if ('hello' in frame) {
              ws.send(JSON.stringify(sessionId ? { cid: 'r', resume: { session_id: sessionId, seq: lastSeq } } : { cid: 's', start: {} }));
            } else if ('ready' in frame) {
              sessionId = (frame.ready as { session_id: string }).session_id;
              ws.send(JSON.stringify({ cid: 'j', clan_join: { clan_id: clanId } }));
            } else if ('clan_joined' in frame) {
              ready();
            } else if (typeof frame.seq === 'number' && frame.seq > lastSeq) {
              lastSeq = frame.seq;
              const message = frame.channel_message as { username?: string; message_id?: string } | undefined;
              if (message?.username === 'alice' && message.message_id) onMessage(message.message_id);
            }
          });
          ws.on('close', () => {
            if (!closed) open();
          });
          ws.on('error', () => undefined); // the close that follows reconnects
        };
        open();
      });
    },
    async close() {
      closed = true;
      socket?.close(1000);
    },
  };
}

async function measure(receiver: Receiver): Promise<RunResult> {
  const world = await createTestWorld();
  try {
    const general = world.channels.general?.channel_id ?? '';
    const alice = world.as('alice');
    const delivered: string[] = [];
    let waiting: ((at: number) => void) | undefined;
    await receiver.start(world, (id) => {
      delivered.push(id);
      waiting?.(performance.now());
    });

    // The producer: RATE messages per second in small batches (a timer cannot fire every 2 ms reliably).
    const sent: string[] = [];
    let produced = 0;
    const startedAt = performance.now();
    const producer = setInterval(() => {
      const due = Math.floor(((performance.now() - startedAt) / 1000) * RATE);
      for (; produced < due; produced += 1) sent.push(alice.send(general, `message ${produced}`).message_id);
    }, 5);

    const recoveriesMs: number[] = [];
    try {
      for (let drop = 0; drop < DROPS; drop += 1) {
        await new Promise((resolve) => setTimeout(resolve, GAP_MS));
        const recovered = new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${receiver.name}: no event within ${RECOVERY_TIMEOUT_MS} ms of cut ${drop + 1}`)), RECOVERY_TIMEOUT_MS);
          waiting = (at) => {
            clearTimeout(timer);
            waiting = undefined;
            resolve(at);
          };
        });
        const cutAt = performance.now();
        world.emu.dropConnections();
        recoveriesMs.push((await recovered) - cutAt);
      }
    } finally {
      clearInterval(producer);
    }
    // Let the last messages arrive, then compare what was stored with what was delivered.
    const last = sent[sent.length - 1];
    const deadline = Date.now() + RECOVERY_TIMEOUT_MS;
    while (last !== undefined && !delivered.includes(last) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await receiver.close();

    const deliveredSet = new Set(delivered);
    const position = new Map(sent.map((id, i) => [id, i]));
    let outOfOrder = 0;
    for (let i = 1; i < delivered.length; i += 1) if ((position.get(delivered[i]!) ?? 0) < (position.get(delivered[i - 1]!) ?? 0)) outOfOrder += 1;
    return {
      recoveriesMs,
      sent: sent.length,
      delivered: delivered.length,
      lost: sent.filter((id) => !deliveredSet.has(id)).length,
      duplicates: delivered.length - deliveredSet.size,
      outOfOrder,
    };
  } finally {
    await world.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const loadAtStart = loadavg()[0] ?? 0;
  const receivers = [rawResumer(), clanstream('clanstream, defaults (first retry after a random delay in [0, 500 ms))', {}), clanstream('clanstream, `random: () => 0` (no jitter)', { random: () => 0 })];
  const results: Array<{ receiver: Receiver; result: RunResult }> = [];
  for (const receiver of receivers) {
    const result = await measure(receiver);
    console.log(`  ${receiver.name}: median recovery ${median(result.recoveriesMs).toFixed(1)} ms, lost ${result.lost}, duplicates ${result.duplicates}`);
    results.push({ receiver, result });
  }
  const baseline = median(results[0]!.result.recoveriesMs);
  const rows = results.map(({ receiver, result }) => {
    const m = median(result.recoveriesMs);
    return `| ${receiver.name} | ${m.toFixed(1)} ms | ${percentile(result.recoveriesMs, 95).toFixed(1)} ms | ${Math.max(...result.recoveriesMs).toFixed(1)} ms | ${(m / baseline).toFixed(2)} | ${fmtInt(result.sent)} / ${fmtInt(result.delivered)} | **${result.lost}** | ${result.duplicates} | ${result.outOfOrder} |`;
  });
  const clanstreamLost = results.slice(1).reduce((sum, { result }) => sum + result.lost + result.duplicates + result.outOfOrder, 0);
  const body = [
    `Workload: the emulator with the demo world; alice writes ${fmtInt(RATE)} messages/s in #general while the emulator cuts every gateway socket (no close frame, the session stays resumable) ${DROPS} times, every ${GAP_MS} ms. Recovery: from the cut to the first alice message delivered after it (the replay of what was missed, or the next live one). Each receiver runs alone against a fresh emulator, in this process.`,
    '',
    '| Receiver | Median recovery | p95 | Max | Median / baseline | Sent / delivered | Lost | Duplicates | Out of order |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Events lost, duplicated or out of order by clanstream: **${clanstreamLost}** (target: 0) — ${clanstreamLost === 0 ? '**met**' : '**missed**'}. The default recovery time is mostly the jittered first retry, chosen so that thousands of bots cut at once do not reconnect in the same millisecond; without jitter the difference to the bare socket is the client's own path: a new socket, \`hello\`, \`resume\`, and the replay through the caches.`,
    `Load average (1, 5, 15 min) at the start: ${loadAtStart.toFixed(2)}, at the end: ${load()} (${availableParallelism()} cores).`,
    '',
    'Run it: `npm run bench -- reconnect`.',
  ].join('\n');
  return [
    {
      title: 'Reconnect recovery under repeated socket cuts',
      body,
      targets: [{ target: 'events lost, duplicated or out of order: 0', measured: String(clanstreamLost), met: clanstreamLost === 0 }],
    },
  ];
}
