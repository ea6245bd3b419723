/**
 * LruList (src/state/lru-list.ts), the order behind cache eviction, and the
 * default InMemoryMessageStore (src/state/message-store.ts) built on it.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryMessageStore } from '../../src/index.js';
import { LruList } from '../../src/state/lru-list.js';
import { Recency } from '../../src/state/recency.js';
import { message } from './fixtures.js';

describe('LruList', () => {
  it('orders keys by last set, oldest first; setting again moves a key to the back', () => {
    const list = new LruList<number>();
    for (const key of ['a', 'b', 'c']) list.set(key, 1);
    list.set('a', 2);
    expect([...list.keys()]).toEqual(['b', 'c', 'a']);
    expect(list.peek('a')).toBe(2);
    expect(list.size).toBe(3);
  });

  it('peek does not count as use', () => {
    const list = new LruList<number>();
    list.set('a', 1);
    list.set('b', 2);
    list.peek('a');
    expect(list.shift()).toBe('a');
  });

  it('shift takes the oldest; delete anywhere keeps the links right', () => {
    const list = new LruList<string>();
    for (const key of ['a', 'b', 'c', 'd', 'e']) list.set(key, key);
    list.delete('c'); // middle
    list.delete('e'); // back
    list.delete('zz'); // absent
    expect(list.shift()).toBe('a');
    expect([...list.keys()]).toEqual(['b', 'd']);
    list.set('f', 'f');
    expect([...list.keys()]).toEqual(['b', 'd', 'f']);
    expect(list.shift()).toBe('b');
    expect(list.shift()).toBe('d');
    expect(list.shift()).toBe('f');
    expect(list.shift()).toBeUndefined();
    expect(list.size).toBe(0);
  });

  it('keys() allows deleting the key just visited', () => {
    const list = new LruList<true>();
    for (const key of ['a', 'b', 'c']) list.set(key, true);
    const seen: string[] = [];
    for (const key of list.keys()) {
      seen.push(key);
      list.delete(key);
    }
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(list.size).toBe(0);
  });

  it('stays exact over many random operations (checked against an array model)', () => {
    const list = new LruList<number>();
    let model: string[] = [];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let step = 0; step < 5_000; step += 1) {
      const key = `k${Math.floor(random() * 50)}`;
      const roll = random();
      if (roll < 0.6) {
        list.set(key, step);
        model = [...model.filter((k) => k !== key), key];
      } else if (roll < 0.85) {
        list.delete(key);
        model = model.filter((k) => k !== key);
      } else {
        expect(list.shift()).toBe(model.shift());
      }
      expect(list.size).toBe(model.length);
    }
    expect([...list.keys()]).toEqual(model);
  });
});

describe('Recency', () => {
  it('oldest() lists up to count present keys and drops the stale ones it passes', () => {
    const recency = new Recency();
    for (const key of ['a', 'b', 'c', 'd']) recency.touch(key);
    recency.touch('a');
    expect(recency.oldest(2, (key) => key !== 'b')).toEqual(['c', 'd']);
    expect([...recency.oldestFirst()]).toEqual(['c', 'd', 'a']);
  });
});

describe('InMemoryMessageStore', () => {
  it('keeps the most recent `capacity` messages, by channel and id', () => {
    const store = new InMemoryMessageStore(2);
    store.put(message({ message_id: 'm1', channel_id: 'c1' }));
    store.put(message({ message_id: 'm2', channel_id: 'c2' }));
    store.put(message({ message_id: 'm1', channel_id: 'c1', content: { t: 'again' } })); // refreshed, not duplicated
    store.put(message({ message_id: 'm3', channel_id: 'c1' }));
    expect(store.size).toBe(2);
    expect(store.get('c2', 'm2')).toBeUndefined();
    expect(store.get('c1', 'm1')?.content.t).toBe('again');
    expect(store.get('c1', 'm3')?.message_id).toBe('m3');
  });

  it('answers only for the channel a message is in', () => {
    const store = new InMemoryMessageStore(10);
    store.put(message({ message_id: 'm1', channel_id: 'c1' }));
    expect(store.get('c2', 'm1')).toBeUndefined();
    store.delete('c2', 'm1'); // another channel's id: nothing happens
    expect(store.get('c1', 'm1')).toBeDefined();
    store.delete('c1', 'm1');
    expect(store.get('c1', 'm1')).toBeUndefined();
  });

  it('capacity 0 keeps nothing', () => {
    const store = new InMemoryMessageStore(0);
    store.put(message({ message_id: 'm1' }));
    expect(store.size).toBe(0);
  });
});
