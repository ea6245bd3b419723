/** distinctTransfers: each transaction_id once, bounded memory, per-subscription state. */
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { distinctTransfers, TransferIdWindow } from '../src/wallet/distinct-transfers.js';

interface Sent {
  transaction_id?: string;
  amount: number;
}

const scheduler = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('distinctTransfers', () => {
  const values: Record<string, Sent> = { a: { transaction_id: 't1', amount: 1 }, b: { transaction_id: 't2', amount: 2 }, n: { amount: 3 } };

  it('drops repeated transaction ids and lets events without one through', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('a-b-a-n-n-b-|', values);
      expectObservable(source.pipe(distinctTransfers())).toBe('a-b---n-n---|', values);
    });
  });

  it('forgets the oldest id beyond its limit', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('a-b-a-b-|', values);
      // Limit 1: after t2, t1 is forgotten and passes again; then t2 is forgotten.
      expectObservable(source.pipe(distinctTransfers(1))).toBe('a-b-a-b-|', values);
    });
  });

  it('keeps separate memory per subscription', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const deduped = cold('a-a|', values).pipe(distinctTransfers());
      expectObservable(deduped).toBe('a--|', values);
      expectObservable(deduped).toBe('a--|', values);
    });
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => distinctTransfers(0)).toThrow(RangeError);
  });
});

describe('TransferIdWindow', () => {
  it('tells new ids from repeats, forgets the oldest beyond its limit, and passes missing ids', () => {
    const window = new TransferIdWindow(2);
    expect(['a', 'a', 'b', 'c', 'a', undefined, undefined].map((id) => window.isNew(id))).toEqual([true, false, true, true, true, true, true]);
    expect(window.isNew('c')).toBe(false);
  });
});
