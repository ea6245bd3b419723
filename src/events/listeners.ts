import type { Observable, Subscription } from 'rxjs';
import { ListenerError } from '../errors/listener-error.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';

/** A callback: may return a promise, whose rejection is caught like a throw. */
export type Listener<T> = (payload: T) => unknown;

/**
 * Calls one listener: `call()` runs it and returns what it returned. `ordinal`
 * numbers the listeners of one event in the order they were added, so a
 * runner can tell them apart (a scale-out worker keys each one's commands).
 */
export type ListenerRunner = (event: string, ordinal: number, call: () => unknown) => unknown;

const callDirectly: ListenerRunner = (_event, _ordinal, call) => call();

/**
 * Callback-style listeners over streams. A listener that throws or rejects is
 * reported as a {@link ListenerError} and never affects other listeners or
 * the stream. Registering the same function twice for one event is a no-op.
 */
export class ListenerRegistry {
  private readonly subscriptions = new Map<string, Map<Listener<never>, Subscription>>();
  private readonly added = new Map<string, number>();

  constructor(
    private readonly report: (error: ClanstreamError) => void,
    private readonly run: ListenerRunner = callDirectly,
  ) {}

  /** Subscribes a listener to `source` under an event name; adding the same function again for that name does nothing. */
  add<T>(name: string, source: Observable<T>, listener: Listener<T>): void {
    let forEvent = this.subscriptions.get(name);
    if (!forEvent) this.subscriptions.set(name, (forEvent = new Map<Listener<never>, Subscription>()));
    if (forEvent.has(listener)) return;
    const ordinal = this.added.get(name) ?? 0;
    this.added.set(name, ordinal + 1);
    const subscription = source.subscribe((payload) => this.invoke(name, ordinal, listener, payload));
    forEvent.set(listener, subscription);
  }

  /** Unsubscribes a listener from an event name; false when it was not registered there. */
  remove(name: string, listener: Listener<never>): boolean {
    const subscription = this.subscriptions.get(name)?.get(listener);
    if (!subscription) return false;
    subscription.unsubscribe();
    this.subscriptions.get(name)?.delete(listener);
    return true;
  }

  /** How many listeners are registered (for one event, or in all). */
  count(name?: string): number {
    if (name !== undefined) return this.subscriptions.get(name)?.size ?? 0;
    let total = 0;
    for (const map of this.subscriptions.values()) total += map.size;
    return total;
  }

  /** Unsubscribes every listener of every event. */
  clear(): void {
    for (const map of this.subscriptions.values()) for (const subscription of map.values()) subscription.unsubscribe();
    this.subscriptions.clear();
    this.added.clear();
  }

  private invoke<T>(name: string, ordinal: number, listener: Listener<T>, payload: T): void {
    try {
      const result = this.run(name, ordinal, () => listener(payload));
      if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, (error: unknown) => this.report(new ListenerError(name, error)));
      }
    } catch (error) {
      this.report(new ListenerError(name, error));
    }
  }
}
