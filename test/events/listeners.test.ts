import { of, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ListenerError, type ClanstreamError } from '../../src/index.js';
import { ListenerRegistry, type ListenerRunner } from '../../src/events/listeners.js';

describe('ListenerRegistry runner', () => {
  it('calls every listener through the runner, with the event name and the ordinal of the listener in the order added', () => {
    const calls: Array<[string, number, unknown]> = [];
    const run: ListenerRunner = (event, ordinal, call) => {
      const result = call();
      calls.push([event, ordinal, result]);
      return result;
    };
    const registry = new ListenerRegistry(() => {}, run);
    const source = new Subject<number>();
    registry.add('tick', source, (n) => n * 10);
    registry.add('tick', source, (n) => n + 1);
    registry.add('other', of(5), (n) => `seen ${n}`);
    source.next(2);
    expect(calls).toEqual([
      ['other', 0, 'seen 5'],
      ['tick', 0, 20],
      ['tick', 1, 3],
    ]);
  });

  it('a listener that rejects through the runner is still reported as a ListenerError', async () => {
    const errors: ClanstreamError[] = [];
    const registry = new ListenerRegistry((error) => errors.push(error), (_event, _ordinal, call) => call());
    registry.add('tick', of(1), () => Promise.reject(new Error('boom')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ListenerError);
    expect(errors[0]!.message).toContain('boom');
  });
});
