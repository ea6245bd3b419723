/**
 * Edit tokens (src/state/edit-token.ts): PersistentMap and MessageWindow
 * change nodes in place only under the token they were made with, and the
 * Store retires its token whenever the state is handed out, so a state
 * anyone holds never changes while unseen updates cost no copies.
 */
import { firstValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { newEditToken } from '../../src/state/edit-token.js';
import { MessageWindow } from '../../src/state/message-window.js';
import { PersistentMap } from '../../src/state/persistent-map.js';
import { CHANNEL, messageEvent, newStore, SELF } from './fixtures.js';

const entriesOf = <V>(map: PersistentMap<V>) => [...map.entries()].sort(([a], [b]) => a.localeCompare(b));
const msg = (n: number) => ({ message_id: String(1000 + n), create_time_seconds: n });
const ids = (window: MessageWindow<{ message_id: string }>) => window.values().map((m) => m.message_id);

describe('PersistentMap under an edit token', () => {
  it('an update under a token never changes a map made without it', () => {
    const before = PersistentMap.from([['a', 1], ['b', 2]]);
    const token = newEditToken();
    const after = before.set('a', 10, token).set('c', 3, token).delete('b', token);
    expect(entriesOf(before)).toEqual([['a', 1], ['b', 2]]);
    expect(entriesOf(after)).toEqual([['a', 10], ['c', 3]]);
    expect(after.size).toBe(2);
  });

  it('reuses the nodes made under the same token: every step sees all earlier steps', () => {
    const token = newEditToken();
    let map = PersistentMap.empty<number>();
    const versions: PersistentMap<number>[] = [];
    for (let i = 0; i < 500; i += 1) {
      map = map.set(`k${i}`, i, token);
      versions.push(map);
    }
    expect(map.size).toBe(500);
    for (let i = 0; i < 500; i += 1) expect(map.get(`k${i}`)).toBe(i);
    // Each update still returns a new map object, so "did it change?" stays an identity check.
    expect(new Set(versions).size).toBe(500);
  });

  it('a map made under one token is copied, not changed, by an update under another', () => {
    const first = newEditToken();
    const made = PersistentMap.empty<number>().set('a', 1, first).set('b', 2, first);
    const second = newEditToken();
    const changed = made.set('a', 100, second).delete('b', second).set('c', 3, second);
    expect(entriesOf(made)).toEqual([['a', 1], ['b', 2]]);
    expect(entriesOf(changed)).toEqual([['a', 100], ['c', 3]]);
  });

  it('setMany without a token leaves nothing any later token may change', () => {
    const built = PersistentMap.empty<number>().setMany([['a', 1], ['b', 2]]);
    const token = newEditToken();
    built.set('a', 9, token);
    expect(entriesOf(built)).toEqual([['a', 1], ['b', 2]]);
  });

  it('finds keys whose hashes share a bucket (compared by hash, then by key)', () => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `user-${i}`);
    const map = PersistentMap.from(keys.map((k, i) => [k, i] as const));
    for (let i = 0; i < keys.length; i += 997) expect(map.get(keys[i]!)).toBe(i);
    expect(map.get('user-20000')).toBeUndefined();
    expect(map.has('user-19999')).toBe(true);
  });
});

describe('MessageWindow under an edit token', () => {
  it('appends, replaces and removes in place only in chunks made under the token', () => {
    const base = MessageWindow.of([msg(1), msg(2), msg(3)], 50);
    const token = newEditToken();
    let window = base;
    for (let n = 4; n <= 40; n += 1) window = window.append(msg(n), token);
    window = window.replace('1002', (m) => ({ ...m, create_time_seconds: 99 }), token).remove('1003', token);
    expect(ids(base)).toEqual(['1001', '1002', '1003']);
    expect(base.get('1002')?.create_time_seconds).toBe(2);
    expect(window.size).toBe(39);
    expect(window.get('1002')?.create_time_seconds).toBe(99);
    expect(window.has('1003')).toBe(false);
    expect(window.last()?.message_id).toBe('1040');
  });

  it('trims past the limit under a token without touching a window made before', () => {
    const token = newEditToken();
    let window = MessageWindow.empty<{ message_id: string; create_time_seconds: number }>(40);
    for (let n = 1; n <= 40; n += 1) window = window.append(msg(n), token);
    const seen = window;
    const later = newEditToken();
    let next = seen;
    for (let n = 41; n <= 100; n += 1) next = next.append(msg(n), later);
    expect(ids(seen)).toEqual(Array.from({ length: 40 }, (_, i) => String(1001 + i)));
    expect(ids(next)).toEqual(Array.from({ length: 40 }, (_, i) => String(1061 + i)));
  });
});

describe('the Store hands out states that never change', () => {
  const flood = (store: ReturnType<typeof newStore>['store'], from: number, count: number) => {
    for (let n = from; n < from + count; n += 1) store.dispatch(messageEvent({ message_id: String(5000 + n), sender_id: `user${n}`, username: `user${n}`, create_time_seconds: n }));
  };

  it('a state read through `state` keeps its contents after later events', () => {
    const { store } = newStore();
    flood(store, 0, 10);
    const held = store.state;
    const heldIds = held.messages.get(CHANNEL)?.values().map((m) => m.message_id);
    const heldUsers = held.users.size;
    flood(store, 10, 300);
    expect(held.messages.get(CHANNEL)?.values().map((m) => m.message_id)).toEqual(heldIds);
    expect(held.users.size).toBe(heldUsers);
    expect(held.users.has('user10')).toBe(false);
    expect(store.state.users.has('user10')).toBe(true);
  });

  it('every state a state$ subscriber receives keeps its contents', async () => {
    const { store } = newStore();
    const states = firstValueFrom(store.state$.pipe(take(6), toArray()));
    flood(store, 0, 5);
    const received = await states;
    flood(store, 5, 100);
    expect(received.map((s) => s.messages.get(CHANNEL)?.size ?? 0)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(received.map((s) => s.users.size)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('select emits each change and the slices it emitted stay as they were', () => {
    const { store } = newStore();
    const windows: number[][] = [];
    const slices: Array<ReturnType<typeof store.current.messages.get>> = [];
    const subscription = store.select((s) => s.messages.get(CHANNEL)).subscribe((w) => {
      slices.push(w);
      windows.push(w?.values().map((m) => Number(m.message_id)) ?? []);
    });
    flood(store, 0, 3);
    subscription.unsubscribe();
    flood(store, 3, 50);
    expect(slices.map((w) => w?.values().map((m) => Number(m.message_id)) ?? [])).toEqual(windows);
    expect(windows).toEqual([[], [5000], [5000, 5001], [5000, 5001, 5002]]);
  });

  it('`current` reads the latest state without handing it out', () => {
    const { store } = newStore();
    flood(store, 0, 2);
    expect(store.current.messages.get(CHANNEL)?.size).toBe(2);
    expect(store.current.users.get('user1')?.username).toBe('user1');
    expect(store.current.users.get(SELF)).toBeUndefined();
  });
});
