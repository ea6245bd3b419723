/**
 * Login's initial sync of a large world: the emulator (on a worker thread of
 * this process) is seeded, untimed, with 1,000 clans and 10,000 channels
 * (skewed: 2 to ~1,000 per clan, so the largest clans span several pages of
 * 100) and 200 DM channels, through its test API. A client logs in with
 * `syncConcurrency` 1, 8 and 32; a `fetch` wrapper records every request,
 * so the sync's wall time (first `GET /v2/clans` to the last sync response),
 * its number of requests and the parallelism actually used (most requests
 * in flight at once) are measured, plus the whole `login()`.
 *
 * Baseline in the same run: a bare `fetch` + JSON.parse loop making the same
 * requests (every page of the clans, of each clan's channels with the same
 * number of clans at once, of the DM channels, then the bot's user) with the
 * same session token. Target: at the default syncConcurrency (8), at least
 * 0.8 of the baseline's speed. One more login is profiled (CPU, main
 * thread) from its start to the end of its sync, for the report.
 *
 * Settings (environment): BENCH_SYNC_ROUNDS (3), BENCH_SYNC_CONCURRENCY (`1,8,32`).
 */
import { availableParallelism, loadavg } from 'node:os';
import { ServiceClient, SYNC_DEFAULTS } from '../src/index.js';
import type { BenchResult } from './run.js';
import { envInt, fmtInt, load, median, settle, verdictAtLeast } from './support/inbound-harness.js';
import { profiled, profileLine, type ProfileSummary } from './support/profile.js';
import { startSeededEmulatorInWorker, type SeededEmulator } from './support/emulator-server.js';
import { LARGE_WORLD } from './support/world.js';

const ROUNDS = envInt('BENCH_SYNC_ROUNDS', 3);
const CONCURRENCIES = (process.env.BENCH_SYNC_CONCURRENCY ?? '1,8,32')
  .split(',')
  .map((c) => Number(c.trim()))
  .filter((c) => Number.isInteger(c) && c > 0);
const PAGE = 100;
const TARGET = 0.8;
/** The setting the target applies to: the client's default. */
const DEFAULT_CONCURRENCY = SYNC_DEFAULTS.concurrency;
const SYNC_PATH = /^\/v2\/(clans|dm|users\/)/;

interface SyncMeasure {
  /** First sync request sent → last sync response read, ms. */
  syncMs: number;
  /** The whole login(), ms (clanstream only). */
  loginMs: number;
  requests: number;
  /** Most sync requests in flight at once. */
  maxInFlight: number;
}

/**
 * A fetch that records the sync requests it makes: when the first one starts, how many, and the most
 * in flight at once (until their response headers). It hands the response on untouched, so it adds no
 * work to the client's side of the comparison (reading and copying each body here would).
 */
function recordingFetch() {
  let inFlight = 0;
  let maxInFlight = 0;
  let requests = 0;
  let first = Infinity;
  const fetchFn: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const counted = method === 'GET' && SYNC_PATH.test(url.pathname);
    if (!counted) return globalThis.fetch(input, init);
    requests += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    first = Math.min(first, performance.now());
    try {
      return await globalThis.fetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetchFn, result: () => ({ requests, maxInFlight, first }) };
}

async function clientSync(emu: SeededEmulator, concurrency: number): Promise<SyncMeasure & { token: string; clans: number; channels: number }> {
  const url = new URL(emu.url);
  const recorder = recordingFetch();
  const client = new ServiceClient({
    botId: emu.botId,
    token: emu.token,
    host: url.hostname,
    port: url.port,
    useSSL: false,
    mmnApiUrl: `${emu.url}/mmn`,
    zkApiUrl: `${emu.url}/zk`,
    syncConcurrency: concurrency,
    fetch: recorder.fetchFn,
  });
  // The sync ends when login moves on to the gateway (the caches hold everything listed by then).
  let synced = 0;
  const status = client.status$.subscribe((s) => {
    if (s === 'connecting' && synced === 0) synced = performance.now();
  });
  try {
    const started = performance.now();
    await client.login();
    const loginMs = performance.now() - started;
    const token = client.sessionManager.getSession()?.token;
    if (!token) throw new Error('no session after login');
    const { requests, maxInFlight, first } = recorder.result();
    return { requests, maxInFlight, syncMs: synced - first, loginMs, token, clans: client.state.clans.size, channels: client.state.channels.size };
  } finally {
    status.unsubscribe();
    client.destroy();
  }
}

/** Bare fetch + JSON.parse: the same lists, every page, `concurrency` clans at once. */
async function rawSync(emu: SeededEmulator, token: string, concurrency: number): Promise<SyncMeasure> {
  let requests = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const get = async (path: string): Promise<Record<string, unknown>> => {
    requests += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const response = await fetch(`${emu.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
      const text = await response.text();
      if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    } finally {
      inFlight -= 1;
    }
  };
  const pages = async <T>(path: string, key: string): Promise<T[]> => {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await get(`${path}?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      items.push(...(page[key] as T[]));
      cursor = page.cursor as string | undefined;
    } while (cursor);
    return items;
  };
  const started = performance.now();
  const clans = await pages<{ clan_id: string }>('/v2/clans', 'clans');
  let next = 0;
  let channels = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, clans.length) }, async () => {
      while (next < clans.length) {
        const clan = clans[next++]!;
        const listed = await pages(`/v2/clans/${clan.clan_id}/channels`, 'channels');
        channels += listed.length;
      }
    }),
  );
  await pages('/v2/dm', 'channels');
  await get(`/v2/users/${emu.botId}`);
  if (channels !== emu.channels) throw new Error(`raw sync listed ${channels} channels, expected ${emu.channels}`);
  return { syncMs: performance.now() - started, loginMs: 0, requests, maxInFlight };
}

export async function run(): Promise<BenchResult[]> {
  const loadAtStart = loadavg()[0] ?? 0;
  const emu = await startSeededEmulatorInWorker({ shape: LARGE_WORLD, seed: 0x3011d });
  try {
    // Warm-up: one of each, not reported.
    const warm = await clientSync(emu, 8);
    await rawSync(emu, warm.token, 8);

    const rows: string[] = [];
    const bySetting = new Map<number, { client: number; raw: number }>();
    let cacheCheck = '';
    for (const concurrency of CONCURRENCIES) {
      const clientRuns: Array<SyncMeasure & { clans: number; channels: number }> = [];
      const rawRuns: SyncMeasure[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        await settle();
        const c = await clientSync(emu, concurrency);
        await settle();
        const r = await rawSync(emu, c.token, concurrency);
        clientRuns.push(c);
        rawRuns.push(r);
        console.log(`  syncConcurrency ${concurrency} round ${round + 1}: clanstream sync ${fmtInt(c.syncMs)} ms (${c.requests} requests, ≤ ${c.maxInFlight} in flight), raw ${fmtInt(r.syncMs)} ms (load ${load()})`);
      }
      const c = median(clientRuns.map((x) => x.syncMs));
      const r = median(rawRuns.map((x) => x.syncMs));
      bySetting.set(concurrency, { client: c, raw: r });
      const last = clientRuns[clientRuns.length - 1]!;
      cacheCheck = `${fmtInt(last.clans)} clans and ${fmtInt(last.channels)} channels (DM channels included)`;
      rows.push(
        `| ${concurrency} | **${fmtInt(c)} ms** | ${fmtInt(median(clientRuns.map((x) => x.loginMs)))} ms | ${fmtInt(last.requests)} | ${Math.max(...clientRuns.map((x) => x.maxInFlight))} | ${fmtInt(r)} ms (${fmtInt(rawRuns[0]!.requests)} requests, ≤ ${Math.max(...rawRuns.map((x) => x.maxInFlight))} in flight) | ${(r / c).toFixed(2)} | ${clientRuns.map((x) => fmtInt(x.syncMs)).join(', ')} |`,
      );
    }
    // One more login, profiled from its start to the end of its sync (the gateway connection is not in it).
    const url = new URL(emu.url);
    const profiledClient = new ServiceClient({ botId: emu.botId, token: emu.token, host: url.hostname, port: url.port, useSSL: false, mmnApiUrl: `${emu.url}/mmn`, zkApiUrl: `${emu.url}/zk` });
    let syncProfile: ProfileSummary;
    let login: Promise<unknown> = Promise.resolve();
    try {
      await settle();
      syncProfile = (
        await profiled(
          () =>
            new Promise<void>((resolve, reject) => {
              const status = profiledClient.status$.subscribe((s) => {
                if (s !== 'connecting') return;
                queueMicrotask(() => status.unsubscribe());
                resolve();
              });
              login = profiledClient.login().catch((error: unknown) => {
                status.unsubscribe();
                reject(error instanceof Error ? error : new Error(String(error)));
              });
            }),
        )
      ).profile;
      await login;
    } finally {
      profiledClient.destroy();
    }
    const atDefault = bySetting.get(DEFAULT_CONCURRENCY);
    const ratio = atDefault ? atDefault.raw / atDefault.client : 0;
    const one = bySetting.get(1);
    const speedups = [...bySetting.entries()]
      .filter(([k]) => k !== 1 && one)
      .map(([k, v]) => `${k}: ×${(one!.client / v.client).toFixed(2)} (raw ×${(one!.raw / v.raw).toFixed(2)})`)
      .join('; ');
    const body = [
      `Workload: the emulator on a worker thread (loopback), seeded untimed through its test API (\`createClan\`, \`addClanMember\`, \`createChannel\` in a loop, ${fmtInt(emu.seedMs)} ms) with ${fmtInt(emu.clans)} clans, ${fmtInt(emu.channels)} clan channels (2 to ~1,000 per clan, skewed) and ${fmtInt(emu.dmChannels)} DM channels of the bot. A fresh client logs in per run; its initial sync lists every page (100 per page) of the clans, of each clan's channels (\`syncConcurrency\` clans at once), of the DM channels, then gets the bot's user. After login the caches held ${cacheCheck}.`,
      `Sync time: first sync request sent (seen by a \`fetch\` wrapper given to the client, which also counts requests and the most in flight at once, and hands each response on untouched) → login moving on to the gateway (status \`connecting\`: everything listed is in the caches). Login: the whole \`login()\` (authentication, sync, gateway connection, ${fmtInt(emu.clans)} clan joins, wallet preparation). Baseline in the same run: bare \`fetch\` + JSON.parse making the same requests with the same parallelism and the client's session token. ${ROUNDS} rounds per setting after a warm-up, medians.`,
      '',
      '| syncConcurrency | Sync (median) | Login (median) | Requests | Most in flight | Raw baseline (median) | Raw / clanstream | Sync runs |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `Speed-up over syncConcurrency 1 — ${speedups || 'n/a'}. The parallelism used is the most requests seen in flight at once: each running clan lists its pages one after another, so it equals the setting (capped by the number of clans), during the clan-channel phase only; the clan list, the DM list and the user are sequential.`,
      `Target: at syncConcurrency ${DEFAULT_CONCURRENCY} (the default), raw / clanstream ≥ ${TARGET} — ${atDefault ? verdictAtLeast(ratio, TARGET) : 'not measured (the setting was not run)'}; the other settings are reported for information.`,
      `Where a sync's time goes on the client's main thread (CPU profile of one more login at the default setting, from its start to the end of its sync; self time as a share of the non-idle samples): ${profileLine(syncProfile)}.`,
      `Load average at the start: ${loadAtStart.toFixed(2)}, at the end (1, 5, 15 min): ${load()} (${availableParallelism()} cores); the emulator shares the machine with the client, so on 2 cores parallel requests mostly overlap the server's work with the client's.`,
      '',
      'Run it: `npm run bench -- sync`.',
    ].join('\n');
    return [
      {
        title: `Initial sync at login: ${fmtInt(emu.clans)} clans, ${fmtInt(emu.channels)} channels`,
        body,
        ...(atDefault ? { targets: [{ target: `syncConcurrency ${DEFAULT_CONCURRENCY}: ≥ ${TARGET} of the raw baseline's speed`, measured: ratio.toFixed(2), met: ratio >= TARGET }] } : {}),
      },
    ];
  } finally {
    await emu.close();
  }
}
