/** Slots the orders start with; they double as keys arrive. */
const INITIAL_SLOTS = 16;
/** "No slot": the end of an order. */
const NONE = -1;

/**
 * Slot numbers for keys, shared by the {@link Recency} orders made over them
 * (channels by use and channels by message activity are the same keys): one
 * Map lookup serves every order, and the last key looked up is remembered, so
 * touching one key in two orders looks it up once.
 */
export class KeySlots {
  private readonly slots = new Map<string, number>();
  /** Key of each slot; undefined when free. */
  keys: Array<string | undefined> = [];
  /** How many orders hold each slot. */
  holders = new Uint8Array(INITIAL_SLOTS);
  private readonly free: number[] = [];
  private lastKey: string | undefined;
  private lastSlot = NONE;
  /** Orders over these slots, told when the slots grow. */
  private readonly orders: Recency[] = [];

  /** Capacity of the slot arrays. */
  get capacity(): number {
    return this.holders.length;
  }

  follow(order: Recency): void {
    this.orders.push(order);
  }

  /** The key's slot, or NONE. */
  find(key: string): number {
    if (key === this.lastKey) return this.lastSlot;
    const slot = this.slots.get(key);
    if (slot === undefined) return NONE;
    this.lastKey = key;
    this.lastSlot = slot;
    return slot;
  }

  /** The key's slot, given one when it has none. */
  claim(key: string): number {
    const found = this.find(key);
    if (found !== NONE) return found;
    const slot = this.free.pop() ?? this.keys.length;
    if (slot >= this.holders.length) this.grow();
    this.keys[slot] = key;
    this.slots.set(key, slot);
    this.lastKey = key;
    this.lastSlot = slot;
    return slot;
  }

  /** An order stopped holding the slot; it is freed when no order holds it. */
  release(slot: number): void {
    this.holders[slot] = this.holders[slot]! - 1;
    if (this.holders[slot] !== 0) return;
    const key = this.keys[slot]!;
    this.slots.delete(key);
    this.keys[slot] = undefined;
    this.free.push(slot);
    if (this.lastSlot === slot) {
      this.lastKey = undefined;
      this.lastSlot = NONE;
    }
  }

  private grow(): void {
    const holders = new Uint8Array(this.holders.length * 2);
    holders.set(this.holders);
    this.holders = holders;
    for (const order of this.orders) order.resize(holders.length);
  }
}

/**
 * Exact least-recently-used order of keys, kept beside the immutable state:
 * reading a cache entry counts as use without changing the state.
 *
 * A doubly linked list whose links are slot numbers in typed arrays (the
 * slots come from {@link KeySlots}, which several orders may share): moving a
 * key to the back is one Map lookup and a few array writes, and there is no
 * object per key for the garbage collector to promote, trace or move.
 */
export class Recency {
  private prev: Int32Array;
  private next: Int32Array;
  /** 1 where the slot's key is in this order. */
  private member: Uint8Array;
  private head = NONE;
  private tail = NONE;
  private count = 0;

  constructor(private readonly slots: KeySlots = new KeySlots()) {
    this.prev = new Int32Array(slots.capacity);
    this.next = new Int32Array(slots.capacity);
    this.member = new Uint8Array(slots.capacity);
    slots.follow(this);
  }

  /** Marks a key as used now. */
  touch(key: string): void {
    const slot = this.slots.claim(key);
    if (this.member[slot] === 1) {
      if (slot === this.tail) return;
      this.unlink(slot);
    } else {
      this.member[slot] = 1;
      this.slots.holders[slot] = this.slots.holders[slot]! + 1;
      this.count += 1;
    }
    this.prev[slot] = this.tail;
    this.next[slot] = NONE;
    if (this.tail === NONE) this.head = slot;
    else this.next[this.tail] = slot;
    this.tail = slot;
  }

  forget(key: string): void {
    const slot = this.slots.find(key);
    if (slot === NONE || this.member[slot] !== 1) return;
    this.unlink(slot);
    this.member[slot] = 0;
    this.count -= 1;
    this.slots.release(slot);
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
      yield this.slots.keys[slot]!;
      slot = after;
    }
  }

  clear(): void {
    for (const key of [...this.oldestFirst()]) this.forget(key);
  }

  /** How many keys are in this order. */
  get size(): number {
    return this.count;
  }

  /** The shared slots grew: the links grow with them. */
  resize(capacity: number): void {
    const prev = new Int32Array(capacity);
    prev.set(this.prev);
    this.prev = prev;
    const next = new Int32Array(capacity);
    next.set(this.next);
    this.next = next;
    const member = new Uint8Array(capacity);
    member.set(this.member);
    this.member = member;
  }

  private unlink(slot: number): void {
    const before = this.prev[slot]!;
    const after = this.next[slot]!;
    if (before === NONE) this.head = after;
    else this.next[before] = after;
    if (after === NONE) this.tail = before;
    else this.prev[after] = before;
  }
}
