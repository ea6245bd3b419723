/** Slots the order starts with; it doubles as keys arrive. */
const INITIAL_SLOTS = 16;
/** "No slot": the end of the order. */
const NONE = -1;

/**
 * Exact least-recently-used order of keys, kept beside the immutable state:
 * reading a cache entry counts as use without changing the state.
 *
 * A doubly linked list whose links are slot numbers in two typed arrays (a
 * Map gives each key its slot; freed slots are reused): moving a key to the
 * back is one Map lookup and a few array writes, and there is no object per
 * key for the garbage collector to promote, trace or move.
 */
export class Recency {
  private readonly slots = new Map<string, number>();
  private keys: Array<string | undefined> = [];
  private prev = new Int32Array(INITIAL_SLOTS);
  private next = new Int32Array(INITIAL_SLOTS);
  private head = NONE;
  private tail = NONE;
  private readonly free: number[] = [];

  /** Marks a key as used now. */
  touch(key: string): void {
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.free.pop() ?? this.keys.length;
      if (slot >= this.prev.length) this.grow();
      this.keys[slot] = key;
      this.slots.set(key, slot);
    } else {
      if (slot === this.tail) return;
      this.unlink(slot);
    }
    this.prev[slot] = this.tail;
    this.next[slot] = NONE;
    if (this.tail === NONE) this.head = slot;
    else this.next[this.tail] = slot;
    this.tail = slot;
  }

  forget(key: string): void {
    const slot = this.slots.get(key);
    if (slot === undefined) return;
    this.unlink(slot);
    this.slots.delete(key);
    this.keys[slot] = undefined;
    this.free.push(slot);
  }

  /** Up to `count` keys, least recently used first, for which `present` holds (stale keys are forgotten on the way). */
  oldest(count: number, present: (key: string) => boolean): string[] {
    const out: string[] = [];
    for (const key of this.oldestFirst()) {
      if (out.length >= count) break;
      if (present(key)) out.push(key);
      else this.forget(key);
    }
    return out;
  }

  /** Every key, least recently used first, walked lazily (forgetting the key just visited is allowed; touching during the walk is not). */
  *oldestFirst(): IterableIterator<string> {
    let slot = this.head;
    while (slot !== NONE) {
      const after = this.next[slot]!;
      yield this.keys[slot]!;
      slot = after;
    }
  }

  clear(): void {
    this.slots.clear();
    this.keys = [];
    this.free.length = 0;
    this.head = this.tail = NONE;
  }

  /** How many keys are tracked. */
  get size(): number {
    return this.slots.size;
  }

  private unlink(slot: number): void {
    const before = this.prev[slot]!;
    const after = this.next[slot]!;
    if (before === NONE) this.head = after;
    else this.next[before] = after;
    if (after === NONE) this.tail = before;
    else this.prev[after] = before;
  }

  private grow(): void {
    const prev = new Int32Array(this.prev.length * 2);
    prev.set(this.prev);
    this.prev = prev;
    const next = new Int32Array(this.next.length * 2);
    next.set(this.next);
    this.next = next;
  }
}
