import { Subject, type Observable, type SchedulerLike } from 'rxjs';
import type { Logger } from '../util/logger.js';
import { describeDebugEvent } from './describe.js';
import type { DebugEvent, DebugRecord, DebugSink, DebugTopic } from './records.js';
import { writeToStderr } from './stderr.js';

/** What a {@link DebugChannel} needs from its client. */
export interface DebugChannelOptions {
  /** Topics to print (empty: print nothing; `debug$` still carries records to its subscribers). */
  topics: ReadonlySet<DebugTopic>;
  /** Stamps records. */
  scheduler: SchedulerLike;
  /** Removes the client's secrets from every line. */
  redact: (text: string) => string;
  /** The user's logger: printed records go to its `debug` instead of stderr. */
  logger?: Pick<Logger, 'debug'>;
}

/**
 * Debug records of one client: made only when someone listens (a `debug$`
 * subscriber, or a printed topic), worded once, redacted, then handed to
 * `debug$` and printed as `clanstream:<topic> <line>`.
 */
export class DebugChannel {
  private readonly records = new Subject<DebugRecord>();
  /** Every record, printed or not, while subscribed. */
  readonly records$: Observable<DebugRecord> = this.records.asObservable();
  /** Hands an event to the channel; cheap when nobody listens. */
  readonly sink: DebugSink = (event) => this.emit(event);

  constructor(private readonly options: DebugChannelOptions) {}

  /** Whether a record of this topic would go anywhere. */
  wants(topic: DebugTopic): boolean {
    return this.records.observed || this.options.topics.has(topic);
  }

  private emit(event: DebugEvent): void {
    if (!this.wants(event.topic)) return;
    const { redact, scheduler, logger, topics } = this.options;
    // URLs and reasons may quote a token; the record's text fields are redacted before anyone sees them.
    const clean = Object.fromEntries(Object.entries(event).map(([key, value]) => [key, typeof value === 'string' ? redact(value) : value])) as DebugEvent;
    const record: DebugRecord = { ...clean, time: scheduler.now(), message: redact(describeDebugEvent(clean)) };
    this.records.next(record);
    if (!topics.has(event.topic)) return;
    const line = `clanstream:${event.topic} ${record.message}`;
    if (logger) logger.debug(line, record);
    else writeToStderr(line);
  }

  /** Completes `records$` (the client is destroyed). */
  complete(): void {
    this.records.complete();
  }
}
