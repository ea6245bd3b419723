/**
 * NonceAllocator in virtual time: one holder per address, consecutive
 * nonces for concurrent callers, one network read until something goes
 * wrong, and a resync after a rejection or an unknown outcome.
 */
import { defer, map, switchMap, tap, throwError, timer, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { NonceAllocator, type NonceLease } from '../src/wallet/nonce-allocator.js';

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** A network whose reads take one frame and answer the given nonces in turn (the last one repeats). */
function network(values: number[]): { read: (address: string) => Observable<number>; reads: string[] } {
  const reads: string[] = [];
  let i = 0;
  return {
    reads,
    read: (address) =>
      defer(() => {
        reads.push(address);
        const value = values[Math.min(i, values.length - 1)] ?? 0;
        i += 1;
        return timer(1).pipe(map(() => value));
      }),
  };
}

/** A holder that takes two frames to get its transaction accepted. */
const accepted = (lease: NonceLease): Observable<number> =>
  timer(2).pipe(
    map(() => {
      lease.commit();
      return lease.nonce;
    }),
  );

describe('NonceAllocator', () => {
  it('gives concurrent callers consecutive nonces, one at a time, from one network read', () => {
    scheduler().run(({ expectObservable }) => {
      const net = network([7]);
      const allocator = new NonceAllocator(net.read);
      // Read at 0-1, then each holder keeps the lane for two frames.
      expectObservable(allocator.withNonce('A', accepted)).toBe('---(a|)', { a: 8 });
      expectObservable(allocator.withNonce('A', accepted)).toBe('-----(b|)', { b: 9 });
      expectObservable(allocator.withNonce('A', accepted)).toBe('-------(c|)', { c: 10 });
      expectObservable(timer(8).pipe(map(() => net.reads))).toBe('--------(r|)', { r: ['A'] });
    });
  });

  it('gives a released nonce to the next caller (a refusal leaves no gap)', () => {
    scheduler().run(({ expectObservable }) => {
      const allocator = new NonceAllocator(network([0]).read);
      const refused = (lease: NonceLease) =>
        timer(2).pipe(
          map(() => {
            lease.release();
            return lease.nonce;
          }),
        );
      expectObservable(allocator.withNonce('A', accepted)).toBe('---(a|)', { a: 1 });
      expectObservable(allocator.withNonce('A', refused)).toBe('-----(b|)', { b: 2 });
      expectObservable(allocator.withNonce('A', accepted)).toBe('-------(c|)', { c: 2 });
      expectObservable(allocator.withNonce('A', accepted)).toBe('---------(d|)', { d: 3 });
    });
  });

  it('resynchronises after a nonce rejection: the holder re-reads and moves on from the network', () => {
    scheduler().run(({ expectObservable }) => {
      // The network says 7; someone else then sends 5 transactions: the next read says 12.
      const net = network([7, 12]);
      const allocator = new NonceAllocator(net.read);
      const rejectedThenResynced = (lease: NonceLease) =>
        timer(2).pipe(
          switchMap(() => lease.resync$()),
          map((nonce) => {
            lease.commit();
            return nonce;
          }),
        );
      // Read 0-1 (nonce 8), refused at 3, re-read 3-4 (nonce 13), accepted.
      expectObservable(allocator.withNonce('A', rejectedThenResynced)).toBe('----(a|)', { a: 13 });
      expectObservable(allocator.withNonce('A', accepted)).toBe('------(b|)', { b: 14 });
    });
  });

  it('reads the network again after an outcome it cannot know (an error, or no settlement)', () => {
    scheduler().run(({ expectObservable }) => {
      const net = network([3, 9]);
      const allocator = new NonceAllocator(net.read);
      const failed = () => timer(2).pipe(switchMap(() => throwError(() => new Error('network failure'))));
      expectObservable(allocator.withNonce('A', failed)).toBe('---#', undefined, new Error('network failure'));
      // Re-read 3-4: 9, so nonce 10.
      expectObservable(allocator.withNonce('A', accepted)).toBe('------(b|)', { b: 10 });
      expectObservable(allocator.withNonce('A', (lease) => timer(1).pipe(map(() => lease.nonce)))).toBe('-------(c|)', { c: 11 });
      // That one neither committed nor released: read again at 7-8 (the network still says 9), nonce 10.
      expectObservable(allocator.withNonce('A', accepted)).toBe('----------(d|)', { d: 10 });
    });
  });

  it('removes a caller that unsubscribes while waiting, and one that unsubscribes while holding gives the lane back', () => {
    scheduler().run(({ expectObservable }) => {
      const allocator = new NonceAllocator(network([0]).read);
      expectObservable(allocator.withNonce('A', accepted)).toBe('---(a|)', { a: 1 });
      // Waits behind the first and gives up at 2: never runs.
      expectObservable(allocator.withNonce('A', accepted), '^-!').toBe('---');
      // Runs at 3, unsubscribed at 4 while holding: the outcome is unknown, so the next read comes again.
      expectObservable(allocator.withNonce('A', accepted), '^---!').toBe('-----');
      expectObservable(allocator.withNonce('A', accepted)).toBe('-------(c|)', { c: 1 });
    });
  });

  it('does not make different addresses wait for each other', () => {
    scheduler().run(({ expectObservable }) => {
      const net = network([0]);
      const allocator = new NonceAllocator(net.read);
      expectObservable(allocator.withNonce('A', accepted)).toBe('---(a|)', { a: 1 });
      expectObservable(allocator.withNonce('B', accepted)).toBe('---(b|)', { b: 1 });
      expectObservable(allocator.withNonce('A', accepted)).toBe('-----(c|)', { c: 2 });
    });
  });

  it('sync$ reads the network in turn with the holders and invalidate() forgets', () => {
    scheduler().run(({ expectObservable }) => {
      const net = network([4, 6, 20]);
      const allocator = new NonceAllocator(net.read);
      expectObservable(allocator.sync$('A')).toBe('-(s|)', { s: 4 });
      expectObservable(allocator.withNonce('A', accepted)).toBe('---(a|)', { a: 5 });
      // Queued behind the holder: reads at 3-4 and learns 6.
      expectObservable(allocator.sync$('A')).toBe('----(t|)', { t: 6 });
      expectObservable(allocator.withNonce('A', accepted)).toBe('------(b|)', { b: 7 });
      expectObservable(timer(7).pipe(map(() => allocator.known('A')))).toBe('-------(k|)', { k: 7 });
      expectObservable(timer(7).pipe(tap(() => allocator.invalidate()), map(() => allocator.known('A')))).toBe('-------(u|)', { u: undefined });
      // Reads again at 8-9: 20, so nonce 21.
      expectObservable(timer(8).pipe(switchMap(() => allocator.withNonce('A', accepted)))).toBe('-----------(c|)', { c: 21 });
    });
  });
});
