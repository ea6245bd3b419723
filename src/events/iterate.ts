import { Observable, takeUntil, tap } from 'rxjs';
import { bufferedValuesFrom } from 'rxjs-for-await';
import { BufferOverflowError } from '../errors/buffer-overflow-error.js';

/** How a `for await` consumer of a stream behaves. */
export interface IterateOptions {
  /**
   * Values waiting for a slow consumer before the iteration fails with a
   * {@link BufferOverflowError} (nothing is dropped silently). Default 10,000.
   */
  maxBuffered?: number;
  /** Ends the iteration when aborted (the loop finishes normally). */
  signal?: AbortSignal;
}

/** Defaults of {@link iterate}. */
export const ITERATE_DEFAULTS = { maxBuffered: 10_000 } as const;

function aborted$(signal: AbortSignal): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    const onAbort = () => subscriber.next(true);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  });
}

/**
 * An AsyncIterable over a stream, through rxjs-for-await. Values that arrive
 * while the loop body runs wait in a buffer (lossless, in order) up to
 * `maxBuffered`. Breaking out of the loop, aborting the signal, or the
 * stream completing unsubscribes at once.
 *
 * @example
 * ```ts
 * import { Events, iterate, type ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * const controller = new AbortController();
 * for await (const message of iterate(client.stream(Events.ChannelMessage), { signal: controller.signal })) {
 *   if (message.content.t === '*stop') break; // ends the loop and unsubscribes
 * }
 * ```
 */
export function iterate<T>(source: Observable<T>, options: IterateOptions = {}): AsyncIterable<T> {
  const limit = options.maxBuffered ?? ITERATE_DEFAULTS.maxBuffered;
  return {
    async *[Symbol.asyncIterator]() {
      let waiting = 0;
      let stream = source.pipe(
        tap(() => {
          waiting += 1;
          if (waiting > limit) throw new BufferOverflowError(limit);
        }),
      );
      if (options.signal) stream = stream.pipe(takeUntil(aborted$(options.signal)));
      // bufferedValuesFrom hands over everything gathered since the last pull in one array,
      // so draining a backlog stays linear (eachValueFrom shifts one value at a time).
      for await (const batch of bufferedValuesFrom(stream)) {
        for (const value of batch) {
          if (options.signal?.aborted) return;
          waiting -= 1;
          yield value;
        }
      }
    },
  };
}
