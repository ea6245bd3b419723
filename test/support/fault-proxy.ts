/**
 * A TCP fault-injection proxy for the reliability suites (Node only, test
 * infrastructure, not part of the library).
 *
 * It sits between a client and the emulator on 127.0.0.1 and forwards both
 * directions byte for byte, so HTTP and WebSocket traffic go through it alike.
 * Faults: drop every (or a random share of the) open connections, stall
 * (sockets stay open, nothing passes, buffered bytes are delivered afterwards),
 * delay every chunk (order kept), cut a connection in the middle of a
 * WebSocket frame, and refuse new connections for a while. `close()` leaves no
 * socket and no timer behind.
 *
 * ```ts
 * const emu = await startEmulator();
 * const proxy = await startFaultProxy({ target: { host: '127.0.0.1', port: emu.port }, seed: 42 });
 * emu.setPublicUrl(proxy.url); // api_url and ws_url of new sessions now point at the proxy
 * proxy.dropAll();
 * await proxy.close();
 * ```
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { mulberry32, toSeed, type Random } from './prng.js';
import { WsFrameTracker, type FrameSegment } from './ws-frames.js';

/** What a connection carries, learnt from the client's first bytes (`unknown` until then; `other` when not HTTP). */
export type ConnectionKind = 'unknown' | 'http' | 'websocket' | 'other';

/** `toServer`: client → emulator; `toClient`: emulator → client. */
export type Direction = 'toServer' | 'toClient';

/** Chooses connections: by kind (default any) and/or by id. */
export interface ConnectionFilter {
  kind?: ConnectionKind | 'any';
  id?: number;
}

/**
 * How a refused connection ends:
 * - `reset`: accepted, then reset at once (the client sees ECONNRESET);
 * - `close`: accepted, then closed at once (FIN; "socket hang up", 1006);
 * - `unlisten`: not accepted at all, the port stops listening (ECONNREFUSED).
 *   The same port is bound again on release; in the unlikely case another
 *   process took it meanwhile, `accept()` rejects.
 */
export type RefuseMode = 'reset' | 'close' | 'unlisten';

export interface FaultProxyOptions {
  /** Where connections are forwarded to (the emulator). */
  target: { host: string; port: number };
  /** Seed of the PRNG behind `dropRandom` and delay jitter (random when not given; see `proxy.seed`). */
  seed?: number;
  /** Interface to listen on; loopback. */
  host?: string;
  /** Bytes buffered per direction of one connection before the proxy stops reading from its source. */
  maxBufferedBytes?: number;
  /** Entries kept by `history()`. */
  historySize?: number;
}

export interface StallOptions extends ConnectionFilter {
  /** Which way nothing passes (default both). */
  direction?: 'both' | Direction;
}

export interface DropOptions extends ConnectionFilter {
  /** Reset (RST) instead of a plain close (FIN); the client sees an error either way. */
  reset?: boolean;
}

export interface CutOptions extends ConnectionFilter {
  /** Disarms the cut (the promise then resolves with `undefined`). */
  signal?: AbortSignal;
}

/** What `cutMidFrame` did. */
export interface CutInfo {
  connectionId: number;
  kind: ConnectionKind;
  /** Size of the server→client chunk that was cut. */
  chunkBytes: number;
  /** How much of it reached the client before the connection was destroyed (less than `chunkBytes`). */
  forwardedBytes: number;
  /** True when the cut fell strictly inside a WebSocket frame (always for WebSocket connections). */
  insideFrame: boolean;
}

export interface ProxyConnectionInfo {
  id: number;
  kind: ConnectionKind;
  /** Path of the first request (query left out, since it may carry a token). */
  path: string | undefined;
  openedAtMs: number;
  bytesToServer: number;
  bytesToClient: number;
  pendingToServer: number;
  pendingToClient: number;
}

export interface FaultProxyStats {
  /** Connections accepted and forwarded. */
  opened: number;
  /** Forwarded connections that have ended (both sockets closed). */
  closed: number;
  /** Forwarded connections open now. */
  active: number;
  /** Connections accepted and destroyed at once while refusing (`unlisten` refusals are not seen). */
  refused: number;
  /** Connections destroyed by `dropAll` / `dropRandom`. */
  dropped: number;
  /** Connections destroyed by `cutMidFrame`. */
  cut: number;
  /** Connections whose upstream connection failed (the emulator was unreachable). */
  upstreamFailed: number;
  /** WebSocket upgrade connections among `opened`. */
  websocket: number;
  /** Bytes delivered to the emulator / to clients. */
  bytesToServer: number;
  bytesToClient: number;
  /** Bytes held by the proxy now (delayed or stalled). */
  pendingToServer: number;
  pendingToClient: number;
}

interface Chunk {
  data: Buffer;
  arrivedAt: number;
  jitter: number;
  /** For server→client chunks of WebSocket connections: the parts lying within one frame. */
  segments: FrameSegment[] | undefined;
}

interface Pipe {
  readonly dir: Direction;
  queue: Chunk[];
  queuedBytes: number;
  delivered: number;
  /** The source sent FIN. */
  ended: boolean;
  /** FIN was forwarded. */
  finished: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

interface Pair {
  readonly id: number;
  readonly client: Socket;
  readonly upstream: Socket;
  readonly openedAt: number;
  readonly pipes: Record<Direction, Pipe>;
  readonly done: Promise<void>;
  kind: ConnectionKind;
  path: string | undefined;
  upstreamConnected: boolean;
  /** Destroyed or being cut: nothing more is forwarded. */
  doomed: boolean;
  head: Buffer | undefined;
  frames: WsFrameTracker | undefined;
}

interface ArmedCut {
  filter: CutOptions;
  resolve: (info: CutInfo | undefined) => void;
}

const HEAD_LIMIT = 16 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

const pipe = (dir: Direction): Pipe => ({ dir, queue: [], queuedBytes: 0, delivered: 0, ended: false, finished: false, timer: undefined });

function matches(pair: Pair, filter: ConnectionFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.id !== undefined && filter.id !== pair.id) return false;
  return filter.kind === undefined || filter.kind === 'any' || filter.kind === pair.kind;
}

/** A running proxy; create it with {@link startFaultProxy}. */
export class FaultProxy {
  /** Seed of the proxy's PRNG (print it to replay `dropRandom` choices). */
  readonly seed: number;
  private readonly random: Random;
  private readonly target: { host: string; port: number };
  private readonly host: string;
  private readonly maxBufferedBytes: number;
  private readonly historySize: number;
  private server: Server;
  private listeningPort = 0;
  private readonly pairs = new Set<Pair>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly cuts: ArmedCut[] = [];
  private readonly events: string[] = [];
  private readonly startedAt = Date.now();
  private nextId = 1;
  private closing: Promise<void> | undefined;
  private stallRule: StallOptions | undefined;
  /** Delays by connection kind; `any` applies to every connection, and a kind's own delay adds to it. */
  private readonly delays = new Map<ConnectionKind | 'any', { ms: number; jitterMs: number }>();
  private refusal: { mode: RefuseMode; timer: ReturnType<typeof setTimeout> | undefined } | undefined;
  private readonly counts = { opened: 0, closed: 0, refused: 0, dropped: 0, cut: 0, upstreamFailed: 0, websocket: 0, bytesToServer: 0, bytesToClient: 0 };

  constructor(options: FaultProxyOptions) {
    this.seed = toSeed(options.seed ?? Math.floor(Math.random() * 2 ** 32));
    this.random = mulberry32(this.seed);
    this.target = { ...options.target };
    this.host = options.host ?? '127.0.0.1';
    this.maxBufferedBytes = options.maxBufferedBytes ?? 8 * 1024 * 1024;
    this.historySize = options.historySize ?? 1000;
    this.server = this.createServer();
  }

  /** `http://127.0.0.1:{port}`: give it to `emu.setPublicUrl` or a client's host/port. */
  get url(): string {
    return `http://${this.host}:${this.port}`;
  }

  /** `ws://127.0.0.1:{port}`. */
  get wsUrl(): string {
    return `ws://${this.host}:${this.port}`;
  }

  get port(): number {
    if (this.listeningPort === 0) throw new Error('the fault proxy is not listening yet');
    return this.listeningPort;
  }

  /** Starts listening (on a free port the first time). */
  async listen(): Promise<this> {
    await this.bind(this.server, 0);
    return this;
  }

  // ---------------- faults ----------------

  /** Destroys every open connection (or those matching); returns how many. Clients see 1006 / a network error. */
  dropAll(options: DropOptions = {}): number {
    let count = 0;
    for (const pair of [...this.pairs]) {
      if (pair.doomed || !matches(pair, options)) continue;
      this.destroyPair(pair, options.reset ?? false);
      count += 1;
    }
    this.counts.dropped += count;
    this.note(`drop ${count} connection(s)${describeFilter(options)}${options.reset ? ' (reset)' : ''}`);
    return count;
  }

  /** Destroys each open connection (or each matching one) with the given probability; returns how many. */
  dropRandom(probability: number, options: DropOptions = {}): number {
    if (!(probability >= 0 && probability <= 1)) throw new Error(`probability must be within [0, 1], got ${probability}`);
    let count = 0;
    for (const pair of [...this.pairs]) {
      if (pair.doomed || !matches(pair, options)) continue;
      if (this.random() >= probability) continue;
      this.destroyPair(pair, options.reset ?? false);
      count += 1;
    }
    this.counts.dropped += count;
    this.note(`drop ${count} connection(s) at random (p=${probability})${describeFilter(options)}`);
    return count;
  }

  /**
   * `stall(true)`: nothing passes any more (both ways, or one way, on every or
   * matching connection) while sockets stay open and bytes gather in the proxy;
   * new connections are accepted and stalled alike. `stall(false)`: everything
   * gathered is delivered, in order. A second `stall(true, …)` replaces the first.
   */
  stall(on: boolean, options: StallOptions = {}): void {
    this.stallRule = on ? { ...options } : undefined;
    this.note(on ? `stall on (${options.direction ?? 'both'})${describeFilter(options)}` : 'stall off');
    if (!on) this.pumpAll();
  }

  /** True while a stall is on. */
  get stalled(): boolean {
    return this.stallRule !== undefined;
  }

  /**
   * Holds every chunk `ms` after it arrived (plus up to `jitterMs` chosen by
   * the seeded PRNG) and keeps the order on each connection. It applies to
   * bytes already held too: `delay(0)` releases everything that is due.
   * With `kind`, only connections of that kind are delayed, on top of the
   * delay for every connection (e.g. REST slower than the gateway);
   * `delay(0, { kind })` ends it.
   */
  delay(ms: number, options: { jitterMs?: number; kind?: ConnectionKind | 'any' } = {}): void {
    if (!(ms >= 0)) throw new Error(`delay must be ≥ 0 ms, got ${ms}`);
    const kind = options.kind ?? 'any';
    const jitterMs = Math.max(0, options.jitterMs ?? 0);
    if (ms === 0 && jitterMs === 0) this.delays.delete(kind);
    else this.delays.set(kind, { ms, jitterMs });
    this.note(`delay ${ms} ms${jitterMs ? ` (+ up to ${jitterMs} ms jitter)` : ''}${kind === 'any' ? '' : ` [${kind}]`}`);
    for (const pair of this.pairs) {
      for (const dir of ['toServer', 'toClient'] as const) {
        const p = pair.pipes[dir];
        if (p.timer) this.clearTimer(p.timer);
        p.timer = undefined;
      }
    }
    this.pumpAll();
  }

  /**
   * On the next server→client chunk of a matching connection (default: a
   * WebSocket connection, after its upgrade response), forwards only part of
   * it, then destroys the connection. On a WebSocket connection the cut falls
   * strictly inside a frame. Resolves with what was cut, or `undefined` if the
   * proxy closed first; never rejects.
   */
  cutMidFrame(options: CutOptions = { kind: 'websocket' }): Promise<CutInfo | undefined> {
    const filter: CutOptions = { kind: 'websocket', ...options };
    this.note(`cut armed${describeFilter(filter)}`);
    const { signal } = options;
    if (this.closing || signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const cut: ArmedCut = {
        filter,
        resolve: (info) => {
          signal?.removeEventListener('abort', disarm);
          resolve(info);
        },
      };
      const disarm = () => {
        const index = this.cuts.indexOf(cut);
        if (index < 0) return;
        this.cuts.splice(index, 1);
        this.note('cut disarmed');
        cut.resolve(undefined);
      };
      signal?.addEventListener('abort', disarm, { once: true });
      this.cuts.push(cut);
      this.pumpAll();
    });
  }

  /**
   * Refuses new connections (open ones keep working) until `accept()`, or for
   * `forMs` when given. A number is shorthand for `{ forMs }`.
   */
  refuse(options: number | { forMs?: number; mode?: RefuseMode } = {}): void {
    const { forMs, mode = 'reset' } = typeof options === 'number' ? { forMs: options } : options;
    if (this.closing) return;
    if (this.refusal) {
      if (this.refusal.timer) this.clearTimer(this.refusal.timer);
      this.refusal.timer = undefined;
      if (this.refusal.mode === 'unlisten' && mode !== 'unlisten') throw new Error('the proxy is refusing with mode "unlisten"; accept() first');
      if (this.refusal.mode !== 'unlisten' && mode === 'unlisten') this.server.close();
      this.refusal.mode = mode;
    } else {
      this.refusal = { mode, timer: undefined };
      if (mode === 'unlisten') this.server.close();
    }
    if (forMs !== undefined) {
      this.refusal.timer = this.setTimer(() => {
        if (this.refusal) this.refusal.timer = undefined;
        this.accept().catch((error: unknown) => this.note(`accept failed: ${error instanceof Error ? error.message : String(error)}`));
      }, forMs);
    }
    this.note(`refuse on (${mode})${forMs !== undefined ? ` for ${forMs} ms` : ''}`);
  }

  /** Ends `refuse`: new connections are forwarded again (resolves once the port listens again). */
  async accept(): Promise<void> {
    const refusal = this.refusal;
    if (!refusal) return;
    this.refusal = undefined;
    if (refusal.timer) this.clearTimer(refusal.timer);
    this.note('refuse off');
    if (refusal.mode === 'unlisten' && !this.closing) {
      this.server = this.createServer();
      await this.bind(this.server, this.listeningPort);
    }
  }

  /** True while new connections are refused. */
  get refusing(): boolean {
    return this.refusal !== undefined;
  }

  /** Turns every fault off: no stall, no delay, no refusal, no armed cut. Open connections stay. */
  async heal(): Promise<void> {
    for (const cut of this.cuts.splice(0)) cut.resolve(undefined);
    this.stall(false);
    for (const kind of [...this.delays.keys()]) if (kind !== 'any') this.delays.delete(kind);
    this.delay(0);
    await this.accept();
  }

  // ---------------- inspection ----------------

  stats(): FaultProxyStats {
    let pendingToServer = 0;
    let pendingToClient = 0;
    for (const pair of this.pairs) {
      pendingToServer += pair.pipes.toServer.queuedBytes;
      pendingToClient += pair.pipes.toClient.queuedBytes;
    }
    return { ...this.counts, active: this.pairs.size, pendingToServer, pendingToClient };
  }

  /** Open connections (or the matching ones). */
  connections(filter?: ConnectionFilter): ProxyConnectionInfo[] {
    return [...this.pairs]
      .filter((pair) => !pair.doomed && matches(pair, filter))
      .map((pair) => ({
        id: pair.id,
        kind: pair.kind,
        path: pair.path,
        openedAtMs: pair.openedAt - this.startedAt,
        bytesToServer: pair.pipes.toServer.delivered,
        bytesToClient: pair.pipes.toClient.delivered,
        pendingToServer: pair.pipes.toServer.queuedBytes,
        pendingToClient: pair.pipes.toClient.queuedBytes,
      }));
  }

  /** What happened (connections opened and classified, faults applied), oldest first, for failure messages. */
  history(): string[] {
    return [...this.events];
  }

  /** Stops listening, destroys every connection, clears every timer; resolves once every socket has closed. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.note('close');
      for (const cut of this.cuts.splice(0)) cut.resolve(undefined);
      this.stallRule = undefined;
      this.refusal = undefined;
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
      const done = [...this.pairs].map((pair) => pair.done);
      for (const pair of [...this.pairs]) this.destroyPair(pair, false);
      const server = this.server;
      await Promise.all([...done, new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()))]);
      for (const timer of this.timers) clearTimeout(timer);
      this.timers.clear();
    })();
    return this.closing;
  }

  // ---------------- internals ----------------

  private createServer(): Server {
    const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => this.onConnection(socket));
    // A listening error after start (none expected) must not crash the test process.
    server.on('error', (error) => this.note(`server error: ${error.message}`));
    return server;
  }

  private async bind(server: Server, port: number): Promise<void> {
    const deadline = Date.now() + 2000;
    for (;;) {
      try {
        await new Promise<void>((resolve, reject) => {
          const onError = (error: Error) => reject(error);
          server.once('error', onError);
          server.listen(port, this.host, () => {
            server.off('error', onError);
            resolve();
          });
        });
        if (this.closing) server.close();
        break;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (port === 0 || code !== 'EADDRINUSE' || Date.now() > deadline || this.closing) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    const address = server.address();
    if (typeof address !== 'object' || address === null) throw new Error('the fault proxy has no TCP address');
    this.listeningPort = address.port;
  }

  private onConnection(client: Socket): void {
    if (this.closing) {
      client.destroy();
      return;
    }
    if (this.refusal) {
      this.counts.refused += 1;
      client.on('error', () => {});
      if (this.refusal.mode === 'reset') resetOrDestroy(client);
      else client.destroy();
      return;
    }
    const upstream = connect({ host: this.target.host, port: this.target.port, allowHalfOpen: true, noDelay: true });
    let clientClosed = false;
    let upstreamClosed = false;
    let finish!: () => void;
    const pair: Pair = {
      id: this.nextId++,
      client,
      upstream,
      openedAt: Date.now(),
      pipes: { toServer: pipe('toServer'), toClient: pipe('toClient') },
      done: new Promise<void>((resolve) => (finish = resolve)),
      kind: 'unknown',
      path: undefined,
      upstreamConnected: false,
      doomed: false,
      head: undefined,
      frames: undefined,
    };
    this.pairs.add(pair);
    this.counts.opened += 1;
    this.note(`open #${pair.id}`);

    const onClosed = () => {
      if (!clientClosed || !upstreamClosed) return;
      for (const p of [pair.pipes.toServer, pair.pipes.toClient]) if (p.timer) this.clearTimer(p.timer);
      if (this.pairs.delete(pair)) this.counts.closed += 1;
      finish();
    };
    client.on('error', () => {});
    upstream.on('error', () => {});
    upstream.on('connect', () => {
      pair.upstreamConnected = true;
      this.pump(pair, 'toServer');
    });
    client.on('data', (data: Buffer) => this.onData(pair, 'toServer', data));
    upstream.on('data', (data: Buffer) => this.onData(pair, 'toClient', data));
    client.on('end', () => this.onEnd(pair, 'toServer'));
    upstream.on('end', () => this.onEnd(pair, 'toClient'));
    client.on('drain', () => this.updateFlow(pair, 'toClient'));
    upstream.on('drain', () => this.updateFlow(pair, 'toServer'));
    client.on('close', (hadError) => {
      clientClosed = true;
      this.onSocketClosed(pair, 'toServer', hadError);
      onClosed();
    });
    upstream.on('close', (hadError) => {
      upstreamClosed = true;
      if (!pair.upstreamConnected && !pair.doomed) {
        this.counts.upstreamFailed += 1;
        this.note(`#${pair.id}: upstream unreachable`);
      }
      this.onSocketClosed(pair, 'toClient', hadError);
      onClosed();
    });
  }

  private onData(pair: Pair, dir: Direction, data: Buffer): void {
    if (pair.doomed) return;
    if (dir === 'toServer' && pair.kind === 'unknown') this.classify(pair, data);
    const p = pair.pipes[dir];
    const segments = dir === 'toClient' && pair.frames ? pair.frames.feed(data) : undefined;
    const { jitterMs } = this.delayOf(pair);
    p.queue.push({ data, arrivedAt: Date.now(), jitter: jitterMs > 0 ? this.random() * jitterMs : 0, segments });
    p.queuedBytes += data.length;
    this.updateFlow(pair, dir);
    this.pump(pair, dir);
  }

  /** Looks at the client's first bytes: an HTTP request, and an upgrade to WebSocket or not. */
  private classify(pair: Pair, data: Buffer): void {
    const head = pair.head ? Buffer.concat([pair.head, data]) : data;
    const end = head.indexOf(HEADER_END);
    if (end < 0 && head.length < HEAD_LIMIT) {
      pair.head = head;
      return;
    }
    pair.head = undefined;
    const text = head.subarray(0, end < 0 ? head.length : end).toString('latin1');
    const requestLine = /^[A-Z]+ (\S+) HTTP\/1\.[01]\r?\n/.exec(text);
    if (!requestLine) {
      pair.kind = 'other';
      this.note(`#${pair.id}: other (not HTTP)`);
      return;
    }
    pair.path = requestLine[1]?.split('?')[0];
    if (/\r\nupgrade:[ \t]*websocket[ \t]*(\r\n|$)/i.test(text)) {
      pair.kind = 'websocket';
      pair.frames = new WsFrameTracker();
      this.counts.websocket += 1;
    } else {
      pair.kind = 'http';
    }
    this.note(`#${pair.id}: ${pair.kind} ${pair.path ?? ''}`);
  }

  private onEnd(pair: Pair, dir: Direction): void {
    pair.pipes[dir].ended = true;
    this.pump(pair, dir);
  }

  /**
   * One socket closed. Ended cleanly: whatever the proxy still holds for the
   * other side is delivered, then FIN follows (see `pump`). Closed abruptly:
   * the other side is destroyed too, as a cut network would.
   */
  private onSocketClosed(pair: Pair, from: Direction, hadError: boolean): void {
    const into = from === 'toServer' ? pair.pipes.toClient : pair.pipes.toServer;
    into.queue = [];
    into.queuedBytes = 0;
    const other = from === 'toServer' ? pair.upstream : pair.client;
    if (hadError || !pair.pipes[from].ended) {
      if (!other.destroyed) {
        pair.doomed = true;
        other.destroy();
      }
      return;
    }
    this.pump(pair, from);
  }

  /** The delay a connection's chunks get: the one for every connection plus its kind's own. */
  private delayOf(pair: Pair): { ms: number; jitterMs: number } {
    const all = this.delays.get('any');
    const own = pair.kind === 'unknown' ? undefined : this.delays.get(pair.kind);
    return { ms: (all?.ms ?? 0) + (own?.ms ?? 0), jitterMs: (all?.jitterMs ?? 0) + (own?.jitterMs ?? 0) };
  }

  private isStalled(pair: Pair, dir: Direction): boolean {
    const rule = this.stallRule;
    if (!rule || !matches(pair, rule)) return false;
    return rule.direction === undefined || rule.direction === 'both' || rule.direction === dir;
  }

  private pumpAll(): void {
    for (const pair of [...this.pairs]) {
      this.pump(pair, 'toServer');
      this.pump(pair, 'toClient');
    }
  }

  /** Delivers what is due, in order, unless stalled; then forwards FIN once the source ended and all is delivered. */
  private pump(pair: Pair, dir: Direction): void {
    const p = pair.pipes[dir];
    if (pair.doomed || p.timer || this.closing) return;
    if (dir === 'toServer' && !pair.upstreamConnected) return;
    const dest = dir === 'toServer' ? pair.upstream : pair.client;
    if (dest.destroyed || dest.writableEnded) return;
    if (this.isStalled(pair, dir)) return;
    while (p.queue.length > 0) {
      const head = p.queue[0]!;
      const wait = head.arrivedAt + this.delayOf(pair).ms + head.jitter - Date.now();
      if (wait > 0) {
        p.timer = this.setTimer(() => {
          p.timer = undefined;
          this.pump(pair, dir);
        }, Math.ceil(wait));
        return;
      }
      if (dir === 'toClient' && this.cuts.length > 0 && this.tryCut(pair, head)) return;
      p.queue.shift();
      p.queuedBytes -= head.data.length;
      p.delivered += head.data.length;
      this.counts[dir === 'toServer' ? 'bytesToServer' : 'bytesToClient'] += head.data.length;
      dest.write(head.data);
    }
    if (p.ended && !p.finished) {
      p.finished = true;
      dest.end();
    }
    this.updateFlow(pair, dir);
  }

  /** Applies the first armed cut that matches this connection and chunk; true when the connection was cut. */
  private tryCut(pair: Pair, head: Chunk): boolean {
    const index = this.cuts.findIndex((cut) => matches(pair, cut.filter));
    if (index < 0) return false;
    let at: number;
    let insideFrame = false;
    if (pair.kind === 'websocket') {
      // Only frame bytes are cut; the upgrade response passes whole.
      const segment = head.segments?.find((s) => s.end - s.start >= 2);
      if (!segment) return false;
      at = segment.start + Math.floor((segment.end - segment.start) / 2);
      insideFrame = true;
    } else {
      at = Math.floor(head.data.length / 2);
    }
    const cut = this.cuts.splice(index, 1)[0]!;
    const p = pair.pipes.toClient;
    p.queue.shift();
    p.queuedBytes -= head.data.length;
    p.delivered += at;
    this.counts.bytesToClient += at;
    this.counts.cut += 1;
    pair.doomed = true;
    const info: CutInfo = { connectionId: pair.id, kind: pair.kind, chunkBytes: head.data.length, forwardedBytes: at, insideFrame };
    this.note(`cut #${pair.id} after ${at} of ${head.data.length} bytes`);
    // Destroy only once the partial chunk has reached the kernel, or it would be discarded.
    if (at > 0) pair.client.write(head.data.subarray(0, at), () => this.destroyPair(pair, false));
    else this.destroyPair(pair, false);
    cut.resolve(info);
    return true;
  }

  /** Pauses reading from a direction's source while the proxy holds too much or the destination is full. */
  private updateFlow(pair: Pair, dir: Direction): void {
    const source = dir === 'toServer' ? pair.client : pair.upstream;
    const dest = dir === 'toServer' ? pair.upstream : pair.client;
    if (source.destroyed) return;
    const full = pair.pipes[dir].queuedBytes > this.maxBufferedBytes || dest.writableNeedDrain;
    if (full && !source.isPaused()) source.pause();
    else if (!full && source.isPaused()) source.resume();
  }

  private destroyPair(pair: Pair, reset: boolean): void {
    pair.doomed = true;
    for (const p of [pair.pipes.toServer, pair.pipes.toClient]) {
      if (p.timer) this.clearTimer(p.timer);
      p.timer = undefined;
      p.queue = [];
      p.queuedBytes = 0;
    }
    if (reset) {
      resetOrDestroy(pair.client);
      resetOrDestroy(pair.upstream);
    } else {
      pair.client.destroy();
      pair.upstream.destroy();
    }
  }

  private setTimer(run: () => void, ms: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private clearTimer(timer: ReturnType<typeof setTimeout>): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  private note(event: string): void {
    this.events.push(`${Date.now() - this.startedAt}ms ${event}`);
    if (this.events.length > this.historySize) this.events.splice(0, this.events.length - this.historySize);
  }
}

function resetOrDestroy(socket: Socket): void {
  if (socket.destroyed) return;
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

function describeFilter(filter: ConnectionFilter): string {
  const parts = [filter.kind && filter.kind !== 'any' ? filter.kind : undefined, filter.id !== undefined ? `#${filter.id}` : undefined].filter(Boolean);
  return parts.length > 0 ? ` [${parts.join(' ')}]` : '';
}

/** Starts a fault proxy on 127.0.0.1 and a free port, forwarding to `target`. */
export function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  return new FaultProxy(options).listen();
}

export {
  faultSchedule,
  runSchedule,
  formatSchedule,
  formatRun,
  withFaultContext,
  FAULT_KINDS,
  type FaultKind,
  type FaultEvent,
  type FaultScheduleOptions,
  type AppliedFault,
  type ScheduleRun,
  type ScheduleTarget,
  type ScheduleEmulator,
} from './fault-schedule.js';
export { mulberry32, seedFromEnv, type Random } from './prng.js';
