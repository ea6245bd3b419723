import { ApiError } from '../errors/api-error.js';
import { ValidationError } from '../errors/validation-error.js';

/** Where a {@link CacheManager} reads its entries (the store's current state) and how it fills a miss. */
export interface CacheSource<V> {
  /** The entry as the state holds it now, or undefined when it is not cached. */
  get(key: string): V | undefined;
  /** Every cached entry with its key. */
  entries(): Iterable<[string, V]>;
  /** How many entries are cached. */
  size(): number;
  /** Fetches one entry over REST and puts it into the state. A 404 rejects with an ApiError (`isNotFound`). */
  load?: (key: string) => Promise<V>;
  /** A read counts as use for least-recently-used eviction. */
  touch?: (key: string) => void;
}

/**
 * A read-only, always-current view of one cache (`client.clans`, `clan.users`…):
 * `get` is synchronous and reads the current state; `fetch` goes to the
 * server on a miss, and concurrent fetches of one key share one request.
 */
export class CacheManager<K extends string, V> implements Iterable<[K, V]> {
  constructor(
    private readonly source: CacheSource<V>,
    /** What the cache holds, for error messages ("channel"). */
    private readonly what: string,
    /** Requests in flight by key; shared by views of the same cache so they dedupe together. */
    private readonly pending: Map<string, Promise<V>> = new Map(),
    /** How a bot reaches this cache (`channels`, `clan.users`): errors of `fetch` name the call. */
    private readonly name = `${what}s`,
  ) {}

  /** The cached entry, or undefined. */
  get(key: K): V | undefined {
    const value = this.source.get(key);
    if (value !== undefined) this.source.touch?.(key);
    return value;
  }

  /** Whether the entry is cached; unlike `get`, it does not count as use for eviction. */
  has(key: K): boolean {
    return this.source.get(key) !== undefined;
  }

  /** The entry from the cache, or from the server when it is not cached (or `force` is set). */
  fetch(key: K, options: { force?: boolean } = {}): Promise<V> {
    if (typeof key !== 'string' || key === '') {
      return Promise.reject(new ValidationError([{ path: 'id', message: `must be a non-empty ${this.what} id`, code: 'invalid' }], `${this.what} fetch`));
    }
    if (!options.force) {
      const cached = this.get(key);
      if (cached !== undefined) return Promise.resolve(cached);
    }
    const load = this.source.load;
    if (!load) return Promise.reject(new ValidationError([{ path: 'id', message: `${this.what} ${key} is not cached and cannot be fetched`, code: 'invalid' }], `${this.what} fetch`));
    let request = this.pending.get(key);
    if (!request) {
      request = load(key)
        .catch((error: unknown) => {
          throw this.named(error, key);
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, request);
    }
    return request;
  }

  /** A 404 says which call and which id found nothing, rather than the route behind it. */
  private named(error: unknown, key: string): unknown {
    if (!(error instanceof ApiError && error.isNotFound)) return error;
    return new ApiError({
      status: error.status,
      code: error.code,
      route: error.route,
      operation: `${this.name}.fetch(${JSON.stringify(key)})`,
      message: `no such ${this.what}; ${error.message}`,
      cause: error,
    });
  }

  /** How many entries the cache holds now. */
  get size(): number {
    return this.source.size();
  }

  /** Every cached entry with its key, read from the state when iteration starts; never goes to the server. */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, value] of this.source.entries()) yield [key as K, value];
  }

  /** The keys of every cached entry. */
  *keys(): IterableIterator<K> {
    for (const [key] of this.source.entries()) yield key as K;
  }

  /** Every cached entry. */
  *values(): IterableIterator<V> {
    for (const [, value] of this.source.entries()) yield value;
  }

  /** Iterates `[key, value]` pairs, as `entries()` does, so a `for…of` loop works on the cache. */
  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  /** The cached entries that satisfy the predicate, as an array. */
  filter(predicate: (value: V, key: K) => boolean): V[] {
    const out: V[] = [];
    for (const [key, value] of this.entries()) if (predicate(value, key)) out.push(value);
    return out;
  }

  /** The first cached entry that satisfies the predicate, or undefined; never goes to the server. */
  find(predicate: (value: V, key: K) => boolean): V | undefined {
    for (const [key, value] of this.entries()) if (predicate(value, key)) return value;
    return undefined;
  }

  /** Some entry (iteration order is not insertion order), or undefined when empty. */
  first(): V | undefined {
    for (const [, value] of this.entries()) return value;
    return undefined;
  }

  /** An array of `fn` applied to each cached entry. */
  map<T>(fn: (value: V, key: K) => T): T[] {
    const out: T[] = [];
    for (const [key, value] of this.entries()) out.push(fn(value, key));
    return out;
  }

  /** Calls `fn` with each cached entry and its key. */
  forEach(fn: (value: V, key: K) => void): void {
    for (const [key, value] of this.entries()) fn(value, key);
  }

  /** A short description (what the cache holds and how many entries), not the entries themselves. */
  toJSON(): { size: number; what: string } {
    return { what: this.what, size: this.size };
  }
}
