/**
 * A scheduler that runs work on real time (rxjs `asyncScheduler`) and knows
 * what is still scheduled. Given to a client as `config.scheduler`, it shows
 * every timer the client still holds (backoff, heartbeats, timeouts, token
 * refresh, outbox pacing): after `closeSocket()` there must be none.
 */
import { asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';

interface Pending {
  delay: number;
  scheduledAt: number;
  /** Where it was scheduled from: the library's frames of the stack (for a failure message). */
  where: string;
}

/** The frames of the current stack that are the library's own (src/), innermost first. */
function libraryFrames(): string {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames = stack.split('\n').slice(1);
  const own = frames.filter((f) => f.includes('/src/') && !f.includes('node_modules')).map((f) => f.trim().replace(/^at /, '').replace(/\(.*\/src\//, '(src/'));
  return own.slice(0, 4).join(' < ');
}

export class TrackingScheduler implements SchedulerLike {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly inner: SchedulerLike = asyncScheduler) {}

  now(): number {
    return this.inner.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    const id = this.nextId++;
    // The scheduled work below is a plain function: RxJS calls it with the action as `this`.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const tracker = this;
    this.pending.set(id, { delay, scheduledAt: this.now(), where: libraryFrames() });
    const subscription = this.inner.schedule(
      function (this: SchedulerAction<T>, current?: T) {
        tracker.pending.delete(id);
        // Work that repeats itself (timer with a period, interval) reschedules through `this`: track that too.
        // eslint-disable-next-line @typescript-eslint/no-this-alias
        const action = this;
        const view = new Proxy(action, {
          get(target, property) {
            if (property === 'schedule') {
              return (next?: T, nextDelay = 0) => {
                tracker.pending.set(id, { delay: nextDelay, scheduledAt: tracker.now(), where: libraryFrames() });
                return target.schedule(next, nextDelay);
              };
            }
            const value: unknown = Reflect.get(target, property, target);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          },
        });
        work.call(view, current);
      },
      delay,
      state,
    );
    subscription.add(() => this.pending.delete(id));
    return subscription;
  }

  /** How many scheduled pieces of work have neither run nor been cancelled. */
  get outstanding(): number {
    return this.pending.size;
  }

  /** What is still scheduled, for a failure message: "delay 500 ms, scheduled 1234 ms ago from …". */
  describe(): string[] {
    const now = this.now();
    return [...this.pending.values()].map((p) => `delay ${p.delay} ms, scheduled ${now - p.scheduledAt} ms ago${p.where ? ` from ${p.where}` : ''}`);
  }
}
