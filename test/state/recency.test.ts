/**
 * Recency (src/state/recency.ts), the exact least-recently-used order behind
 * cache eviction (alone, and two orders sharing their key slots), and the
 * default InMemoryMessageStore
 * (src/state/message-store.ts), which keeps the most recent messages.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryMessageStore } from '../../src/index.js';
import { KeySlots, Recency } from '../../src/state/recency.js';
import { message } from './fixtures.js';

describe('Recency', () => {
  it('oldest() lists up to count present keys and drops the stale ones it passes', () => {
    const recency = new Recency();
    for (const key of ['a', 'b', 'c', 'd']) recency.touch(key);
    recency.touch('a');
    expect(recency.oldest(2, (key) => key !== 'b')).toEqual(['c', 'd']);
    expect([...recency.oldestFirst()]).toEqual(['c', 'd', 'a']);
  });

  it('orders keys by last touch, oldest first; touching again moves a key to the back', () => {
    const recency = new Recency();
    for (const key of ['a', 'b', 'c']) recency.touch(key);
    recency.touch('a');
    expect([...recency.oldestFirst()]).toEqual(['b', 'c', 'a']);
    expect(recency.size).toBe(3);
  });

  it('oldestFirst() allows forgetting the key just visited', () => {
    const recency = new Recency();
    for (const key of ['a', 'b', 'c']) recency.touch(key);
    const seen: string[] = [];
    for (const key of recency.oldestFirst()) {
      seen.push(key);
      recency.forget(key);
    }
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(recency.size).toBe(0);
    expect([...recency.oldestFirst()]).toEqual([]);
  });

  it('stays exact over many random operations (checked against an array model)', () => {
    const recency = new Recency();
    let model: string[] = [];
    const random = lcg(7);
    for (let step = 0; step < 10_000; step += 1) {
      const key = `k${Math.floor(random() * 50)}`;
      const roll = random();
      if (roll < 0.7) {
        recency.touch(key);
        model = [...model.filter((k) => k !== key), key];
      } else if (roll < 0.9) {
        recency.forget(key);
        model = model.filter((k) => k !== key);
      } else {
        // Evict the oldest few, as the cache bounds do.
        const count = 1 + Math.floor(random() * 3);
        const gone = recency.oldest(count, () => true);
        expect(gone).toEqual(model.slice(0, count));
        for (const id of gone) recency.forget(id);
        model = model.slice(gone.length);
      }
      expect(recency.size).toBe(model.length);
    }
    expect([...recency.oldestFirst()]).toEqual(model);
  });

  it('reuses the slots of forgotten keys: a stream of new keys with the oldest evicted stays bounded', () => {
    const recency = new Recency();
    const internals = recency as unknown as { slots: { keys: unknown[] }; prev: Int32Array };
    for (let i = 0; i < 100_000; i += 1) {
      recency.touch(`u${i}`);
      if (recency.size > 100) for (const id of recency.oldest(recency.size - 100, () => true)) recency.forget(id);
    }
    expect(recency.size).toBe(100);
    expect([...recency.oldestFirst()]).toEqual(Array.from({ length: 100 }, (_, i) => `u${99_900 + i}`));
    expect(internals.slots.keys.length).toBeLessThanOrEqual(101);
    expect(internals.prev.length).toBeLessThanOrEqual(128);
  });
});

/** A small deterministic generator for the model tests. */
function lcg(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('Recency orders sharing their key slots', () => {
  it('each order keeps its own exact order; a slot lives while any order holds its key (checked against two array models)', () => {
    const slots = new KeySlots();
    const orders = [new Recency(slots), new Recency(slots)];
    const models: string[][] = [[], []];
    const random = lcg(5);
    for (let step = 0; step < 10_000; step += 1) {
      const key = `k${Math.floor(random() * 40)}`;
      const which = random() < 0.5 ? 0 : 1;
      const order = orders[which]!;
      const roll = random();
      if (roll < 0.65) {
        // Mostly both, as a channel message touches a channel by use and by activity.
        order.touch(key);
        models[which] = [...models[which]!.filter((k) => k !== key), key];
        if (roll < 0.4) {
          orders[1 - which]!.touch(key);
          models[1 - which] = [...models[1 - which]!.filter((k) => k !== key), key];
        }
      } else if (roll < 0.9) {
        order.forget(key);
        models[which] = models[which]!.filter((k) => k !== key);
      } else {
        const gone = order.oldest(2, () => true);
        expect(gone).toEqual(models[which]!.slice(0, 2));
        for (const id of gone) order.forget(id);
        models[which] = models[which]!.slice(gone.length);
      }
      expect(orders[0]!.size).toBe(models[0]!.length);
      expect(orders[1]!.size).toBe(models[1]!.length);
    }
    expect([...orders[0]!.oldestFirst()]).toEqual(models[0]);
    expect([...orders[1]!.oldestFirst()]).toEqual(models[1]);
    // Slots in use: the keys either order holds, no more.
    const held = new Set([...models[0]!, ...models[1]!]);
    expect((slots as unknown as { keys: Array<string | undefined> }).keys.filter((k) => k !== undefined).sort()).toEqual([...held].sort());
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

  it('matches a least-recently-put model over many random puts, deletes and clears', () => {
    const capacity = 20;
    const store = new InMemoryMessageStore(capacity);
    let model: string[] = [];
    const random = lcg(11);
    for (let step = 0; step < 20_000; step += 1) {
      const id = `m${Math.floor(random() * 60)}`;
      const roll = random();
      if (roll < 0.75) {
        store.put(message({ message_id: id, channel_id: 'c1' }));
        model = [...model.filter((k) => k !== id), id];
        if (model.length > capacity) model = model.slice(1);
      } else if (roll < 0.999) {
        store.delete('c1', id);
        model = model.filter((k) => k !== id);
      } else {
        store.clear();
        model = [];
      }
      expect(store.size).toBe(model.length);
      if (step % 500 === 0) for (let i = 0; i < 60; i += 1) expect(store.get('c1', `m${i}`) !== undefined).toBe(model.includes(`m${i}`));
    }
  });

  it('capacity 0 keeps nothing', () => {
    const store = new InMemoryMessageStore(0);
    store.put(message({ message_id: 'm1' }));
    expect(store.size).toBe(0);
  });
});
