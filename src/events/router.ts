import { Subject, type Observable } from 'rxjs';
import type { Events } from './names.js';
import type { ClanstreamEvent, EventPayloadMap } from './payloads.js';

/**
 * Fans processed events out: one Subject for all events and one per event
 * type, so routing costs one map lookup per event whatever the number of types.
 */
export class EventRouter {
  private readonly all = new Subject<ClanstreamEvent>();
  private readonly byType = new Map<Events, Subject<unknown>>();
  /** Every event, as `{type, seq, data}`. */
  readonly events$: Observable<ClanstreamEvent> = this.all.asObservable();

  /** The payloads of one event type. */
  stream<K extends Events>(type: K): Observable<EventPayloadMap[K]> {
    return this.subjectOf(type).asObservable() as Observable<EventPayloadMap[K]>;
  }

  /** Emits an event on `events$` and on its type's stream; a stream nobody subscribes to is skipped, so the event is not buffered for later subscribers. */
  publish(event: ClanstreamEvent): void {
    const typed = this.byType.get(event.type);
    if (typed !== undefined && typed.observed) typed.next(event.data);
    if (this.all.observed) this.all.next(event);
  }

  private subjectOf(type: Events): Subject<unknown> {
    let subject = this.byType.get(type);
    if (!subject) this.byType.set(type, (subject = new Subject()));
    return subject;
  }

  /** Completes every stream (subscribers see `complete`). */
  complete(): void {
    this.all.complete();
    for (const subject of this.byType.values()) subject.complete();
  }
}
