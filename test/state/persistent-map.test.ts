/**
 * PersistentMap (src/state/persistent-map.ts): the immutable string-keyed
 * map every large cache is made of. Updates return new maps and leave older
 * versions intact; an update that changes nothing returns the same map (the
 * store relies on that to keep its state when an event changes nothing).
 */
import { describe, expect, it } from 'vitest';
import { PersistentMap } from '../../src/state/persistent-map.js';
import { newEditToken } from '../../src/state/edit-token.js';

const range = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('PersistentMap basics', () => {
  it('starts empty', () => {
    const map = PersistentMap.empty<number>();
    expect(map.size).toBe(0);
    expect(map.get('a')).toBeUndefined();
    expect(map.has('a')).toBe(false);
    expect([...map]).toEqual([]);
    expect(PersistentMap.empty<string>()).toBe(PersistentMap.empty<number>());
  });

  it('set / get / has, with a new map per change and the old one untouched', () => {
    const empty = PersistentMap.empty<number>();
    const one = empty.set('a', 1);
    const two = one.set('b', 2);
    expect(one).not.toBe(empty);
    expect(two).not.toBe(one);
    expect([empty.size, one.size, two.size]).toEqual([0, 1, 2]);
    expect(two.get('a')).toBe(1);
    expect(two.get('b')).toBe(2);
    expect(two.has('b')).toBe(true);
    expect(one.has('b')).toBe(false);
    expect(empty.has('a')).toBe(false);
  });

  it('overwrites a key without growing', () => {
    const map = PersistentMap.empty<string>().set('a', 'x').set('a', 'y');
    expect(map.size).toBe(1);
    expect(map.get('a')).toBe('y');
  });

  it('returns the same map when a set changes nothing', () => {
    const value = { n: 1 };
    const map = PersistentMap.empty<{ n: number }>().set('a', value);
    expect(map.set('a', value)).toBe(map);
    // An equal but different object is a change.
    expect(map.set('a', { n: 1 })).not.toBe(map);
  });

  it('delete removes a key; deleting an absent key returns the same map', () => {
    const map = PersistentMap.from([
      ['a', 1],
      ['b', 2],
    ]);
    const without = map.delete('a');
    expect(without.size).toBe(1);
    expect(without.has('a')).toBe(false);
    expect(without.get('b')).toBe(2);
    expect(map.get('a')).toBe(1);
    expect(without.delete('a')).toBe(without);
    expect(PersistentMap.empty<number>().delete('zzz').size).toBe(0);
    expect(without.delete('b').size).toBe(0);
  });

  it('update: sets what the function returns, deletes on undefined, and keeps the map when the value is the same', () => {
    const map = PersistentMap.from([['a', 1]]);
    const seen: Array<number | undefined> = [];
    const bumped = map.update('a', (v) => {
      seen.push(v);
      return (v ?? 0) + 1;
    });
    expect(bumped.get('a')).toBe(2);
    const created = map.update('b', (v) => {
      seen.push(v);
      return 10;
    });
    expect(created.get('b')).toBe(10);
    expect(created.size).toBe(2);
    expect(seen).toEqual([1, undefined]);
    expect(map.update('a', (v) => v)).toBe(map);
    expect(map.update('missing', () => undefined)).toBe(map);
    const deleted = map.update('a', () => undefined);
    expect(deleted.size).toBe(0);
    expect(deleted.has('a')).toBe(false);
  });

  it('setMany adds and replaces in one pass; later duplicates win; an empty batch returns the same map', () => {
    const base = PersistentMap.from([
      ['a', 1],
      ['b', 2],
    ]);
    const next = base.setMany([
      ['b', 20],
      ['c', 3],
      ['c', 30],
    ]);
    expect(next.size).toBe(3);
    expect(Object.fromEntries(next)).toEqual({ a: 1, b: 20, c: 30 });
    expect(Object.fromEntries(base)).toEqual({ a: 1, b: 2 });
    expect(base.setMany([])).toBe(base);
    expect(PersistentMap.from([['x', 1], ['x', 2]]).get('x')).toBe(2);
  });

  // setMany copies every bucket it visits, even when each value is the one already held; set() does not.
  it('setMany of values already held returns the same map (as set does)`this` for a non-empty batch', () => {
    const value = { n: 1 };
    const map = PersistentMap.empty<{ n: number }>().set('a', value);
    expect(map.setMany([['a', value]])).toBe(map);
  });

  it('handles keys that are special on plain objects', () => {
    const keys = ['__proto__', 'constructor', 'hasOwnProperty', '', 'toString', '0'];
    let map = PersistentMap.empty<string>();
    for (const key of keys) map = map.set(key, `v:${key}`);
    expect(map.size).toBe(keys.length);
    for (const key of keys) expect(map.get(key)).toBe(`v:${key}`);
    expect(PersistentMap.empty<string>().get('constructor')).toBeUndefined();
    expect(PersistentMap.empty<string>().has('__proto__')).toBe(false);
  });

  it('is frozen', () => {
    const map = PersistentMap.from([['a', 1]]);
    expect(Object.isFrozen(map)).toBe(true);
    expect(() => {
      (map as unknown as { size: number }).size = 5;
    }).toThrow(TypeError);
  });
});

describe('iteration', () => {
  it('entries, keys, values and the iterator agree and visit every entry once', () => {
    const entries = range(500).map((k, i) => [k, i] as const);
    const map = PersistentMap.from(entries);
    const viaIterator = [...map];
    const viaEntries = [...map.entries()];
    expect(viaIterator).toEqual(viaEntries);
    expect([...map.keys()]).toEqual(viaEntries.map(([k]) => k));
    expect([...map.values()]).toEqual(viaEntries.map(([, v]) => v));
    expect(viaEntries).toHaveLength(500);
    expect(new Set(viaEntries.map(([k]) => k)).size).toBe(500);
    expect(new Map(viaEntries)).toEqual(new Map(entries));
  });

  it('iterates the same map the same way twice', () => {
    const map = PersistentMap.from(range(300).map((k) => [k, k] as const));
    expect([...map.keys()]).toEqual([...map.keys()]);
  });

  it('iterating an old version is not affected by later changes', () => {
    const v1 = PersistentMap.from<number>(range(50).map((k) => [k, 1]));
    const v2 = v1.setMany(range(50).map((k) => [k, 2])).delete('k0');
    expect([...v1.values()].every((v) => v === 1)).toBe(true);
    expect(v1.size).toBe(50);
    expect([...v2.values()].every((v) => v === 2)).toBe(true);
    expect(v2.size).toBe(49);
  });
});

describe('at scale', () => {
  it('holds 100,000 entries: size, every get, iteration, and deletes', () => {
    const n = 100_000;
    const keys = range(n, 'user-');
    const map = PersistentMap.from(keys.map((k, i) => [k, i] as const));
    expect(map.size).toBe(n);
    for (let i = 0; i < n; i += 1) {
      if (map.get(keys[i]!) !== i) throw new Error(`wrong value for ${keys[i]!}`);
    }
    expect(map.get('user-100000')).toBeUndefined();
    let count = 0;
    for (const [key, value] of map) {
      if (keys[value] !== key) throw new Error(`entry ${key} → ${value} does not match`);
      count += 1;
    }
    expect(count).toBe(n);

    // Delete every even key one at a time (buckets shrink, some empty out).
    let odd = map;
    for (let i = 0; i < n; i += 2) odd = odd.delete(keys[i]!);
    expect(odd.size).toBe(n / 2);
    expect(odd.has('user-0')).toBe(false);
    expect(odd.get('user-1')).toBe(1);
    expect([...odd.keys()]).toHaveLength(n / 2);
    // The original still has all of them.
    expect(map.size).toBe(n);
    expect(map.get('user-0')).toBe(0);
  });

  it('single sets into a 100,000-entry map leave the old version valid', () => {
    const base = PersistentMap.from(range(100_000).map((k, i) => [k, i] as const));
    const changed = base.set('k5', -5).set('extra', -1).delete('k99999');
    expect(changed.size).toBe(100_000);
    expect(changed.get('k5')).toBe(-5);
    expect(changed.get('extra')).toBe(-1);
    expect(changed.has('k99999')).toBe(false);
    expect(base.get('k5')).toBe(5);
    expect(base.has('extra')).toBe(false);
    expect(base.get('k99999')).toBe(99_999);
    expect(base.size).toBe(100_000);
  });
});

describe('old versions stay valid', () => {
  it('every version of a chain of sets, deletes and updates keeps its own contents', () => {
    const versions: Array<{ map: PersistentMap<number>; expected: Map<string, number> }> = [];
    let map = PersistentMap.empty<number>();
    let expected = new Map<string, number>();
    // A deterministic mix of operations over a small key space (so buckets collide and empty out).
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let step = 0; step < 2000; step += 1) {
      const key = `k${next() % 300}`;
      const op = next() % 4;
      if (op === 0) {
        map = map.delete(key);
        expected.delete(key);
      } else if (op === 1) {
        map = map.update(key, (v) => (v === undefined ? step : v + 1));
        expected.set(key, (expected.get(key) ?? step - 1) + 1);
      } else if (op === 2) {
        const batch = [key, `k${next() % 300}`].map((k) => [k, step] as const);
        map = map.setMany(batch);
        for (const [k, v] of batch) expected.set(k, v);
      } else {
        map = map.set(key, step);
        expected.set(key, step);
      }
      if (step % 50 === 0) {
        versions.push({ map, expected });
        expected = new Map(expected);
      }
    }
    for (const { map: version, expected: contents } of versions) {
      expect(version.size).toBe(contents.size);
      expect(new Map(version)).toEqual(contents);
    }
  });
});

describe('small maps (one flat bucket until they grow into the trie)', () => {
  it('keep their contents as they grow into the trie and shrink again, every old version included, with and without an edit token', () => {
    for (const withToken of [false, true]) {
      let seed = withToken ? 11 : 3;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
      // A token is retired (a new one taken) whenever a version is kept, as the store does when it hands a state out.
      let token = withToken ? newEditToken() : undefined;
      let map = PersistentMap.empty<number>();
      const expected = new Map<string, number>();
      const kept: Array<{ map: PersistentMap<number>; contents: Map<string, number> }> = [];
      for (let step = 0; step < 3000; step += 1) {
        // Mostly growing up to ~40 keys, then shrinking: small maps cross the flat bound both ways.
        const key = `k${next() % 40}`;
        if (next() % 3 === 0) {
          map = map.delete(key, token);
          expected.delete(key);
        } else {
          map = map.set(key, step, token);
          expected.set(key, step);
        }
        if (step % 37 === 0) {
          kept.push({ map, contents: new Map(expected) });
          if (withToken) token = newEditToken();
        }
      }
      for (const { map: version, contents } of kept) {
        expect(version.size).toBe(contents.size);
        expect(new Map(version)).toEqual(contents);
        for (const [k, v] of contents) expect(version.get(k)).toBe(v);
      }
    }
  });

  it('a map of 16 entries finds each; the 17th entry moves them all into the trie', () => {
    const sixteen = PersistentMap.from(range(16).map((k, i) => [k, i] as const));
    const seventeen = sixteen.set('k16', 16);
    expect(seventeen.size).toBe(17);
    for (let i = 0; i <= 16; i += 1) expect(seventeen.get(`k${i}`)).toBe(i);
    expect(sixteen.has('k16')).toBe(false);
    expect([...seventeen.keys()].sort()).toEqual(range(17).sort());
  });
});
