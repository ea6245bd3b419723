import {
  BehaviorSubject,
  catchError,
  concatWith,
  defer,
  EMPTY,
  filter,
  firstValueFrom,
  from,
  ignoreElements,
  map,
  Observable,
  of,
  retry,
  Subject,
  switchMap,
  take,
  tap,
  throwError,
  timer,
  type Subscription,
} from 'rxjs';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { AuthenticationError } from '../errors/authentication-error.js';
import { ClosedError } from '../errors/closed-error.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { backoffDelay } from '../util/backoff.js';
import { clanstreamWire } from './clanstream-wire.js';
import { localSessionId } from './local-session.js';
import { NOT_SENT, type ReplyHandler } from './pending-request.js';
import { heartbeat } from './heartbeat.js';
import { AttemptEnded, attemptEndedBy } from './attempt-ended.js';
import { inboundFrameTooLarge } from './frame-limits.js';
import type { ConnectionStatus, LifecycleEvent } from './lifecycle.js';
import {
  closeCodeInfo,
  REPLY_OP,
  type GatewayReplyPayload,
  type GatewayRequestOp,
  type GatewayRequestPayload,
  type ResumeFailedPayload,
  type ResumedPayload,
} from './protocol.js';
import { SocketRequests } from './socket-requests.js';
import { RenewalPacing } from './renewal-pacing.js';
import { GATEWAY_LIMITS, type GatewayConnectionOptions, type HandshakeRequester } from './connection-options.js';
import { openTransport, type Transport } from './transport.js';
import { frameExcerpt, type CodecContext, type WireFrame, type WireProtocol } from './wire.js';

export { GATEWAY_LIMITS, type GatewayConnectionOptions, type HandshakeRequester, type ResumePoint } from './connection-options.js';

/** What one socket has been through. */
interface SocketState {
  /** Greeted (`hello` arrived, or the socket opened, for a protocol greeted on open): the handshake and the heartbeat are running. */
  greeted: boolean;
}

/** Why a session was not resumed when the protocol cannot resume any (the `resync` event's reason). */
export const NO_RESUME_REASON = 'the protocol cannot resume a session';

/**
 * One logical gateway connection over many sockets: connect → hello →
 * resume (or start) → ready, heartbeats, requests matched to replies by
 * `cid`, each event delivered once and in order, and reconnection with
 * exponential backoff and full jitter, reset once a connection is ready.
 * Frames are written and read by the protocol's codec (clanstream's JSON by
 * default); a protocol greeted on open is ready once its socket is open and
 * the fresh session is set up, and without resume each socket is a fresh
 * session followed by `resync`.
 */
export class GatewayConnection {
  readonly status$ = new BehaviorSubject<ConnectionStatus>('closed');
  readonly lifecycle$ = new Subject<LifecycleEvent>();
  private sessionId: string | undefined;
  private userId = '';
  private lastSeq = 0;
  private readonly wire: WireProtocol;
  private readonly canResume: boolean;
  private ready = false;
  private everReady = false;
  private attempts = 0;
  private disconnectedAt = 0;
  private resyncReason: string | undefined;
  private readonly requests: SocketRequests;
  private loop: Subscription | undefined;
  /** Ends pending `connect()` calls: a fatal error, or a ClosedError when the client closes first. */
  private readonly fatal$ = new Subject<ClanstreamError>();
  /** The error that stopped the connection for good (a fatal close code, attempts used up, renewal refused). */
  readonly stopped$: Observable<ClanstreamError> = this.fatal$.pipe(filter((error) => !(error instanceof ClosedError)));
  private reauthenticated = false;
  private readonly renewals: RenewalPacing;
  /** `options.report`, called with the options as `this` (made once, handed to every reply). */
  private readonly reportProblem = (error: ClanstreamError): void => this.options.report(error);
  /** A resync started by numbering gone wrong is running: another is not started on top of it. */
  private renumberResync: Promise<void> | undefined;
  /** Every frame sent is checked here against the limit of the server's hello. */

  constructor(private readonly options: GatewayConnectionOptions) {
    this.requests = new SocketRequests(options.scheduler, () => this.ready);
    this.renewals = new RenewalPacing(options.scheduler, GATEWAY_LIMITS.renewalCalmMs);
    this.wire = options.wire ?? clanstreamWire;
    this.canResume = options.resume ?? true;

    if (options.resumeFrom) {
      this.sessionId = options.resumeFrom.sessionId;
      this.lastSeq = options.resumeFrom.seq;
    }
  }

  /** Gateway session id of the current (or last) session. */
  get currentSessionId(): string | undefined {
    return this.sessionId;
  }

  /** Sequence number of the last event delivered. */
  get lastSequence(): number {
    return this.lastSeq;
  }

  get isReady(): boolean {
    return this.ready;
  }

  /**
   * Starts connecting (once; later calls share the running loop) and resolves
   * when the connection is ready; rejects with a fatal {@link ConnectionError}.
   */
  connect(): Promise<void> {
    if (!this.loop) {
      this.status$.next('connecting');
      this.loop = this.run$().subscribe({
        error: (error: unknown) => this.stopWith(error),
      });
    }
    if (this.ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const ready = this.status$.pipe(filter((s) => s === 'ready'), take(1)).subscribe(() => {
        fatal.unsubscribe();
        resolve();
      });
      const fatal = this.fatal$.pipe(take(1)).subscribe((error) => {
        ready.unsubscribe();
        reject(error);
      });
    });
  }

  /** Closes the socket and stops reconnecting. */
  close(): void {
    const wasReady = this.ready;
    if (this.loop) this.fatal$.next(new ClosedError('connecting to the gateway'));
    // Say "closed" before the socket's pending requests fail, so nobody resends into a closing connection.
    this.ready = false;
    if (this.status$.value !== 'closed') this.status$.next('closed');
    this.loop?.unsubscribe();
    this.loop = undefined;
    if (wasReady) this.lifecycle$.next({ type: 'disconnected', code: 1000, reason: 'closed by the client', willReconnect: false });
  }

  /** Forgets the session, so the next connection starts a fresh one. */
  forgetSession(): void {
    this.sessionId = undefined;
    this.lastSeq = 0;
  }

  /** Sends a request on a ready connection and resolves with its reply payload. */
  request<K extends GatewayRequestOp>(op: K, payload: GatewayRequestPayload<K>, timeoutMs = this.options.requestTimeoutMs): Promise<GatewayReplyPayload<K>> {
    return firstValueFrom(this.request$(op, payload, timeoutMs));
  }

  /** The request as an Observable: subscribe to send; unsubscribing stops waiting for the reply. */
  request$<K extends GatewayRequestOp>(op: K, payload: GatewayRequestPayload<K>, timeoutMs = this.options.requestTimeoutMs): Observable<GatewayReplyPayload<K>> {
    return this.typedSend$(op, payload, timeoutMs, false);
  }

  private typedSend$<K extends GatewayRequestOp>(op: K, payload: GatewayRequestPayload<K>, timeoutMs: number, duringHandshake: boolean): Observable<GatewayReplyPayload<K>> {
    return this.requests.open$(op, payload, timeoutMs, duringHandshake, REPLY_OP[op]) as Observable<GatewayReplyPayload<K>>;
  }

  /** A request whose reply op is read by the caller (resume: `resumed` or `resume_failed`). */
  private send$(op: string, payload: unknown, timeoutMs: number, duringHandshake: boolean): Observable<{ op: string; payload: unknown }> {
    return this.requests.open$(op, payload, timeoutMs, duringHandshake, undefined) as Observable<{ op: string; payload: unknown }>;
  }

  /**
   * Sends a request on a ready connection and tells `handler` once: `next` with its reply payload, or
   * `error` (a GatewayError refusal, a TimeoutError, a ConnectionError when the socket goes first).
   * The same as subscribing to `request$`, without an Observable and a subscriber per request (the
   * outbox sends one per message); the handle it returns stops waiting.
   */
  send<K extends GatewayRequestOp>(op: K, payload: GatewayRequestPayload<K>, timeoutMs: number, handler: ReplyHandler): { unsubscribe(): void } {
    return this.requests.register(op, payload, timeoutMs, false, REPLY_OP[op], handler) ?? NOT_SENT;
  }

  // ---------------- the connection loop ----------------

  private run$(): Observable<never> {
    return defer(() => this.attempt$()).pipe(retry({ delay: (error: unknown) => this.afterAttempt(error) }));
  }

  /** One socket, from opening to closing. Never completes: it errors with why it ended. */
  private attempt$(): Observable<never> {
    return new Observable<never>((subscriber) => {
      const factory = this.options.transport ?? ((url: string) => openTransport(url, this.options.WebSocket, this.options.maxInboundFrameBytes));
      const subscriptions: Subscription[] = [];
      const end = (error: unknown) => subscriber.error(error);
      const keep = (s: Subscription) => subscriptions.push(s);
      const socket: SocketState = { greeted: false };
      // A server that accepts TCP but never upgrades, or upgrades but never completes the handshake, is as dead as one that refuses.
      subscriptions.push(
        timer(this.options.requestTimeoutMs, this.options.scheduler).subscribe(() => {
          if (!this.ready) end(new AttemptEnded(4000, 'the connection and handshake did not finish in time', 'resume'));
        }),
      );
      const url = this.options.url();
      this.options.debug?.({ topic: 'gateway', type: 'connecting', attempt: this.attempts + 1, url });
      subscriptions.push(
        factory(url).subscribe({
          next: (signal) => {
            if (typeof signal === 'string' || signal instanceof Uint8Array) {
              this.onFrame(signal, end, keep, socket);
            } else if (signal.type === 'open') {
              this.opened(signal.transport, end, keep, socket);
            } else if (signal.type === 'message') {
              this.onFrame(signal.data, end, keep, socket);
            } else if (signal.type === 'oversized') {
              // A resume would have the server send the same frame again: a fresh session (and a resync) instead.
              this.options.report(inboundFrameTooLarge(signal));
              const reason = 'a frame from the server was over maxInboundFrameBytes';
              this.resyncReason ??= reason;
              end(new AttemptEnded(1009, reason, 'reconnect'));
            } else {
              const info = closeCodeInfo(signal.code);
              // A close reason is the server's text: it may echo a secret, and it reaches lifecycle$ and errors.
              end(new AttemptEnded(signal.code, this.redacted(signal.reason), info.action));
            }
          },
          error: end,
          complete: () => end(new AttemptEnded(1006, 'the socket closed', 'resume')),
        }),
      );
      return () => {
        for (const s of subscriptions) s.unsubscribe();
        this.ready = false;
        this.requests.detach(new ConnectionError('the gateway connection was lost before the reply arrived', { fatal: false }));
      };
    });
  }

  private redacted(text: string): string {
    return this.options.redactor ? this.options.redactor.redact(text) : text;
  }

  /** A socket opened: its codec, and for a protocol greeted on open, the fresh session and the heartbeat at once. */
  private opened(transport: Transport, end: (error: unknown) => void, keep: (s: Subscription) => void, socket: SocketState): void {
    const context: CodecContext = {
      debug: (event) => this.options.debug?.(event),
      send: (frame) => transport.send(frame),
      report: this.reportProblem,
      userId: () => this.options.userId?.() ?? '',
      message: this.options.message,
      renewSession: this.options.renewSession,
    };
    this.requests.attach(transport, this.wire.open(context));
    const { greeting } = this.wire;
    if (greeting.kind !== 'on-open') return;
    // No hello names the server's frame limit: the protocol's greeting does (an absurd one is reported and bounded as a hello's).
    const frameLimitProblem = greeting.maxFrameBytes === undefined ? undefined : this.requests.frameSizes.greet(greeting.maxFrameBytes, '');
    if (frameLimitProblem) this.options.report(frameLimitProblem);
    socket.greeted = true;
    this.greeted(greeting.heartbeatIntervalMs, end, keep);
  }

  /** Runs the handshake, then the heartbeat at `intervalMs`. Heartbeats bypass everything else that is sent, so a busy client never starves them. */
  private greeted(intervalMs: number, end: (error: unknown) => void, keep: (s: Subscription) => void): void {
    const ping = () => this.send$('ping', {}, this.options.heartbeatTimeoutMs, true);
    const beat$ = heartbeat(ping, intervalMs, this.options.heartbeatTimeoutMs, this.options.scheduler);
    keep(this.handshake$().pipe(concatWith(beat$)).subscribe({ error: end }));
  }

  // A frame can only come after `open`, which made the codec; one frame may settle several requests.
  private onFrame(wireFrame: WireFrame, end: (error: unknown) => void, keep: (s: Subscription) => void, socket: SocketState, frame = this.requests.codec!.decode(wireFrame)): void {
    if (frame === undefined) return; // a chunk of something longer, or a push the codec dropped quietly
    if (Array.isArray(frame)) {
      for (const one of frame) this.onFrame(wireFrame, end, keep, socket, one);
      return;
    }
    if (frame instanceof ProtocolError) {
      this.options.report(frame);
      return;
    }
    switch (frame.kind) {
      case 'event':
      case 'unknown_event':
      case 'invalid_event': {
        const seq = frame.kind === 'event' ? frame.event.seq : frame.seq;
        if (seq === this.lastSeq) return; // already delivered (a replay overlapping what we had)
        if (seq < this.lastSeq || seq > this.lastSeq + GATEWAY_LIMITS.maxSeqJump) {
          // Numbering gone backwards or far ahead cannot be replayed: dropping every later event would lose them all.
          // Follow the server's numbering from here, and fetch again what may have been missed.
          this.renumber(seq);
        } else if (seq !== this.lastSeq + 1 && this.lastSeq > 0) {
          // Something was skipped: reconnect and resume from the last event we have, which replays the gap.
          end(new AttemptEnded(4000, `event ${this.lastSeq + 1} is missing (got ${seq})`, 'resume'));
          return;
        }
        // Counted even when it cannot be delivered: otherwise the next event looks like a gap, and the
        // resume that follows replays the same unreadable event again, forever.
        this.lastSeq = seq;
        if (frame.kind === 'unknown_event') this.options.report(new ProtocolError(`unknown event type "${frame.type}" (ignored)`));
        else if (frame.kind === 'invalid_event') this.options.report(frame.error);
        else {
          try {
            this.options.deliver(frame.event);
          } catch (error) {
            this.options.report(new ProtocolError(`an event could not be processed: ${error instanceof Error ? error.message : String(error)}`));
          }
        }
        return;
      }
      case 'hello': {
        if (this.wire.greeting.kind !== 'hello') {
          this.options.report(new ProtocolError('the server sent hello, which this protocol is not greeted with (ignored)', frameExcerpt(wireFrame)));
          return;
        }
        if (socket.greeted) {
          // A second hello must not start the handshake (or the heartbeat) again.
          this.options.report(new ProtocolError('the server sent hello again on the same connection (ignored)', frameExcerpt(wireFrame)));
          return;
        }
        socket.greeted = true;
        // An absurd interval was replaced by the nearest bound (HELLO_LIMITS): the handshake goes on, and the error stream hears of it.
        if (frame.problem) this.options.report(frame.problem);
        const frameLimitProblem = this.requests.frameSizes.greet(frame.hello.max_frame_bytes, frameExcerpt(wireFrame));
        if (frameLimitProblem) this.options.report(frameLimitProblem);
        this.greeted(frame.hello.heartbeat_interval_ms, end, keep);
        return;
      }
      case 'reply':
        // A malformed acknowledgement fails its request, and the error stream hears of it.
        return this.requests.pending.answer(frame.cid, frame.op, frame.payload, wireFrame, this.reportProblem);
      case 'error':
        return this.requests.refused(frame.cid, frame.error, wireFrame, this.reportProblem, this.options.redactor);
      case 'fatal':
        // Retrying cannot help (the server speaks another version of the protocol): stop, saying why.
        this.options.report(frame.error);
        end(new ConnectionError(frame.error.message, { fatal: true, cause: frame.error }));
        return;
    }
  }

  /**
   * resume (when there is a session and the protocol can) or start; for a protocol greeted on open, the fresh
   * session of this socket. Completes once the connection is ready.
   */
  private handshake$(): Observable<never> {
    const timeoutMs = this.options.requestTimeoutMs;
    const early: HandshakeRequester = (op, payload) => firstValueFrom(this.typedSend$(op, payload, timeoutMs, true));
    const setUp$ = (sessionId: string, userId: string, seq: number): Observable<never> => {
      this.sessionId = sessionId;
      this.userId = userId;
      this.lastSeq = seq;
      this.options.debug?.({ topic: 'gateway', type: 'session_started', sessionId, seq });
      return from(this.options.onFreshSession?.(early) ?? Promise.resolve()).pipe(
        tap(() => this.markReady(false, 0)),
        ignoreElements(),
      );
    };
    if (this.sessionId !== undefined && !this.canResume) {
      // The session of the last socket (or the `resumeFrom` point) is gone with it: what was missed is fetched again.
      this.resyncReason ??= NO_RESUME_REASON;
      this.forgetSession();
    }
    if (this.wire.greeting.kind === 'on-open') {
      // No session on the wire: a local id names this socket's, and events are numbered per socket from 1.
      return defer(() => setUp$(localSessionId(this.options.random), this.options.userId?.() ?? '', 0));
    }
    const start$ = (): Observable<never> => this.typedSend$('start', {}, timeoutMs, true).pipe(switchMap((ready) => setUp$(ready.session_id, ready.user_id, ready.seq)));
    if (!this.sessionId) return start$();
    const sessionId = this.sessionId;
    this.options.debug?.({ topic: 'gateway', type: 'resuming', sessionId, seq: this.lastSeq });
    return this.send$('resume', { session_id: sessionId, seq: this.lastSeq }, timeoutMs, true).pipe(
      switchMap((reply) => {
        if (reply.op === 'resumed') {
          this.userId ||= this.options.userId?.() ?? '';
          const { replayed } = reply.payload as ResumedPayload;
          this.options.debug?.({ topic: 'gateway', type: 'resumed', sessionId, replayed });
          this.markReady(true, replayed);
          return EMPTY;
        }
        if (reply.op === 'resume_failed') {
          this.resyncReason = (reply.payload as ResumeFailedPayload).reason;
          this.options.debug?.({ topic: 'gateway', type: 'resume_failed', reason: this.resyncReason });
          this.forgetSession();
          return start$();
        }
        throw new ProtocolError(`resume was answered with ${reply.op}`);
      }),
    );
  }

  private markReady(resumed: boolean, replayed: number): void {
    const sessionId = this.sessionId ?? '';
    this.ready = true;
    this.attempts = 0;
    const first = !this.everReady;
    this.everReady = true;
    this.reauthenticated = false;
    this.status$.next('ready');
    if (first) {
      this.lifecycle$.next({ type: 'ready', sessionId, userId: this.userId });
    } else {
      this.lifecycle$.next({ type: 'reconnected', sessionId, resumed, replayed, downtimeMs: Math.max(0, this.options.scheduler.now() - this.disconnectedAt) });
    }
    const reason = this.resyncReason;
    this.resyncReason = undefined;
    if (reason !== undefined && !first) void this.resync(reason);
    // A `resumeFrom` session that could not be resumed: the login's own sync fetched the state, but events were missed.
    else if (reason !== undefined) this.lifecycle$.next({ type: 'resync', reason });
  }

  /** Fetches the state again (events may have been missed), then announces `resync`; a failure is reported. */
  private resync(reason: string): Promise<void> {
    const resync = this.options.onResync?.(reason) ?? Promise.resolve();
    return resync.then(
      () => this.lifecycle$.next({ type: 'resync', reason }),
      (error: unknown) => {
        // Cancelled by closeSocket(): nothing failed that anyone still waits for.
        if (error instanceof ClosedError) return;
        this.options.report(new ConnectionError(`resynchronising after a lost session failed: ${error instanceof Error ? error.message : String(error)}`, { fatal: false }));
        this.lifecycle$.next({ type: 'resync', reason });
      },
    );
  }

  /** The server's event numbering went backwards or leapt ahead: report it, follow it, and resynchronise once at a time. */
  private renumber(seq: number): void {
    const direction = seq < this.lastSeq ? 'went backwards' : 'jumped ahead';
    this.options.report(new ProtocolError(`the event numbering ${direction} (event ${seq} after ${this.lastSeq}); following it and fetching the state again`));
    this.lastSeq = seq;
    if (this.renumberResync) return;
    const done = () => {
      this.renumberResync = undefined;
    };
    this.renumberResync = this.resync(`the event numbering ${direction}`).then(done, done);
  }

  /** Decides what follows a failed attempt: a delay before the next one, or the end. */
  private afterAttempt(error: unknown): Observable<unknown> {
    const ended = error instanceof AttemptEnded ? error : attemptEndedBy(error);
    this.options.debug?.({ topic: 'gateway', type: 'closed', code: ended.code, reason: ended.reason, next: ended.action });
    if (this.ready || this.status$.value === 'ready') {
      this.disconnectedAt = this.options.scheduler.now();
      this.lifecycle$.next({ type: 'disconnected', code: ended.code, reason: ended.reason, willReconnect: ended.action !== 'fatal' });
    }
    this.ready = false;
    if (ended.code === 4003 && this.options.reauthenticate && !this.reauthenticated) {
      // The token was refused outright; with the API key the client can start over once before giving up.
      this.reauthenticated = true;
      this.status$.next(this.everReady ? 'reconnecting' : 'connecting');
      const rapid = this.renewals.note();
      return from(this.options.reauthenticate()).pipe(
        catchError((error: unknown) => throwError(() => new ConnectionError(`the gateway refused the token and authenticating again failed: ${error instanceof Error ? error.message : String(error)}`, { closeCode: 4003, fatal: true, cause: error }))),
        switchMap(() => (rapid ? this.nextDelay$(ended) : of(0))),
      );
    }
    if (ended.action === 'fatal') {
      return throwError(() => new ConnectionError(`the gateway refused the connection (${ended.code}${ended.reason ? `: ${ended.reason}` : ''}); not retrying`, { closeCode: ended.code, fatal: true }));
    }
    this.status$.next(this.everReady ? 'reconnecting' : 'connecting');
    if (ended.action === 'refresh') {
      // A server that keeps closing with "expired" right after a refresh is not fixed by refreshing faster:
      // a renewal soon after the last one goes through the same backoff as any other failure.
      const rapid = this.renewals.note();
      return from(this.options.refreshToken()).pipe(
        map(() => true),
        catchError((refreshError: unknown) =>
          refreshError instanceof AuthenticationError
            ? throwError(() => new ConnectionError(`the session expired and could not be renewed: ${refreshError.message}`, { closeCode: ended.code, fatal: true, cause: refreshError }))
            : of(false),
        ),
        // `retry` needs a value to try again.
        switchMap((renewed) => (renewed && !rapid ? of(0) : this.nextDelay$(ended))),
      );
    }
    if (ended.action === 'reconnect') {
      this.resyncReason ??= 'the server ended the session';
      this.forgetSession();
    }
    return this.nextDelay$(ended);
  }

  private nextDelay$(ended: AttemptEnded): Observable<unknown> {
    this.attempts += 1;
    const limit = this.everReady ? this.options.reconnect.maxAttempts : this.options.reconnect.loginAttempts;
    if (this.attempts >= limit) {
      return throwError(
        () => new ConnectionError(`could not connect to the gateway after ${this.attempts} attempts; last: ${ended.message}`, { closeCode: ended.code, fatal: true }),
      );
    }
    // Renewals that do not help grow the delay even when the server lets each connection become ready first.
    const step = Math.max(this.attempts - 1, this.renewals.step);
    const delayMs = backoffDelay(step, this.options.reconnect, this.options.random);
    this.options.debug?.({ topic: 'gateway', type: 'retry_wait', attempt: this.attempts, delayMs });
    return timer(delayMs, this.options.scheduler);
  }


  private stopWith(error: unknown): void {
    const fatal = error instanceof ConnectionError ? error : new ConnectionError(error instanceof Error ? error.message : String(error), { fatal: true, cause: error });
    this.loop = undefined;
    this.ready = false;
    this.status$.next('closed');
    this.options.report(fatal);
    this.fatal$.next(fatal);
  }

  /** Completes the connection's streams; the object cannot be used afterwards. */
  dispose(): void {
    this.close();
    this.status$.complete();
    this.lifecycle$.complete();
    this.fatal$.complete();
  }
}
