/**
 * Shared pieces of the inbound benchmarks over a bench server: the raw
 * baseline receiver (bare `ws` + JSON.parse + EventEmitter), a logged-in
 * ServiceClient receiver, counting and formatting.
 */
import { EventEmitter } from 'node:events';
import { loadavg } from 'node:os';
import { WebSocket } from 'ws';
import { Events, ServiceClient, type ClientConfigDto } from '../../src/index.js';
import type { BenchServerHandle } from './bench-server.js';
import { BENCH_BOT_ID } from './channel-message-frames.js';
import { profiled, type ProfileSummary } from './profile.js';

/** Resolves with `performance.now()` when `count` events arrived; rejects after `timeoutMs`. */
export function counter(count: number, what: string, timeoutMs: number): { hit: () => void; done: Promise<number>; received: () => number } {
  let received = 0;
  let resolve!: (at: number) => void;
  let reject!: (error: Error) => void;
  const done = new Promise<number>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const timer = setTimeout(() => reject(new Error(`${what}: only ${received} of ${count} events arrived within ${timeoutMs} ms`)), timeoutMs);
  return {
    hit: () => {
      received += 1;
      if (received === count) {
        clearTimeout(timer);
        resolve(performance.now());
      }
    },
    done,
    received: () => received,
  };
}

let baselineConnections = 0;

/** Bare `ws` + JSON.parse + EventEmitter: ms from the trigger to the count-th event. */
export async function baselineRun(server: BenchServerHandle, count: number, timeoutMs: number): Promise<number> {
  return (await baselineRunWith(server, count, timeoutMs)).ms;
}

/** The baseline run, with a CPU profile of its timed part when `profile` is set. */
export async function baselineRunWith(server: BenchServerHandle, count: number, timeoutMs: number, profile = false): Promise<{ ms: number; profile?: ProfileSummary }> {
  baselineConnections += 1;
  const token = `baseline-${baselineConnections}`;
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${token}&protocol=1`);
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
  const count$ = counter(count, 'baseline', timeoutMs);
  events.on('channel_message', count$.hit);
  // Named, so a profile shows it (its JSON.parse included) under this name.
  ws.on('message', function baselineFrame(data: Buffer, isBinary: boolean) {
    if (isBinary) return;
    const frame = JSON.parse(data.toString()) as { channel_message?: unknown };
    events.emit('channel_message', frame.channel_message);
  });

  const timed = async () => {
    const started = performance.now();
    const [ended] = await Promise.all([count$.done, server.push(token, count)]);
    return ended - started;
  };
  const run = profile ? await profiled(timed) : { result: await timed(), profile: undefined };
  await new Promise<void>((resolve) => {
    ws.once('close', () => resolve());
    ws.close(1000);
  });
  return run.profile ? { ms: run.result, profile: run.profile } : { ms: run.result };
}

export interface ClientRunResult {
  /** ms from the trigger to the count-th event. */
  ms: number;
  /** ms of `login()` (authentication, initial sync, connection, clan joins). */
  loginMs: number;
  /** What the caches held at the end. */
  caches: { clans: number; channels: number; users: number; messages: number; windows: number };
  /** CPU profile of the timed part, when asked for. */
  profile?: ProfileSummary;
}

/** A client configured for a bench server (host, port, no TLS, wallet URLs that fail at once). */
export function benchClientConfig(server: BenchServerHandle, extra: Partial<ClientConfigDto> = {}): ClientConfigDto {
  return {
    botId: BENCH_BOT_ID,
    token: 'bench-api-key',
    host: '127.0.0.1',
    port: String(server.port),
    useSSL: false,
    mmnApiUrl: `${server.baseUrl}/mmn`,
    zkApiUrl: `${server.baseUrl}/zk`,
    ...extra,
  };
}

/** A ServiceClient logged in to the bench server, one `stream(Events.ChannelMessage)` subscriber. */
export async function clientRun(server: BenchServerHandle, count: number, timeoutMs: number, extra: Partial<ClientConfigDto> = {}, profile = false): Promise<ClientRunResult> {
  const client = new ServiceClient(benchClientConfig(server, extra));
  const errors: string[] = [];
  const errorSubscription = client.errors$.subscribe((error) => errors.push(`${error.name}: ${error.message}`));
  try {
    const loginStarted = performance.now();
    await client.login();
    const loginMs = performance.now() - loginStarted;
    const count$ = counter(count, 'clanstream', timeoutMs);
    const subscription = client.stream(Events.ChannelMessage).subscribe(count$.hit);
    const token = client.sessionManager.getSession()?.token;
    if (!token) throw new Error('the client has no session after login');

    const timed = async () => {
      const started = performance.now();
      const [ended] = await Promise.all([count$.done, server.push(token, count)]).catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}; client errors: ${errors.slice(0, 3).join(' | ') || 'none'}`);
      });
      return ended - started;
    };
    const run = profile ? await profiled(timed) : { result: await timed(), profile: undefined };
    subscription.unsubscribe();
    if (client.gateway.lastSequence !== count) throw new Error(`the client's last seq is ${client.gateway.lastSequence}, expected ${count}`);
    if (errors.length > 0) throw new Error(`the client reported errors during the run: ${errors.slice(0, 3).join(' | ')}`);
    const { state } = client;
    return {
      ms: run.result,
      loginMs,
      caches: { clans: state.clans.size, channels: state.channels.size, users: state.users.size, messages: state.messageCount, windows: state.messages.size },
      ...(run.profile ? { profile: run.profile } : {}),
    };
  } finally {
    errorSubscription.unsubscribe();
    client.destroy();
  }
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
export const rate = (count: number, ms: number): number => (count * 1000) / ms;
export const fmtInt = (n: number): string => Math.round(n).toLocaleString('en-US');
export const fmtRate = (eventsPerSecond: number, unit = 'ev/s'): string => `${fmtInt(eventsPerSecond)} ${unit}`;
export const fmtUs = (eventsPerSecond: number): string => `${(1e6 / eventsPerSecond).toFixed(2)} µs`;
/** "1.23 µs more" / "0.40 µs less": the time per event of `measured` against `reference` (both events/s). */
export const fmtExtra = (measured: number, reference: number): string => {
  const us = 1e6 / measured - 1e6 / reference;
  return `${Math.abs(us).toFixed(2)} µs ${us >= 0 ? 'more' : 'less'}`;
};
export const settle = (ms = 50) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const load = (): string => loadavg().map((l) => l.toFixed(2)).join(', ');

export function envInt(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}

/** "**met** (x ≥ t)" or "**missed** by d (…)" for a ratio that should be at least `target`. */
export function verdictAtLeast(value: number, target: number, what = 'ratio'): string {
  return value >= target
    ? `**met** (${what} ${value.toFixed(2)} ≥ ${target})`
    : `**missed** by ${(target - value).toFixed(2)} (${what} ${value.toFixed(2)} < ${target}; ${(((target - value) / target) * 100).toFixed(0)}% short of the target, the measured side would need to be ${((target / value - 1) * 100).toFixed(0)}% faster)`;
}
