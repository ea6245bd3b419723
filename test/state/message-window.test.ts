/**
 * MessageWindow (src/state/message-window.ts): the bounded, immutable list of
 * a channel's most recent messages, oldest first. Appends evict the oldest
 * past the limit; merges order by creation time, then id; old windows stay
 * valid for whoever holds them.
 */
import { describe, expect, it } from 'vitest';
import { MessageWindow } from '../../src/state/message-window.js';

interface Item {
  readonly message_id: string;
  readonly create_time_seconds?: number;
  readonly text?: string;
}

const item = (id: number | string, time?: number, text?: string): Item => ({
  message_id: String(id),
  ...(time !== undefined ? { create_time_seconds: time } : {}),
  ...(text !== undefined ? { text } : {}),
});
const ids = (window: MessageWindow<Item>) => window.values().map((m) => m.message_id);
const seq = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

/** A window with messages 1..n appended in order (time = id). */
function filled(n: number, limit: number): MessageWindow<Item> {
  let window = MessageWindow.empty<Item>(limit);
  for (let i = 1; i <= n; i += 1) window = window.append(item(i, i));
  return window;
}

describe('append', () => {
  it('starts empty', () => {
    const window = MessageWindow.empty<Item>(10);
    expect(window.size).toBe(0);
    expect(window.limit).toBe(10);
    expect(window.last()).toBeUndefined();
    expect(window.values()).toEqual([]);
    expect(window.get('1')).toBeUndefined();
    expect(window.has('1')).toBe(false);
  });

  it('adds at the end, oldest first, with size, last, get and has', () => {
    const window = filled(3, 10);
    expect(ids(window)).toEqual(['1', '2', '3']);
    expect(window.size).toBe(3);
    expect(window.last()?.message_id).toBe('3');
    expect(window.get('2')).toEqual(item(2, 2));
    expect(window.has('3')).toBe(true);
    expect(window.has('4')).toBe(false);
  });

  it('keeps the old window valid after an append', () => {
    const before = filled(3, 10);
    const after = before.append(item(4, 4));
    expect(ids(before)).toEqual(['1', '2', '3']);
    expect(before.size).toBe(3);
    expect(before.has('4')).toBe(false);
    expect(ids(after)).toEqual(['1', '2', '3', '4']);
  });

  it('appending a message already held replaces it where it is (no growth, no move)', () => {
    const window = filled(3, 10);
    const next = window.append(item(2, 2, 'edited'));
    expect(ids(next)).toEqual(['1', '2', '3']);
    expect(next.size).toBe(3);
    expect(next.get('2')?.text).toBe('edited');
    expect(window.get('2')?.text).toBeUndefined();
  });

  it('appending the very same object returns the same window', () => {
    const window = filled(3, 10);
    const held = window.get('2')!;
    expect(window.append(held)).toBe(window);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(filled(2, 5))).toBe(true);
  });
});

describe('limit', () => {
  it('evicts the oldest past the limit, keeping order', () => {
    const window = filled(5, 3);
    expect(ids(window)).toEqual(['3', '4', '5']);
    expect(window.size).toBe(3);
  });

  it('get after eviction is undefined; later messages are still found', () => {
    const window = filled(100, 10);
    expect(window.get('90')).toBeUndefined();
    expect(window.has('1')).toBe(false);
    expect(window.get('91')?.message_id).toBe('91');
    expect(window.get('100')?.message_id).toBe('100');
    expect(window.last()?.message_id).toBe('100');
  });

  it('stays exact across chunk boundaries (limits around 32, many appends)', () => {
    for (const limit of [1, 31, 32, 33, 64, 65, 200]) {
      for (const n of [limit - 1, limit, limit + 1, limit * 3 + 7]) {
        if (n < 0) continue;
        const window = filled(n, limit);
        const expected = seq(Math.max(1, n - limit + 1), n);
        expect(window.size, `limit ${limit}, n ${n}`).toBe(expected.length);
        expect(ids(window), `limit ${limit}, n ${n}`).toEqual(expected);
        for (const id of expected) expect(window.has(id)).toBe(true);
        if (n > limit) expect(window.has(String(n - limit))).toBe(false);
      }
    }
  });

  it('a window of limit 0 holds nothing', () => {
    const window = MessageWindow.empty<Item>(0).append(item(1, 1));
    expect(window.size).toBe(0);
    expect(window.values()).toEqual([]);
  });
});

describe('replace and remove', () => {
  it('replace applies the function to the held message', () => {
    const window = filled(40, 100);
    const next = window.replace('35', (m) => ({ ...m, text: 'changed' }));
    expect(next.get('35')?.text).toBe('changed');
    expect(ids(next)).toEqual(ids(window));
    expect(window.get('35')?.text).toBeUndefined();
  });

  it('replace returns the same window when the message is absent or the function changes nothing', () => {
    const window = filled(5, 10);
    expect(window.replace('99', (m) => ({ ...m, text: 'x' }))).toBe(window);
    expect(window.replace('3', (m) => m)).toBe(window);
  });

  it('remove takes a message out (first, middle, last, across chunks)', () => {
    const window = filled(70, 100);
    const next = window.remove('1').remove('33').remove('70').remove('40');
    expect(next.size).toBe(66);
    expect(next.has('1') || next.has('33') || next.has('40') || next.has('70')).toBe(false);
    expect(ids(next)).toEqual(seq(1, 70).filter((id) => !['1', '33', '40', '70'].includes(id)));
    expect(next.last()?.message_id).toBe('69');
    expect(window.size).toBe(70);
  });

  it('remove of an absent message returns the same window; removing the last one empties it', () => {
    const window = filled(1, 10);
    expect(window.remove('2')).toBe(window);
    const empty = window.remove('1');
    expect(empty.size).toBe(0);
    expect(empty.last()).toBeUndefined();
    expect(empty.values()).toEqual([]);
    // An emptied window still appends.
    expect(ids(empty.append(item(9, 9)))).toEqual(['9']);
  });

  it('after a remove, appends fill the window up to the limit again', () => {
    const window = filled(3, 3).remove('2').append(item(4, 4));
    expect(ids(window)).toEqual(['1', '3', '4']);
    expect(ids(window.append(item(5, 5)))).toEqual(['3', '4', '5']);
  });
});

describe('merge and of: order by time, then id', () => {
  it('of sorts any order by creation time', () => {
    const window = MessageWindow.of([item('a', 30), item('b', 10), item('c', 20)], 10);
    expect(ids(window)).toEqual(['b', 'c', 'a']);
  });

  it('ties in time go by id as a number (shorter id first, then lexicographic)', () => {
    const window = MessageWindow.of([item('100', 5), item('9', 5), item('10', 5), item('11', 5)], 10);
    expect(ids(window)).toEqual(['9', '10', '11', '100']);
  });

  it('a missing time counts as 0', () => {
    const window = MessageWindow.of([item('5', 1), item('7')], 10);
    expect(ids(window)).toEqual(['7', '5']);
  });

  it('of keeps the newest `limit` and drops duplicate ids', () => {
    const window = MessageWindow.of([item(1, 1), item(2, 2), item(3, 3), item(2, 2, 'dup'), item(4, 4)], 3);
    expect(ids(window)).toEqual(['2', '3', '4']);
    expect(window.size).toBe(3);
    expect(window.get('2')?.text).toBe('dup');
  });

  it('merge puts older history before what is held', () => {
    const window = MessageWindow.empty<Item>(10).append(item(10, 100)).append(item(11, 110));
    const merged = window.merge([item(8, 80), item(9, 90)]);
    expect(ids(merged)).toEqual(['8', '9', '10', '11']);
    expect(ids(window)).toEqual(['10', '11']);
  });

  it('merge interleaves by time and keeps the newest past the limit', () => {
    const window = MessageWindow.of([item(2, 20), item(4, 40)], 3);
    const merged = window.merge([item(1, 10), item(3, 30), item(5, 50)]);
    expect(ids(merged)).toEqual(['3', '4', '5']);
    expect(merged.size).toBe(3);
  });

  it('merge of nothing returns the same window', () => {
    const window = filled(3, 10);
    expect(window.merge([])).toBe(window);
  });

  it('a merged window still appends and evicts', () => {
    const merged = MessageWindow.empty<Item>(40).merge(Array.from({ length: 40 }, (_, i) => item(i + 1, i + 1)));
    const next = merged.append(item(41, 41));
    expect(next.size).toBe(40);
    expect(next.get('1')).toBeUndefined();
    expect(next.last()?.message_id).toBe('41');
    expect(ids(next)).toEqual(seq(2, 41));
  });
});
