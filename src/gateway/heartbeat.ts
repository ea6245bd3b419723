import { exhaustMap, ignoreElements, interval, throwError, timeout, type Observable, type SchedulerLike } from 'rxjs';

/** The server did not answer a ping in time: the connection is considered dead. */
export class HeartbeatTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no pong within ${timeoutMs} ms`);
    this.name = 'HeartbeatTimeout';
  }
}

/**
 * Pings every `intervalMs` and fails with {@link HeartbeatTimeout} when a
 * ping is not answered within `timeoutMs`. A ping is not sent while the
 * previous one is still waiting. Emits nothing otherwise.
 */
export function heartbeat(ping: () => Observable<unknown>, intervalMs: number, timeoutMs: number, scheduler: SchedulerLike): Observable<never> {
  return interval(intervalMs, scheduler).pipe(
    exhaustMap(() =>
      ping().pipe(
        timeout({ first: timeoutMs, scheduler, with: () => throwError(() => new HeartbeatTimeout(timeoutMs)) }),
      ),
    ),
    ignoreElements(),
  );
}
