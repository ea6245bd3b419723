import { newEditToken, type EditToken } from './edit-token.js';

const WIDTH = 64;
const MASK = WIDTH - 1;
const SHIFT = 6;

/** Nodes remember the token they were made under: only an update under that token may change them in place. */
interface Bucket<V> {
  readonly owner: EditToken | undefined;
  /** Full hashes of the keys: compared first, so a lookup reads one key string, not every key of the bucket. */
  readonly hashes: number[];
  readonly keys: string[];
  readonly values: V[];
}

interface Branch<V> {
  readonly owner: EditToken | undefined;
  readonly slots: Array<Bucket<V> | undefined>;
  /** Buckets in use, so a delete knows when the branch empties without scanning it. */
  used: number;
}

interface Root<V> {
  readonly owner: EditToken | undefined;
  readonly slots: Array<Branch<V> | undefined>;
}

/** FNV-1a over UTF-16 code units: fast, and spreads sequential ids evenly. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Where `key` sits in the bucket, or -1. */
function indexIn<V>(bucket: Bucket<V>, key: string, h: number): number {
  const { hashes, keys } = bucket;
  for (let k = 0; k < hashes.length; k += 1) if (hashes[k] === h && keys[k] === key) return k;
  return -1;
}

const copyBucket = <V>(bucket: Bucket<V> | undefined, token: EditToken | undefined): Bucket<V> =>
  bucket ? { owner: token, hashes: bucket.hashes.slice(), keys: bucket.keys.slice(), values: bucket.values.slice() } : { owner: token, hashes: [], keys: [], values: [] };

const owns = (node: { readonly owner: EditToken | undefined }, token: EditToken | undefined): boolean => token !== undefined && node.owner === token;

const EMPTY_ROOT: Root<never> = Object.freeze({ owner: undefined, slots: Object.freeze(new Array<undefined>(WIDTH).fill(undefined)) as Array<undefined> });

/**
 * An immutable string-keyed map whose updates cost the same small amount at
 * any size: a two-level trie of 64-way branches over small buckets, so a
 * `set` copies two 64-slot arrays and one bucket instead of the whole map.
 * (immer copies and walks every key of each container it changes, ~80 ns a
 * key: too slow for collections of 10,000 channels or 100,000 users.)
 *
 * Updates given an edit token (`EditToken`) reuse the nodes made under that token
 * instead of copying them: the store passes one between two moments where the
 * state may be seen, so a burst of events costs no copies while every state
 * anyone holds stays unchanged.
 *
 * Iteration order is the trie's (stable for a given set of keys), not insertion order.
 */
export class PersistentMap<V> implements Iterable<[string, V]> {
  private static readonly EMPTY = new PersistentMap<never>(EMPTY_ROOT, 0);

  private constructor(
    private readonly root: Root<V>,
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
    const h = hash(key);
    const bucket = this.root.slots[h & MASK]?.slots[(h >>> SHIFT) & MASK];
    if (!bucket) return undefined;
    const index = indexIn(bucket, key, h);
    return index < 0 ? undefined : bucket.values[index];
  }

  /** Whether `key` is present. */
  has(key: string): boolean {
    const h = hash(key);
    const bucket = this.root.slots[h & MASK]?.slots[(h >>> SHIFT) & MASK];
    return bucket !== undefined && indexIn(bucket, key, h) >= 0;
  }

  /**
   * A map with `key` set to `value`; the same map when nothing changes.
   * @internal
   */
  set(key: string, value: V, token?: EditToken): PersistentMap<V> {
    const h = hash(key);
    const i = h & MASK;
    const j = (h >>> SHIFT) & MASK;
    const branch = this.root.slots[i];
    const bucket = branch?.slots[j];
    const index = bucket ? indexIn(bucket, key, h) : -1;
    if (index >= 0 && bucket!.values[index] === value) return this;

    const nextBucket = bucket && owns(bucket, token) ? bucket : copyBucket(bucket, token);
    if (index >= 0) nextBucket.values[index] = value;
    else {
      nextBucket.hashes.push(h);
      nextBucket.keys.push(key);
      nextBucket.values.push(value);
    }
    const nextBranch = this.writableBranch(branch, token);
    if (!bucket) nextBranch.used += 1;
    nextBranch.slots[j] = nextBucket;
    const nextRoot = this.writableRoot(token);
    nextRoot.slots[i] = nextBranch;
    return new PersistentMap(nextRoot, index >= 0 ? this.size : this.size + 1);
  }

  /**
   * A map without `key`; the same map when it was absent.
   * @internal
   */
  delete(key: string, token?: EditToken): PersistentMap<V> {
    const h = hash(key);
    const i = h & MASK;
    const j = (h >>> SHIFT) & MASK;
    const branch = this.root.slots[i];
    const bucket = branch?.slots[j];
    const index = bucket ? indexIn(bucket, key, h) : -1;
    if (!branch || !bucket || index < 0) return this;

    const nextBranch = this.writableBranch(branch, token);
    if (bucket.keys.length === 1) {
      nextBranch.slots[j] = undefined;
      nextBranch.used -= 1;
    } else {
      const nextBucket = owns(bucket, token) ? bucket : copyBucket(bucket, token);
      nextBucket.hashes.splice(index, 1);
      nextBucket.keys.splice(index, 1);
      nextBucket.values.splice(index, 1);
      nextBranch.slots[j] = nextBucket;
    }
    const nextRoot = this.writableRoot(token);
    nextRoot.slots[i] = nextBranch.used > 0 ? nextBranch : undefined;
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
    for (const branch of this.root.slots) {
      if (!branch) continue;
      for (const bucket of branch.slots) {
        if (!bucket) continue;
        for (let k = 0; k < bucket.keys.length; k += 1) yield [bucket.keys[k]!, bucket.values[k]!];
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

  private writableRoot(token: EditToken | undefined): Root<V> {
    return owns(this.root, token) ? this.root : { owner: token, slots: this.root.slots.slice() };
  }

  private writableBranch(branch: Branch<V> | undefined, token: EditToken | undefined): Branch<V> {
    if (branch && owns(branch, token)) return branch;
    return branch ? { owner: token, slots: branch.slots.slice(), used: branch.used } : { owner: token, slots: new Array<Bucket<V> | undefined>(WIDTH).fill(undefined), used: 0 };
  }
}
