import { defer, first, map, Observable, switchMap, tap, type Subscription } from 'rxjs';

/** Reads the network's nonce of an address (the nonce of its last accepted transaction; 0 before any). */
export type NonceReader = (address: string) => Observable<number>;

/**
 * The right to use one nonce, held by one caller at a time per address. The
 * holder says what became of it before it gives the lane back (when the
 * Observable it returned from `use` ends):
 *
 * - `commit()`: a transaction with this nonce was accepted; the next caller gets `nonce + 1`;
 * - `release()`: the nonce was not used (refused for another reason, never sent); the next caller gets it again;
 * - neither: the outcome is unknown (a network failure, a cancelled submit, a
 *   nonce rejection that a resync did not cure); the next caller reads the
 *   network first. A nonce therefore never leaves a gap and is never reused.
 */
export interface NonceLease {
  readonly address: string;
  /** The nonce to sign with: last accepted + 1. */
  readonly nonce: number;
  /** Records that a transaction with this nonce was accepted: the next caller gets `nonce + 1`. Ignored once settled or given back. */
  commit(): void;
  /** Records that this nonce was not used: the next caller gets the same nonce. Ignored once settled or given back. */
  release(): void;
  /** After a nonce rejection: reads the network again and moves this lease to the nonce after it. */
  resync$(): Observable<number>;
}

interface Lane {
  /** Nonce of the last accepted transaction as far as this client knows; `undefined`: ask the network. */
  last: number | undefined;
  busy: boolean;
  queue: Array<() => void>;
  pumping: boolean;
}

function checkNonce(address: string): (value: number) => number {
  return (value) => {
    if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`the network gave nonce ${String(value)} for ${address}; expected a non-negative integer`);
    return value;
  };
}

class Lease implements NonceLease {
  #nonce: number;
  #settled: 'commit' | 'release' | undefined;
  #closed = false;

  constructor(
    private readonly lane: Lane,
    readonly address: string,
    private readonly read: (address: string) => Observable<number>,
    nonce: number,
  ) {
    this.#nonce = nonce;
  }

  get nonce(): number {
    return this.#nonce;
  }

  commit(): void {
    if (this.#closed || this.#settled) return;
    this.#settled = 'commit';
    this.lane.last = this.#nonce;
  }

  release(): void {
    if (this.#closed || this.#settled) return;
    this.#settled = 'release';
  }

  resync$(): Observable<number> {
    return defer(() => {
      if (this.#closed) throw new Error('this nonce lease was already given back');
      this.lane.last = undefined;
      return this.read(this.address).pipe(
        map((last) => {
          this.lane.last = last;
          this.#settled = undefined;
          this.#nonce = last + 1;
          return this.#nonce;
        }),
      );
    });
  }

  /** The holder is done: an unsettled lease means the outcome is unknown, so the next caller resyncs. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#settled) this.lane.last = undefined;
  }
}

/**
 * Hands out nonces per sender address, one holder at a time: the first
 * caller reads the network (`account.getcurrentnonce`, tag `pending`), later
 * ones count on locally, so concurrent transfers get consecutive nonces.
 *
 * A holder keeps its address's lane until it knows the outcome of its
 * transaction, which also keeps submissions in nonce order: the network
 * requires nonce = previous + 1 and has no pending pool, and separate HTTP
 * requests may overtake each other, so a later nonce must not be sent before
 * the earlier one is answered. Waiting callers form a FIFO queue;
 * unsubscribing one removes it. Different addresses do not wait for each other.
 */
export class NonceAllocator {
  private readonly lanes = new Map<string, Lane>();

  constructor(private readonly reader: NonceReader) {}

  /**
   * Runs `use` with the next nonce of `address` once every earlier caller is
   * done. The Observable `use` returns holds the lane until it completes,
   * errors or is unsubscribed; its values are this Observable's values.
   */
  withNonce<R>(address: string, use: (lease: NonceLease) => Observable<R>): Observable<R> {
    return this.enqueue(address, (lane) =>
      this.current$(lane, address).pipe(
        switchMap((last) => {
          const lease = new Lease(lane, address, (a) => this.read$(a), last + 1);
          return defer(() => use(lease)).pipe(
            tap({ complete: () => lease.close(), error: () => lease.close(), unsubscribe: () => lease.close() }),
          );
        }),
      ),
    );
  }

  /** Reads the network's nonce now, in turn with the holders (used to prime the allocator at login). */
  sync$(address: string): Observable<number> {
    return this.enqueue(address, (lane) => {
      lane.last = undefined;
      return this.current$(lane, address);
    });
  }

  /** Forgets what this client knows (of one address, or of all): the next caller reads the network. */
  invalidate(address?: string): void {
    for (const [key, lane] of this.lanes) if (address === undefined || key === address) lane.last = undefined;
  }

  /** The nonce of the last accepted transaction as this client knows it, or `undefined` when it will ask the network. */
  known(address: string): number | undefined {
    return this.lanes.get(address)?.last;
  }

  /** Callers holding or waiting for the lane of an address. */
  pending(address: string): number {
    const lane = this.lanes.get(address);
    return lane ? lane.queue.length + (lane.busy ? 1 : 0) : 0;
  }

  private read$(address: string): Observable<number> {
    return defer(() => this.reader(address)).pipe(first(), map(checkNonce(address)));
  }

  private current$(lane: Lane, address: string): Observable<number> {
    return defer(() => {
      if (lane.last !== undefined) return [lane.last];
      return this.read$(address).pipe(
        tap((last) => {
          lane.last = last;
        }),
      );
    });
  }

  private lane(address: string): Lane {
    let lane = this.lanes.get(address);
    if (!lane) this.lanes.set(address, (lane = { last: undefined, busy: false, queue: [], pumping: false }));
    return lane;
  }

  /** Queues `work` on the lane of `address`; it runs alone, after everything queued before it. */
  private enqueue<R>(address: string, work: (lane: Lane) => Observable<R>): Observable<R> {
    return new Observable<R>((subscriber) => {
      const lane = this.lane(address);
      let state: 'waiting' | 'running' | 'done' = 'waiting';
      let inner: Subscription | undefined;
      const finish = (): void => {
        if (state !== 'running') return;
        state = 'done';
        lane.busy = false;
        this.pump(address, lane);
      };
      const start = (): void => {
        state = 'running';
        lane.busy = true;
        inner = work(lane).subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        });
      };
      lane.queue.push(start);
      this.pump(address, lane);
      return () => {
        if (state === 'waiting') {
          const index = lane.queue.indexOf(start);
          if (index >= 0) lane.queue.splice(index, 1);
          state = 'done';
          this.pump(address, lane);
        } else if (state === 'running') {
          inner?.unsubscribe();
          finish();
        }
      };
    });
  }

  /** Starts queued work while the lane is free; a loop rather than recursion, so synchronous work cannot deepen the stack. */
  private pump(address: string, lane: Lane): void {
    if (lane.pumping) return;
    lane.pumping = true;
    try {
      while (!lane.busy) {
        const next = lane.queue.shift();
        if (!next) break;
        next();
      }
    } finally {
      lane.pumping = false;
    }
    if (!lane.busy && lane.queue.length === 0 && lane.last === undefined) this.lanes.delete(address);
  }
}
