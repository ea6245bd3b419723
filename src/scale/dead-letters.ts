import type { ScaleRedis } from './redis-client.js';
import { ConnectionError } from '../errors/connection-error.js';
import { ValidationError } from '../errors/validation-error.js';
import { decodeEventEntry, fieldsOf, type EventEntry } from './event-entry.js';
import type { ScaleKeys } from './keys.js';
import { LETTER_FIELD_PREFIX } from './scripts.js';

/** One dead letter: the entry that could not be handled, and why. */
export interface DeadLetter {
  /** Id in the dead-letter stream. */
  readonly id: string;
  /** Id the entry had in the events stream. */
  readonly entryId: string;
  readonly reason: string;
  readonly deliveries: number;
  /** The consumer that gave up on it. */
  readonly consumer: string;
  /** When (seconds since the epoch, Redis's clock). */
  readonly at: number;
  /** The event, when the entry was readable. */
  readonly entry: EventEntry | undefined;
  /** The entry's fields as stored. */
  readonly fields: Readonly<Record<string, string>>;
}

function letterOf(id: string, flat: readonly unknown[]): DeadLetter {
  const original: string[] = [];
  const letter: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [name, value] = [flat[i], flat[i + 1]];
    if (typeof name !== 'string' || typeof value !== 'string') continue;
    if (name.startsWith(LETTER_FIELD_PREFIX)) original.push(name.slice(LETTER_FIELD_PREFIX.length), value);
    else letter[name] = value;
  }
  const entryId = letter.entry ?? '';
  const decoded = decodeEventEntry(entryId, original);
  return {
    id,
    entryId,
    reason: letter.reason ?? '',
    deliveries: Number(letter.deliveries ?? 0),
    consumer: letter.consumer ?? '',
    at: Number(letter.at ?? 0),
    entry: 'event' in decoded ? decoded : undefined,
    fields: fieldsOf(original),
  };
}

/**
 * The dead letters of a bot: entries that were delivered too often without
 * being handled, or could not be read. List and inspect them, re-drive one
 * (it is published again as a new entry, handled like any other) or delete it.
 */
export class DeadLetters {
  constructor(
    private readonly redis: ScaleRedis,
    private readonly keys: ScaleKeys,
  ) {}

  /** How many there are. */
  count(): Promise<number> {
    return this.redis.xlen(this.keys.deadLetters);
  }

  /** The oldest `limit` dead letters (from `after`, exclusive, to page on). */
  async list(options: { limit?: number; after?: string } = {}): Promise<DeadLetter[]> {
    const start = options.after ? `(${options.after}` : '-';
    const rows = await this.redis.xrange(this.keys.deadLetters, start, '+', 'COUNT', options.limit ?? 100);
    return rows.map(([id, flat]) => letterOf(id, flat));
  }

  /** One dead letter by its id, or undefined. */
  async get(id: string): Promise<DeadLetter | undefined> {
    const [row] = await this.redis.xrange(this.keys.deadLetters, id, id);
    return row ? letterOf(row[0], row[1]) : undefined;
  }

  /**
   * Publishes the entry again (a new stream entry with the same fields, so
   * its commands keep their idempotency keys) and removes the dead letter,
   * in one step. Resolves with the new entry's id.
   */
  async redrive(id: string): Promise<string> {
    const letter = await this.get(id);
    if (!letter) throw new ValidationError([{ path: 'id', message: `no dead letter ${id}`, code: 'invalid' }], 'dead letter');
    const fields = Object.entries(letter.fields).flat();
    if (fields.length === 0) throw new ValidationError([{ path: 'id', message: `dead letter ${id} holds no entry fields to publish`, code: 'invalid' }], 'dead letter');
    const replies = await this.redis.multi().xadd(this.keys.events, '*', ...fields).xdel(this.keys.deadLetters, id).exec();
    const added = replies?.[0]?.[1];
    if (typeof added !== 'string') throw new ConnectionError(`re-driving dead letter ${id} failed: Redis did not run the transaction`, { fatal: false });
    return added;
  }

  /** Deletes a dead letter; false when there was none. */
  async delete(id: string): Promise<boolean> {
    return (await this.redis.xdel(this.keys.deadLetters, id)) === 1;
  }
}
