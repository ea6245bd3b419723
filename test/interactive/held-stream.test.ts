/** holdStream: subscribed at once, holding values until the first reader. */
import { Subject, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { holdStream } from '../../src/interactive/held-stream.js';

describe('holdStream', () => {
  it('subscribes at once, gives the first reader what it held and then the live values; later readers only live ones', () => {
    const source = new Subject<number>();
    const held = holdStream(source);
    expect(source.observed).toBe(true);
    source.next(1);
    source.next(2);
    const first: number[] = [];
    const second: number[] = [];
    held.values$.subscribe((v) => first.push(v));
    expect(first).toEqual([1, 2]);
    held.values$.subscribe((v) => second.push(v));
    source.next(3);
    expect(first).toEqual([1, 2, 3]);
    expect(second).toEqual([3]);
  });

  it('an end while holding reaches the reader after the held values', () => {
    const completing = new Subject<string>();
    const completed = holdStream(completing);
    completing.next('a');
    completing.complete();
    const seen: string[] = [];
    completed.values$.subscribe({ next: (v) => seen.push(v), complete: () => seen.push('complete') });
    expect(seen).toEqual(['a', 'complete']);

    const failing = new Subject<string>();
    const failed = holdStream(failing);
    failing.next('b');
    const error = new Error('lost');
    failing.error(error);
    const events: unknown[] = [];
    failed.values$.subscribe({ next: (v) => events.push(v), error: (e: unknown) => events.push(e) });
    expect(events).toEqual(['b', error]);
  });

  it('a reader that stops during the replay gets no more', () => {
    const source = new Subject<number>();
    const held = holdStream(source);
    for (const v of [1, 2, 3]) source.next(v);
    const seen: number[] = [];
    held.values$.pipe(take(2)).subscribe((v) => seen.push(v));
    source.next(4);
    expect(seen).toEqual([1, 2]);
    expect(source.observed).toBe(true); // the source is the owner's to release
  });

  it('release unsubscribes from the source and drops what it held', () => {
    const source = new Subject<number>();
    const held = holdStream(source);
    source.next(1);
    held.release();
    expect(source.observed).toBe(false);
    const seen: number[] = [];
    held.values$.subscribe((v) => seen.push(v));
    source.next(2);
    expect(seen).toEqual([]);
  });
});
