import type { Observable, Subscription } from 'rxjs';
import { ListenerError } from '../errors/listener-error.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';

/** A callback: may return a promise, whose rejection is caught like a throw. */
export type Listener<T> = (payload: T) => unknown;

/**
 * Callback-style listeners over streams. A listener that throws or rejects is
 * reported as a {@link ListenerError} and never affects other listeners or
 * the stream. Registering the same function twice for one event is a no-op.
 */
export class ListenerRegistry {
  private readonly subscriptions = new Map<string, Map<Listener<never>, Subscription>>();

  constructor(private readonly report: (error: ClanstreamError) => void) {}

  /** Subscribes a listener to `source` under an event name; adding the same function again for that name does nothing. */
  add<T>(name: string, source: Observable<T>, listener: Listener<T>): void {
    let forEvent = this.subscriptions.get(name);
    if (!forEvent) this.subscriptions.set(name, (forEvent = new Map<Listener<never>, Subscription>()));
    if (forEvent.has(listener)) return;
    const subscription = source.subscribe((payload) => this.invoke(name, listener, payload));
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
  }

  private invoke<T>(name: string, listener: Listener<T>, payload: T): void {
    try {
      const result = listener(payload);
      if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, (error: unknown) => this.report(new ListenerError(name, error)));
      }
    } catch (error) {
      this.report(new ListenerError(name, error));
    }
  }
}
