import { LruList } from './lru-list.js';

/**
 * Least-recently-used order of keys. Lives beside the immutable state:
 * reading a cache entry counts as use without changing the state.
 */
export class Recency {
  private readonly order = new LruList<true>();

  touch(key: string): void {
    this.order.set(key, true);
  }

  forget(key: string): void {
    this.order.delete(key);
  }

  /** Up to `count` keys, least recently used first, for which `present` holds (stale keys are dropped on the way). */
  oldest(count: number, present: (key: string) => boolean): string[] {
    const out: string[] = [];
    for (const key of this.order.keys()) {
      if (out.length >= count) break;
      if (present(key)) out.push(key);
      else this.order.delete(key);
    }
    return out;
  }

  /** Every key, least recently used first, walked lazily (forgetting the key just visited is allowed). */
  oldestFirst(): IterableIterator<string> {
    return this.order.keys();
  }

  clear(): void {
    this.order.clear();
  }

  get size(): number {
    return this.order.size;
  }
}
