import { defer, filter, type MonoTypeOperatorFunction } from 'rxjs';

/** How many transaction ids are remembered by default. */
export const DISTINCT_TRANSFERS_LIMIT = 10_000;

/**
 * The last `limit` transaction ids seen (oldest forgotten first): tells a new
 * `token_sent_event` from a repeat (a replay after a resume, a duplicate
 * push) with bounded memory.
 */
export class TransferIdWindow {
  private readonly seen = new Set<string>();

  constructor(private readonly limit = DISTINCT_TRANSFERS_LIMIT) {
    if (!(Number.isSafeInteger(limit) && limit > 0)) throw new RangeError('limit must be a positive integer');
  }

  /** True the first time an id is seen, and always for a missing id (nothing to compare). */
  isNew(transactionId: string | undefined): boolean {
    if (!transactionId) return true;
    if (this.seen.has(transactionId)) return false;
    this.seen.add(transactionId);
    if (this.seen.size > this.limit) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return true;
  }

  /** Forgets every id seen, so any id counts as new again. */
  clear(): void {
    this.seen.clear();
  }
}

/**
 * Lets each transfer through once: drops an event whose `transaction_id` was
 * already seen among the last `limit`. Events without one always pass. State
 * is per subscription.
 */
export function distinctTransfers<T extends { transaction_id?: string | undefined }>(limit = DISTINCT_TRANSFERS_LIMIT): MonoTypeOperatorFunction<T> {
  new TransferIdWindow(limit); // checks the limit now, not at subscription
  return (source) =>
    defer(() => {
      const window = new TransferIdWindow(limit);
      return source.pipe(filter((event) => window.isNew(event.transaction_id)));
    });
}
