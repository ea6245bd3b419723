import { Observable, Subject, type Subscription } from 'rxjs';

/** A stream subscribed ahead of its reader: see {@link holdStream}. */
export interface HeldStream<T> {
  /**
   * The values: the first subscriber gets everything held so far, then the
   * live values; later subscribers get the live values only.
   */
  readonly values$: Observable<T>;
  /** Unsubscribes from the source and drops whatever is still held. */
  release(): void;
}

type Ending = { readonly error: unknown } | 'complete';

/**
 * Subscribes to `source$` now and holds its values until someone reads them.
 * A collector on a message still being sent needs this: a click can arrive
 * in the same socket read as the send's acknowledgement, before the code
 * waiting on the send runs again.
 */
export function holdStream<T>(source$: Observable<T>): HeldStream<T> {
  const live = new Subject<T>();
  let held: T[] | undefined = [];
  let ending: Ending | undefined;
  const end = (how: Ending): void => {
    if (how === 'complete') live.complete();
    else live.error(how.error);
  };
  const subscription: Subscription = source$.subscribe({
    next: (value) => (held ? held.push(value) : live.next(value)),
    error: (error: unknown) => (held ? (ending = { error }) : end({ error })),
    complete: () => (held ? (ending = 'complete') : end('complete')),
  });
  const values$ = new Observable<T>((subscriber) => {
    const inner = live.subscribe(subscriber);
    if (held) {
      const replay = held;
      held = undefined;
      for (const value of replay) subscriber.next(value);
      if (ending) end(ending);
    }
    return inner;
  });
  return {
    values$,
    release: () => {
      subscription.unsubscribe();
      held = undefined;
    },
  };
}
