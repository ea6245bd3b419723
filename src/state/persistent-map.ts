import { newEditToken, type EditToken } from './edit-token.js';

const WIDTH = 64;
const MASK = WIDTH - 1;
const SHIFT = 6;
/** Entries a map keeps in one flat bucket before it grows into the trie. */
const FLAT_MAX = 16;

/**
 * A bucket is one flat array: the token it was made under, then `hash, key,
 * value` for each entry. One object per bucket, read front to back: a lookup
 * touches the array and the one key string whose full hash matches. Buckets
 * are made exactly as long as they need to be (a push would leave room for
 * 16 more entries in each of thousands of buckets).
 */
type Bucket = unknown[];
const OWNER = 0;
const FIRST = 1;
const STRIDE = 3;

interface Branch {
  readonly owner: EditToken | undefined;
  readonly slots: Array<Bucket | undefined>;
  /** Buckets in use, so a delete knows when the branch empties without scanning it. */
  used: number;
}

/**
 * A small map is one flat bucket (`flat`), scanned front to back: a clan's
 * few members, a thousand such maps, cost a few hundred bytes each instead of
 * a trie's root and a branch per entry. Past {@link FLAT_MAX} entries the map
 * moves into the trie (`slots`) for good.
 */
interface Root {
  readonly owner: EditToken | undefined;
  /** The trie's 64 branches; undefined while the map is flat. */
  readonly slots: Array<Branch | undefined> | undefined;
  /** A flat map's bucket; undefined once the map is a trie. */
  flat: Bucket | undefined;
}

/** FNV-1a over UTF-16 code units: fast, and spreads sequential ids evenly. A 32-bit integer, so buckets hold it unboxed. */
function hash(key: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h;
}

/** Where `key`'s entry starts in the bucket, or -1. */
function indexIn(bucket: Bucket, key: string, h: number): number {
  for (let k = FIRST; k < bucket.length; k += STRIDE) if (bucket[k] === h && bucket[k + 1] === key) return k;
  return -1;
}

const ownsBucket = (bucket: Bucket, token: EditToken | undefined): boolean => token !== undefined && bucket[OWNER] === token;

const owns = (node: { readonly owner: EditToken | undefined }, token: EditToken | undefined): boolean => token !== undefined && node.owner === token;

const EMPTY_ROOT: Root = Object.freeze({ owner: undefined, slots: undefined, flat: Object.freeze([undefined]) as Bucket });
/** The trie of no entries, that a flat map grows into. */
const EMPTY_TRIE: Root = Object.freeze({ owner: undefined, slots: Object.freeze(new Array<undefined>(WIDTH).fill(undefined)) as Array<undefined>, flat: undefined });

/**
 * An immutable string-keyed map whose updates cost the same small amount at
 * any size: a two-level trie of 64-way branches over small buckets, so a
 * `set` copies two 64-slot arrays and one bucket instead of the whole map
 * (a map of a few entries is one flat bucket, see `Root` below).
 * (immer copies and walks every key of each container it changes, ~80 ns a
 * key: too slow for collections of 10,000 channels or 100,000 users.)
 *
 * Updates given an edit token (`EditToken`) reuse the nodes made under that token
 * instead of copying them: the store passes one between two moments where the
 * state may be seen, so a burst of events costs no copies while every state
 * anyone holds stays unchanged.
 *
 * Iteration order is the trie's (stable for a given set of keys), not insertion order; a flat map's is its bucket's.
 */
export class PersistentMap<V> implements Iterable<[string, V]> {
  private static readonly EMPTY = new PersistentMap<never>(EMPTY_ROOT, 0);

  private constructor(
    private readonly root: Root,
    /** Number of entries. */
    readonly size: number,
  ) {
    Object.freeze(this);
  }

  /**
   * The empty map (one shared instance).
   * @internal
   */
  static empty<V>(): PersistentMap<V> {
    return PersistentMap.EMPTY;
  }

  /**
   * Builds a map from entries in one pass (later duplicates win).
   * @internal
   */
  static from<V>(entries: Iterable<readonly [string, V]>): PersistentMap<V> {
    return PersistentMap.empty<V>().setMany(entries);
  }

  /** The value under `key`, or undefined when absent. */
  get(key: string): V | undefined {
    if (this.size === 0) return undefined;
    const h = hash(key);
    const { root } = this;
    const bucket = root.flat ?? root.slots![h & MASK]?.slots[(h >>> SHIFT) & MASK];
    if (!bucket) return undefined;
    const index = indexIn(bucket, key, h);
    return index < 0 ? undefined : (bucket[index + 2] as V);
  }

  /** Whether `key` is present. */
  has(key: string): boolean {
    if (this.size === 0) return false;
    const h = hash(key);
    const { root } = this;
    const bucket = root.flat ?? root.slots![h & MASK]?.slots[(h >>> SHIFT) & MASK];
    return bucket !== undefined && indexIn(bucket, key, h) >= 0;
  }

  /**
   * A map with `key` set to `value`; the same map when nothing changes.
   * @internal
   */
  set(key: string, value: V, token?: EditToken): PersistentMap<V> {
    const h = hash(key);
    const { flat } = this.root;
    if (flat) return this.setFlat(flat, h, key, value, token);
    const i = h & MASK;
    const j = (h >>> SHIFT) & MASK;
    const branch = this.root.slots![i];
    const bucket = branch?.slots[j];
    const index = bucket ? indexIn(bucket, key, h) : -1;
    if (index >= 0 && bucket![index + 2] === value) return this;

    let nextBucket: Bucket;
    if (index >= 0) {
      nextBucket = ownsBucket(bucket!, token) ? bucket! : bucket!.slice();
      nextBucket[OWNER] = token;
      nextBucket[index + 2] = value;
    } else {
      // A new entry: a new bucket of the exact length, whoever owned the old one.
      nextBucket = bucket ? [...bucket, h, key, value] : [token, h, key, value];
      nextBucket[OWNER] = token;
    }
    const nextBranch = this.writableBranch(branch, token);
    if (!bucket) nextBranch.used += 1;
    nextBranch.slots[j] = nextBucket;
    const nextRoot = this.writableRoot(token);
    nextRoot.slots![i] = nextBranch;
    return new PersistentMap(nextRoot, index >= 0 ? this.size : this.size + 1);
  }

  /**
   * A map without `key`; the same map when it was absent.
   * @internal
   */
  delete(key: string, token?: EditToken): PersistentMap<V> {
    const h = hash(key);
    const { flat } = this.root;
    if (flat) return this.deleteFlat(flat, h, key, token);
    const i = h & MASK;
    const j = (h >>> SHIFT) & MASK;
    const branch = this.root.slots![i];
    const bucket = branch?.slots[j];
    const index = bucket ? indexIn(bucket, key, h) : -1;
    if (!branch || !bucket || index < 0) return this;

    const nextBranch = this.writableBranch(branch, token);
    if (bucket.length === FIRST + STRIDE) {
      nextBranch.slots[j] = undefined;
      nextBranch.used -= 1;
    } else {
      const nextBucket = ownsBucket(bucket, token) ? bucket : bucket.slice();
      nextBucket[OWNER] = token;
      nextBucket.splice(index, STRIDE);
      nextBranch.slots[j] = nextBucket;
    }
    const nextRoot = this.writableRoot(token);
    nextRoot.slots![i] = nextBranch.used > 0 ? nextBranch : undefined;
    return new PersistentMap(nextRoot, this.size - 1);
  }

  /**
   * Sets `key` to what `fn` makes of its current value; `undefined` deletes it.
   * @internal
   */
  update(key: string, fn: (current: V | undefined) => V | undefined, token?: EditToken): PersistentMap<V> {
    const current = this.get(key);
    const next = fn(current);
    if (next === current) return this;
    return next === undefined ? this.delete(key, token) : this.set(key, next, token);
  }

  /**
   * Sets many entries at once, copying each touched branch and bucket once.
   * @internal
   */
  setMany(entries: Iterable<readonly [string, V]>, token?: EditToken): PersistentMap<V> {
    // A token of its own, when none is given: nodes are copied once, then changed in place,
    // and no later update can change them (nobody else holds this token).
    const batch = token ?? newEditToken();
    let next: PersistentMap<V> | undefined;
    for (const [key, value] of entries) next = (next ?? this).set(key, value, batch);
    return next ?? this;
  }

  /** Every `[key, value]` pair, in trie order (stable for a given set of keys, not insertion order). */
  *entries(): IterableIterator<[string, V]> {
    const { flat } = this.root;
    if (flat) {
      for (let k = FIRST; k < flat.length; k += STRIDE) yield [flat[k + 1] as string, flat[k + 2] as V];
      return;
    }
    for (const branch of this.root.slots!) {
      if (!branch) continue;
      for (const bucket of branch.slots) {
        if (!bucket) continue;
        for (let k = FIRST; k < bucket.length; k += STRIDE) yield [bucket[k + 1] as string, bucket[k + 2] as V];
      }
    }
  }

  /** Every key, in the same order as `entries()`. */
  *keys(): IterableIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  /** Every value, in the same order as `entries()`. */
  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  /** Iterates `[key, value]` pairs, as `entries()` does. */
  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }

  private writableRoot(token: EditToken | undefined): Root {
    return owns(this.root, token) ? this.root : { owner: token, slots: this.root.slots!.slice(), flat: undefined };
  }

  /** A flat map with `bucket` as its entries (the same root when `token` owns it). */
  private withFlat(bucket: Bucket, size: number, token: EditToken | undefined): PersistentMap<V> {
    if (owns(this.root, token)) {
      this.root.flat = bucket;
      return new PersistentMap(this.root, size);
    }
    return new PersistentMap({ owner: token, slots: undefined, flat: bucket }, size);
  }

  private setFlat(flat: Bucket, h: number, key: string, value: V, token: EditToken | undefined): PersistentMap<V> {
    const index = indexIn(flat, key, h);
    if (index >= 0) {
      if (flat[index + 2] === value) return this;
      const next = ownsBucket(flat, token) ? flat : flat.slice();
      next[OWNER] = token;
      next[index + 2] = value;
      return this.withFlat(next, this.size, token);
    }
    if (this.size < FLAT_MAX) {
      const next = [...flat, h, key, value];
      next[OWNER] = token;
      return this.withFlat(next, this.size + 1, token);
    }
    // Full: the entries move into a trie of their own (a token nobody else holds makes its nodes once).
    const batch = token ?? newEditToken();
    let trie = new PersistentMap<V>(EMPTY_TRIE, 0);
    for (let k = FIRST; k < flat.length; k += STRIDE) trie = trie.set(flat[k + 1] as string, flat[k + 2] as V, batch);
    return trie.set(key, value, batch);
  }

  private deleteFlat(flat: Bucket, h: number, key: string, token: EditToken | undefined): PersistentMap<V> {
    const index = indexIn(flat, key, h);
    if (index < 0) return this;
    const next = ownsBucket(flat, token) ? flat : flat.slice();
    next[OWNER] = token;
    next.splice(index, STRIDE);
    return this.withFlat(next, this.size - 1, token);
  }

  private writableBranch(branch: Branch | undefined, token: EditToken | undefined): Branch {
    if (branch && owns(branch, token)) return branch;
    return branch ? { owner: token, slots: branch.slots.slice(), used: branch.used } : { owner: token, slots: new Array<Bucket | undefined>(WIDTH).fill(undefined), used: 0 };
  }
}
