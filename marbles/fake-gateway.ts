/**
 * A scripted gateway for marble specs: each socket the connection opens
 * plays one marble diagram of server steps (open, hello, pushes, replies,
 * close) in the TestScheduler's virtual time, and records every frame the
 * client sends. Replies are matched to the latest request of the given op
 * on that socket, so a diagram never spells out a cid.
 */
import { defer, map, merge, Subject, type Observable, type SchedulerLike } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { type ClanstreamError, type ClanstreamEvent } from '../src/index.js';
import { GatewayConnection, type GatewayConnectionOptions, type HandshakeRequester } from '../src/gateway/connection.js';
import type { Transport, TransportSignal } from '../src/gateway/transport.js';

/** One thing the server does on a socket. */
export type ServerStep =
  | { kind: 'open' }
  | { kind: 'hello'; heartbeatIntervalMs: number }
  | { kind: 'push'; seq: number; sessionId: string; type: string; data: Record<string, unknown> }
  | { kind: 'reply'; to: string; op: string; payload: unknown }
  | { kind: 'close'; code: number; reason: string };

export const open = (): ServerStep => ({ kind: 'open' });
/** `hello` with a heartbeat interval long enough that no ping happens unless a spec wants one. */
export const hello = (heartbeatIntervalMs = 1_000_000): ServerStep => ({ kind: 'hello', heartbeatIntervalMs });
/** A `channel_message` push with the given seq (the text is `m{seq}`). */
export const message = (seq: number, sessionId = 'S1'): ServerStep => ({
  kind: 'push',
  seq,
  sessionId,
  type: 'channel_message',
  data: { id: `${sessionId}-m${seq}`, message_id: `${sessionId}-m${seq}`, channel_id: 'C1', clan_id: 'K1', content: { t: `${sessionId} m${seq}` } },
});
export const ready = (sessionId = 'S1'): ServerStep => ({ kind: 'reply', to: 'start', op: 'ready', payload: { session_id: sessionId, user_id: 'U1', seq: 0, resume_window_ms: 120_000 } });
export const resumed = (seq: number, replayed: number, sessionId = 'S1'): ServerStep => ({ kind: 'reply', to: 'resume', op: 'resumed', payload: { session_id: sessionId, seq, replayed } });
export const resumeFailed = (reason: string, sessionId = 'S1'): ServerStep => ({ kind: 'reply', to: 'resume', op: 'resume_failed', payload: { session_id: sessionId, reason } });
export const pong = (): ServerStep => ({ kind: 'reply', to: 'ping', op: 'pong', payload: {} });
export const close = (code: number, reason = ''): ServerStep => ({ kind: 'close', code, reason });

/** A frame the client sent: its op, payload and socket. */
export interface SentFrame {
  socket: number;
  at: number;
  cid: string;
  op: string;
  payload: unknown;
}

/** A socket's script: a marble diagram and what each letter means. */
export type Script = [marbles: string, steps: Record<string, ServerStep>];

export class FakeGateway {
  /** The URL of every socket opened, when it is opened. */
  readonly sockets$ = new Subject<string>();
  /** Every frame the client sends, as `{op: payload}` (the cid left out). */
  readonly sent$ = new Subject<Record<string, unknown>>();
  readonly sent: SentFrame[] = [];
  readonly urls: string[] = [];

  constructor(
    private readonly scheduler: TestScheduler,
    private readonly scripts: Script[],
    /** Answer every ping with a pong this many frames later, as a live server does, besides the script. */
    private readonly options: { pongAfter?: number } = {},
  ) {}

  /** The `transport` option of GatewayConnection. Sockets beyond the scripts never open. */
  readonly transport = (url: string): Observable<TransportSignal> =>
    defer(() => {
      const socket = this.urls.length;
      this.urls.push(url);
      this.sockets$.next(url);
      const [marbles, steps] = this.scripts[socket] ?? ['', {}];
      const pongs = new Subject<TransportSignal>();
      const { pongAfter } = this.options;
      const transport: Transport = {
        send: (data) => {
          const { cid, ...rest } = JSON.parse(typeof data === 'string' ? data : new TextDecoder().decode(data)) as Record<string, unknown>;
          const op = Object.keys(rest)[0] ?? '';
          this.sent.push({ socket, at: this.scheduler.now(), cid: String(cid), op, payload: rest[op] });
          this.sent$.next(rest);
          if (op === 'ping' && pongAfter !== undefined) this.scheduler.schedule(() => pongs.next({ type: 'message', data: JSON.stringify({ cid, pong: {} }) }), pongAfter);
        },
        close: () => undefined,
      };
      const script$ = this.scheduler.createColdObservable<ServerStep>(marbles, steps).pipe(map((step) => this.signal(step, socket, transport)));
      // Without automatic pongs the socket is the script alone (its end is the socket's end).
      return pongAfter === undefined ? script$ : merge(script$, pongs);
    });

  private signal(step: ServerStep, socket: number, transport: Transport): TransportSignal {
    switch (step.kind) {
      case 'open':
        return { type: 'open', transport };
      case 'hello':
        return { type: 'message', data: JSON.stringify({ hello: { protocol: 1, heartbeat_interval_ms: step.heartbeatIntervalMs, heartbeat_timeout_ms: 45_000, max_frame_bytes: 262_144, server_time_ms: 0 } }) };
      case 'push':
        return { type: 'message', data: JSON.stringify({ seq: step.seq, session_id: step.sessionId, [step.type]: step.data }) };
      case 'reply': {
        const request = [...this.sent].reverse().find((f) => f.socket === socket && f.op === step.to);
        if (!request) throw new Error(`the script replies to "${step.to}", which the client has not sent on socket ${socket}`);
        return { type: 'message', data: JSON.stringify({ cid: request.cid, [step.op]: step.payload }) };
      }
      case 'close':
        return { type: 'close', code: step.code, reason: step.reason };
    }
  }
}

/**
 * A thenable that settles synchronously (or after `delay` virtual frames).
 * The TestScheduler does not virtualise promises, so the hooks a connection
 * awaits return these to keep the whole sequence in virtual time.
 */
export function settled<T>(value: T, scheduler?: SchedulerLike, delay = 0): Promise<T> {
  const thenable = {
    then(onFulfilled?: ((v: T) => unknown) | null) {
      if (onFulfilled) {
        if (scheduler && delay > 0) scheduler.schedule(() => void onFulfilled(value), delay);
        else onFulfilled(value);
      }
      return thenable;
    },
  };
  return thenable as unknown as Promise<T>;
}

/** A thenable that rejects synchronously with `error` (see {@link settled}). */
export function refused<T>(error: unknown): Promise<T> {
  const thenable = {
    then(_onFulfilled?: unknown, onRejected?: ((e: unknown) => unknown) | null) {
      // The rejection is handed over once; what `then` returns stands for the handled result.
      onRejected?.(error);
      return settled(undefined);
    },
  };
  return thenable as unknown as Promise<T>;
}

/** The recorded side effects of a connection under test. */
export interface Harness {
  connection: GatewayConnection;
  delivered$: Subject<ClanstreamEvent>;
  reports$: Subject<ClanstreamError>;
  /** Virtual frames at which refreshToken / onResync / onFreshSession were called. */
  calls: { refreshToken: number[]; onResync: Array<[number, string]>; onFreshSession: number[]; reauthenticate: number[] };
}

/** A GatewayConnection on the fake gateway, with every delay on the TestScheduler and jitter fixed. */
export function connectionOn(
  gateway: FakeGateway,
  scheduler: TestScheduler,
  options: Partial<Pick<GatewayConnectionOptions, 'reconnect' | 'random' | 'heartbeatTimeoutMs' | 'requestTimeoutMs' | 'wire' | 'resume' | 'resumeFrom' | 'userId'>> & {
    token?: () => string;
    refreshDelay?: number;
    resyncDelay?: number;
    onRefresh?: () => void;
    /** refreshToken rejects with this instead of resolving. */
    refreshError?: unknown;
    /** Give the connection a `reauthenticate` hook (what a client with an API key does). */
    reauthenticate?: boolean;
    /** What the fresh session's set-up sends (nothing by default); it settles at once either way. */
    freshSession?: (request: HandshakeRequester) => void;
  } = {},
): Harness {
  const delivered$ = new Subject<ClanstreamEvent>();
  const reports$ = new Subject<ClanstreamError>();
  const calls: Harness['calls'] = { refreshToken: [], onResync: [], onFreshSession: [], reauthenticate: [] };
  const connection = new GatewayConnection({
    url: () => `ws://gateway.test/ws?protocol=1&token=${options.token?.() ?? 'T1'}`,
    transport: gateway.transport,
    scheduler,
    random: options.random ?? (() => 0.5),
    reconnect: options.reconnect ?? { baseMs: 100, capMs: 1000, maxAttempts: Infinity, loginAttempts: 6 },
    heartbeatTimeoutMs: options.heartbeatTimeoutMs ?? 10_000,
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
    ...(options.wire ? { wire: options.wire } : {}),
    ...(options.resume !== undefined ? { resume: options.resume } : {}),
    ...(options.resumeFrom ? { resumeFrom: options.resumeFrom } : {}),
    ...(options.userId ? { userId: options.userId } : {}),
    onFreshSession: (request) => {
      calls.onFreshSession.push(scheduler.now());
      // What it sends is not waited for: the set-up settles in the same virtual frame.
      options.freshSession?.(request);
      return settled(undefined);
    },
    onResync: (reason) => {
      calls.onResync.push([scheduler.now(), reason]);
      return settled(undefined, scheduler, options.resyncDelay ?? 0);
    },
    refreshToken: () => {
      calls.refreshToken.push(scheduler.now());
      options.onRefresh?.();
      if (options.refreshError !== undefined) return refused(options.refreshError);
      return settled(undefined, scheduler, options.refreshDelay ?? 0);
    },
    ...(options.reauthenticate
      ? {
          reauthenticate: () => {
            calls.reauthenticate.push(scheduler.now());
            return settled(undefined);
          },
        }
      : {}),
    deliver: (event) => delivered$.next(event),
    report: (error) => reports$.next(error),
  });
  return { connection, delivered$, reports$, calls };
}

/** Starts connecting at frame 0, after the spec's expectObservable subscriptions, and closes at `closeAt`. */
export function startAt0(scheduler: TestScheduler, connection: GatewayConnection, closeAt: number): { outcome: Promise<unknown> } {
  let resolveOutcome!: (value: unknown) => void;
  const outcome = new Promise<unknown>((resolve) => (resolveOutcome = resolve));
  scheduler.schedule(() => {
    connection.connect().then(
      () => resolveOutcome('ready'),
      (error: unknown) => resolveOutcome(error),
    );
  });
  scheduler.schedule(() => connection.close(), closeAt);
  return { outcome };
}
