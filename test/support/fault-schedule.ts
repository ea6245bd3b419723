/**
 * Seeded random fault schedules for the reliability suites: `faultSchedule`
 * turns a seed into a deterministic list of faults, `runSchedule` applies them
 * over time to a fault proxy and an emulator and logs what it did, and
 * `formatSchedule` / `withFaultContext` put the seed in failure messages so a
 * run can be replayed (`FAULT_SEED=… npx vitest run …`, see `seedFromEnv`).
 */
import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';
import type { CutInfo, CutOptions, Direction, DropOptions, RefuseMode, StallOptions } from './fault-proxy.js';
import { exponential, mulberry32, pick, randomInt, toSeed } from './prng.js';

/** Every kind of fault a schedule can hold: the proxy's, the emulator's, then kinds added later (at the end, so a schedule that names its kinds replays unchanged). */
export const FAULT_KINDS = [
  'dropAll',
  'dropRandom',
  'stall',
  'delay',
  'cutMidFrame',
  'refuse',
  'dropConnections',
  'expireTokens',
  'failHttp',
  'proverDown',
  'pause',
  'restart',
  'stallHttp',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

type Empty = Record<string, never>;

/** One planned fault, `atMs` after the schedule starts. Faults with `ms` end by themselves. */
export type FaultEvent =
  | { atMs: number; kind: 'dropAll'; params: { reset: boolean } }
  | { atMs: number; kind: 'dropRandom'; params: { probability: number } }
  | { atMs: number; kind: 'stall'; params: { ms: number; direction: 'both' | Direction } }
  | { atMs: number; kind: 'delay'; params: { ms: number; delayMs: number; jitterMs: number } }
  | { atMs: number; kind: 'cutMidFrame'; params: { ms: number } }
  | { atMs: number; kind: 'refuse'; params: { ms: number; mode: Exclude<RefuseMode, 'unlisten'> } }
  | { atMs: number; kind: 'dropConnections'; params: Empty }
  | { atMs: number; kind: 'expireTokens'; params: { refresh: boolean } }
  | { atMs: number; kind: 'failHttp'; params: { status: 429 | 503; count: number; retryAfterSeconds?: number } }
  | { atMs: number; kind: 'proverDown'; params: { ms: number } }
  | { atMs: number; kind: 'pause'; params: { ms: number } }
  /** The emulator is killed and restarted: sockets cut, gateway sessions lost, the port closed for `ms`. */
  | { atMs: number; kind: 'restart'; params: { ms: number } }
  /** HTTP responses are held for `ms` while the gateway flows (REST and gateway on different paths, one slow). */
  | { atMs: number; kind: 'stallHttp'; params: { ms: number } };

export interface FaultScheduleOptions {
  seed: number;
  /** Faults start within [startMs, durationMs). */
  durationMs: number;
  /** Mean time between two faults (gaps are exponential: a Poisson process). */
  meanGapMs: number;
  /** Kinds to draw from, uniformly; list a kind twice to make it twice as likely. */
  kinds: readonly FaultKind[];
  /** Longest stall, delay period, refusal, pause, prover outage, restart downtime or armed cut (default 400 ms). */
  maxFaultMs?: number;
  /** No fault before this (default 0). */
  startMs?: number;
}

/**
 * A deterministic list of faults for a seed: the same options give the same
 * list on every machine. Ordered by `atMs`.
 */
export function faultSchedule(options: FaultScheduleOptions): FaultEvent[] {
  const { durationMs, meanGapMs, kinds, maxFaultMs = 400, startMs = 0 } = options;
  if (!(durationMs > 0)) throw new Error(`durationMs must be > 0, got ${durationMs}`);
  if (!(meanGapMs > 0)) throw new Error(`meanGapMs must be > 0, got ${meanGapMs}`);
  if (!(maxFaultMs >= 20)) throw new Error(`maxFaultMs must be ≥ 20, got ${maxFaultMs}`);
  if (kinds.length === 0) throw new Error('kinds must name at least one fault kind');
  for (const kind of kinds) if (!(FAULT_KINDS as readonly string[]).includes(kind)) throw new Error(`unknown fault kind "${kind}"; known: ${FAULT_KINDS.join(', ')}`);
  const random = mulberry32(options.seed);
  const span = () => randomInt(random, 20, maxFaultMs);
  const events: FaultEvent[] = [];
  for (let t = startMs + exponential(random, meanGapMs); t < durationMs; t += exponential(random, meanGapMs)) {
    const atMs = Math.floor(t);
    const kind = pick(random, kinds);
    switch (kind) {
      case 'dropAll':
        events.push({ atMs, kind, params: { reset: random() < 0.5 } });
        break;
      case 'dropRandom':
        events.push({ atMs, kind, params: { probability: Math.round((0.2 + 0.6 * random()) * 100) / 100 } });
        break;
      case 'stall':
        events.push({ atMs, kind, params: { ms: span(), direction: pick(random, ['both', 'both', 'toClient', 'toServer'] as const) } });
        break;
      case 'delay':
        events.push({ atMs, kind, params: { ms: span(), delayMs: randomInt(random, 1, 50), jitterMs: randomInt(random, 0, 20) } });
        break;
      case 'cutMidFrame':
        events.push({ atMs, kind, params: { ms: span() } });
        break;
      case 'refuse':
        events.push({ atMs, kind, params: { ms: span(), mode: pick(random, ['reset', 'close'] as const) } });
        break;
      case 'dropConnections':
        events.push({ atMs, kind, params: {} });
        break;
      case 'expireTokens':
        events.push({ atMs, kind, params: { refresh: random() < 0.25 } });
        break;
      case 'failHttp': {
        const status = pick(random, [429, 503] as const);
        const count = randomInt(random, 1, 3);
        events.push({ atMs, kind, params: status === 429 ? { status, count, retryAfterSeconds: randomInt(random, 0, 1) } : { status, count } });
        break;
      }
      case 'proverDown':
        events.push({ atMs, kind, params: { ms: span() } });
        break;
      case 'pause':
        events.push({ atMs, kind, params: { ms: span() } });
        break;
      case 'restart':
        events.push({ atMs, kind, params: { ms: span() } });
        break;
      case 'stallHttp':
        events.push({ atMs, kind, params: { ms: span() } });
        break;
    }
  }
  return events;
}

/** The proxy controls a schedule uses (a {@link FaultProxy} or a test double). */
export interface ScheduleTarget {
  dropAll(options?: DropOptions): number;
  dropRandom(probability: number, options?: DropOptions): number;
  stall(on: boolean, options?: StallOptions): void;
  delay(ms: number, options?: { jitterMs?: number }): void;
  cutMidFrame(options?: CutOptions): Promise<CutInfo | undefined>;
  refuse(options?: number | { forMs?: number; mode?: RefuseMode }): void;
  accept(): Promise<void>;
}

/** The emulator fault controls a schedule uses (an `Emulator` or a test double). */
export interface ScheduleEmulator {
  dropConnections(): void;
  expireTokens(options?: { refresh?: boolean }): void;
  failHttp(fault: { status: number; count?: number; retryAfterSeconds?: number }): void;
  setServiceDown(service: 'prover' | 'ledger', down: boolean): void;
  pause(): void;
  resume(): void;
  /** Kills and restarts the server; resolves once it listens again (a restart while down extends the outage). */
  restart(options?: { downMs?: number }): Promise<unknown>;
}

/** One thing `runSchedule` did. */
export interface AppliedFault {
  kind: FaultKind;
  /** `start` and `end` of a fault; `fired` when an armed cut hit a connection. */
  phase: 'start' | 'end' | 'fired';
  /** When it was planned, from the schedule's start. */
  atMs: number;
  /** When it happened, by the scheduler's clock, from the schedule's start. */
  elapsedMs: number;
  params: FaultEvent['params'];
  /** What it did (e.g. "dropped 2"). */
  detail?: string;
  /** Why it could not be applied. */
  error?: string;
}

export interface RunScheduleOptions {
  /** Clock and timers (default: rxjs `asyncScheduler`, real time); a TestScheduler runs it in virtual time. */
  scheduler?: SchedulerLike;
  /** Called with each log entry as it is appended. */
  onApply?: (entry: AppliedFault) => void;
}

/**
 * A schedule being applied. `await run` (or `run.done`) gives the log once
 * every fault has started and ended; `run.stop()` ends active faults at once
 * and cancels the rest (call it in `afterEach`, so a failed test leaves no
 * fault on and no timer behind). `run.log` is the log so far.
 */
export class ScheduleRun implements PromiseLike<AppliedFault[]> {
  readonly log: AppliedFault[] = [];
  readonly done: Promise<AppliedFault[]>;
  private finish!: (log: AppliedFault[]) => void;
  private readonly scheduler: SchedulerLike;
  private readonly startedAt: number;
  private readonly pending = new Set<Subscription>();
  private outstanding = 0;
  private stopped = false;
  /** Stalls in force, oldest first; the proxy holds one rule at a time, so the newest applies. */
  private readonly stalls: Array<{ kind: 'stall' | 'stallHttp'; rule: StallOptions }> = [];
  private readonly delays: Array<Extract<FaultEvent, { kind: 'delay' }>['params']> = [];
  private readonly refusals: Array<Extract<FaultEvent, { kind: 'refuse' }>['params']> = [];
  private readonly cuts = new Set<AbortController>();
  private pauses = 0;
  private proverOutages = 0;
  /** Restarts whose server does not listen yet. */
  private readonly restarts = new Set<Promise<unknown>>();

  constructor(
    private readonly proxy: ScheduleTarget | undefined,
    private readonly emu: ScheduleEmulator | undefined,
    readonly schedule: readonly FaultEvent[],
    private readonly options: RunScheduleOptions = {},
  ) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.startedAt = this.scheduler.now();
    this.outstanding = schedule.length;
    for (const event of schedule) this.at(event.atMs, () => this.start(event));
    this.settle();
  }

  then<R1 = AppliedFault[], R2 = never>(onFulfilled?: ((log: AppliedFault[]) => R1 | PromiseLike<R1>) | null, onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null): PromiseLike<R1 | R2> {
    return this.done.then(onFulfilled, onRejected);
  }

  /** Cancels what has not started, ends every active fault now, and resolves with the log. */
  async stop(): Promise<AppliedFault[]> {
    if (this.stopped) return this.done;
    this.stopped = true;
    for (const subscription of this.pending) subscription.unsubscribe();
    this.pending.clear();
    for (const cut of this.cuts) cut.abort();
    this.cuts.clear();
    // Only what this run turned on is turned off.
    const ended: FaultKind[] = [];
    if (this.stalls.length > 0) {
      ended.push(...new Set(this.stalls.map((s) => s.kind)));
      this.stalls.length = 0;
      this.proxy?.stall(false);
    }
    if (this.delays.length > 0) {
      this.delays.length = 0;
      this.proxy?.delay(0);
      ended.push('delay');
    }
    if (this.pauses > 0) {
      this.pauses = 0;
      this.emu?.resume();
      ended.push('pause');
    }
    if (this.proverOutages > 0) {
      this.proverOutages = 0;
      this.emu?.setServiceDown('prover', false);
      ended.push('proverDown');
    }
    if (this.refusals.length > 0) {
      this.refusals.length = 0;
      ended.push('refuse');
      await this.proxy?.accept().catch(() => undefined);
    }
    // A restarted server cannot be hurried: wait until it listens again (its own `end` entry says so).
    await Promise.allSettled([...this.restarts]);
    this.outstanding = 0;
    for (const kind of ended) this.record({ kind, phase: 'end', atMs: this.now(), elapsedMs: this.now(), params: {}, detail: 'ended by stop()' });
    this.finish(this.log);
    return this.done;
  }

  private now(): number {
    return this.scheduler.now() - this.startedAt;
  }

  private at(atMs: number, run: () => void): void {
    const subscription = this.scheduler.schedule(() => {
      this.pending.delete(subscription);
      if (!this.stopped) run();
    }, Math.max(0, atMs - this.now()));
    this.pending.add(subscription);
  }

  /** Plans the end of a fault that lasts `ms`. */
  private after(event: FaultEvent, ms: number, end: () => string | undefined): void {
    this.outstanding += 1;
    this.at(event.atMs + ms, () => {
      this.apply(event, 'end', event.atMs + ms, end);
      this.outstanding -= 1;
      this.settle();
    });
  }

  private settle(): void {
    if (this.outstanding === 0 && !this.stopped) {
      this.stopped = true;
      this.finish(this.log);
    }
  }

  private record(entry: AppliedFault): void {
    this.log.push(entry);
    this.options.onApply?.(entry);
  }

  private apply(event: FaultEvent, phase: AppliedFault['phase'], atMs: number, run: () => string | undefined): void {
    const entry: AppliedFault = { kind: event.kind, phase, atMs, elapsedMs: this.now(), params: event.params };
    try {
      const detail = run();
      if (detail !== undefined) entry.detail = detail;
    } catch (error) {
      entry.error = error instanceof Error ? error.message : JSON.stringify(error);
    }
    this.record(entry);
  }

  private needProxy(): ScheduleTarget {
    if (!this.proxy) throw new Error('this schedule has proxy faults but no proxy was given');
    return this.proxy;
  }

  private needEmu(): ScheduleEmulator {
    if (!this.emu) throw new Error('this schedule has emulator faults but no emulator was given');
    return this.emu;
  }

  /** A stall for the event's `ms`; when it ends, the newest stall still in force applies again, or none. */
  private stallFor(event: Extract<FaultEvent, { kind: 'stall' | 'stallHttp' }>, rule: StallOptions): void {
    const entry = { kind: event.kind, rule };
    const describeRule = (r: StallOptions) => `${r.kind ? `${r.kind} ` : ''}${r.direction ?? 'both'}`;
    this.apply(event, 'start', event.atMs, () => {
      this.needProxy().stall(true, rule);
      this.stalls.push(entry);
      return undefined;
    });
    this.after(event, event.params.ms, () => {
      remove(this.stalls, entry);
      const last = this.stalls.at(-1);
      if (last) this.needProxy().stall(true, last.rule);
      else this.needProxy().stall(false);
      return last ? `still stalled (${describeRule(last.rule)})` : undefined;
    });
  }

  /** Logs the end of a restart once the emulator listens again (or why it could not). */
  private untilRestarted(event: Extract<FaultEvent, { kind: 'restart' }>, restarted: Promise<unknown>): void {
    this.outstanding += 1;
    this.restarts.add(restarted);
    const end = (error?: unknown) => {
      this.restarts.delete(restarted);
      const entry: AppliedFault = { kind: 'restart', phase: 'end', atMs: event.atMs + event.params.ms, elapsedMs: this.now(), params: event.params, detail: 'listening again' };
      if (error !== undefined) {
        delete entry.detail;
        entry.error = error instanceof Error ? error.message : JSON.stringify(error);
      }
      this.record(entry);
      this.outstanding -= 1;
      this.settle();
    };
    restarted.then(() => end(), (error: unknown) => end(error ?? 'restart failed'));
  }

  private start(event: FaultEvent): void {
    switch (event.kind) {
      case 'dropAll':
        this.apply(event, 'start', event.atMs, () => `dropped ${this.needProxy().dropAll({ reset: event.params.reset })}`);
        break;
      case 'dropRandom':
        this.apply(event, 'start', event.atMs, () => `dropped ${this.needProxy().dropRandom(event.params.probability)}`);
        break;
      case 'stall':
        this.stallFor(event, { direction: event.params.direction });
        break;
      case 'stallHttp':
        this.stallFor(event, { kind: 'http', direction: 'toClient' });
        break;
      case 'delay': {
        const params = event.params;
        this.apply(event, 'start', event.atMs, () => {
          this.needProxy().delay(params.delayMs, { jitterMs: params.jitterMs });
          this.delays.push(params);
          return undefined;
        });
        this.after(event, params.ms, () => {
          remove(this.delays, params);
          const last = this.delays.at(-1);
          this.needProxy().delay(last?.delayMs ?? 0, { jitterMs: last?.jitterMs ?? 0 });
          return last ? `still delayed (${last.delayMs} ms)` : undefined;
        });
        break;
      }
      case 'cutMidFrame': {
        const controller = new AbortController();
        let fired = false;
        this.apply(event, 'start', event.atMs, () => {
          this.cuts.add(controller);
          void this.needProxy()
            .cutMidFrame({ kind: 'websocket', signal: controller.signal })
            .then((info) => {
              this.cuts.delete(controller);
              if (!info) return;
              fired = true;
              this.record({
                kind: 'cutMidFrame',
                phase: 'fired',
                atMs: event.atMs,
                elapsedMs: this.now(),
                params: event.params,
                detail: `cut #${info.connectionId} after ${info.forwardedBytes} of ${info.chunkBytes} bytes`,
              });
            });
          return 'armed';
        });
        this.after(event, event.params.ms, () => {
          controller.abort();
          this.cuts.delete(controller);
          return fired ? undefined : 'disarmed unfired';
        });
        break;
      }
      case 'refuse': {
        const params = event.params;
        this.apply(event, 'start', event.atMs, () => {
          this.needProxy().refuse({ mode: params.mode });
          this.refusals.push(params);
          return undefined;
        });
        this.after(event, params.ms, () => {
          remove(this.refusals, params);
          const last = this.refusals.at(-1);
          if (last) this.needProxy().refuse({ mode: last.mode });
          else void this.needProxy().accept();
          return last ? `still refusing (${last.mode})` : undefined;
        });
        break;
      }
      case 'dropConnections':
        this.apply(event, 'start', event.atMs, () => {
          this.needEmu().dropConnections();
          return undefined;
        });
        break;
      case 'expireTokens':
        this.apply(event, 'start', event.atMs, () => {
          this.needEmu().expireTokens({ refresh: event.params.refresh });
          return undefined;
        });
        break;
      case 'failHttp':
        this.apply(event, 'start', event.atMs, () => {
          this.needEmu().failHttp(event.params);
          return undefined;
        });
        break;
      case 'proverDown':
        this.apply(event, 'start', event.atMs, () => {
          const emu = this.needEmu();
          if (this.proverOutages++ === 0) emu.setServiceDown('prover', true);
          return undefined;
        });
        this.after(event, event.params.ms, () => {
          if (this.proverOutages === 0) return undefined;
          if (--this.proverOutages === 0) this.needEmu().setServiceDown('prover', false);
          return this.proverOutages > 0 ? 'still down' : undefined;
        });
        break;
      case 'restart': {
        let restarted: Promise<unknown> | undefined;
        this.apply(event, 'start', event.atMs, () => {
          restarted = this.needEmu().restart({ downMs: event.params.ms });
          return undefined;
        });
        if (restarted) this.untilRestarted(event, restarted);
        break;
      }
      case 'pause':
        this.apply(event, 'start', event.atMs, () => {
          const emu = this.needEmu();
          if (this.pauses++ === 0) emu.pause();
          return undefined;
        });
        this.after(event, event.params.ms, () => {
          if (this.pauses === 0) return undefined;
          if (--this.pauses === 0) this.needEmu().resume();
          return this.pauses > 0 ? 'still paused' : undefined;
        });
        break;
    }
    this.outstanding -= 1;
    this.settle();
  }
}

function remove<T>(list: T[], item: T): void {
  const index = list.indexOf(item);
  if (index >= 0) list.splice(index, 1);
}

/**
 * Applies a schedule: proxy faults to `proxy`, emulator faults to `emu`
 * (either may be undefined when the schedule holds none of its kinds; a fault
 * without its target is logged with an `error`). Every fault that lasts is
 * ended in time, so nothing stays active once the run is done.
 */
export function runSchedule(proxy: ScheduleTarget | undefined, emu: ScheduleEmulator | undefined, schedule: readonly FaultEvent[], options: RunScheduleOptions = {}): ScheduleRun {
  return new ScheduleRun(proxy, emu, schedule, options);
}

const formatEvent = (event: { atMs: number; kind: string; params: object }) => `${event.atMs}ms ${event.kind}${Object.keys(event.params).length > 0 ? JSON.stringify(event.params) : ''}`;

/** `seed=42 schedule=[120ms dropAll{"reset":false}, …]`: everything needed to replay a schedule. */
export function formatSchedule(seed: number, schedule: readonly FaultEvent[]): string {
  return `seed=${toSeed(seed)} schedule=[${schedule.map(formatEvent).join(', ')}]`;
}

/** The seed, the schedule and what was applied, for a failure message. */
export function formatRun(seed: number, schedule: readonly FaultEvent[], log: readonly AppliedFault[] = []): string {
  const applied = log.map((e) => `${e.elapsedMs}ms ${e.kind} ${e.phase}${e.detail ? ` (${e.detail})` : ''}${e.error ? ` ERROR ${e.error}` : ''}`);
  return `${formatSchedule(seed, schedule)}\napplied=[${applied.join(', ')}]\nreplay with FAULT_SEED=${toSeed(seed)}`;
}

/**
 * Runs a test body; if it fails, the error is rethrown with the seed, the
 * schedule, the applied log and (when given) the proxy's history added to
 * its message, so the run can be replayed.
 */
export async function withFaultContext<T>(
  context: { seed: number; schedule?: readonly FaultEvent[]; run?: { log: readonly AppliedFault[] }; history?: () => readonly string[] },
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } catch (error) {
    const base = error instanceof Error ? error.message : String(error);
    const lines = [base, '', formatRun(context.seed, context.schedule ?? [], context.run?.log ?? [])];
    const history = context.history?.();
    if (history && history.length > 0) lines.push(`proxy history (last 50):\n  ${history.slice(-50).join('\n  ')}`);
    const wrapped = new Error(lines.join('\n'), { cause: error });
    if (error instanceof Error && error.stack) wrapped.stack = `${wrapped.message}\n${error.stack.split('\n').slice(1).join('\n')}`;
    throw wrapped;
  }
}
