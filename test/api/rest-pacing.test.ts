/**
 * REST pacing (src/api/rest-pacing.ts, the `restIntervalMs` a protocol may
 * bring): requests start at least the interval apart, in the order they were
 * made; closing ends every wait. The waits are checked on a scheduler whose
 * clock the test sets (no real time), the order and the cancellation on a
 * ServiceApi with a recording fetch.
 */
import { asyncScheduler, Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { RestPacing } from '../../src/api/rest-pacing.js';
import { ClosedError, ServiceApi } from '../../src/index.js';

/** A scheduler whose clock the test sets; it records each wait asked of it and runs them only when told. */
class ManualScheduler implements SchedulerLike {
  clock = 0;
  readonly waits: Array<{ delay: number; run: () => void; cancelled: boolean }> = [];
  now(): number {
    return this.clock;
  }
  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0): Subscription {
    const wait = { delay, run: () => work.call(undefined as unknown as SchedulerAction<T>), cancelled: false };
    this.waits.push(wait);
    return new Subscription(() => (wait.cancelled = true));
  }
}

describe('RestPacing', () => {
  it('lets the first request start at once and books each next one an interval after the last booked', () => {
    const scheduler = new ManualScheduler();
    const pacing = new RestPacing(1024, scheduler);
    expect(pacing.turn('GET /a')).toBeUndefined();
    void pacing.turn('GET /b');
    void pacing.turn('GET /c');
    scheduler.clock = 500;
    void pacing.turn('GET /d');
    expect(scheduler.waits.map((w) => w.delay)).toEqual([1024, 2048, 3072 - 500]);
    // After a quiet interval, a request starts at once again.
    scheduler.clock = 10_000;
    expect(pacing.turn('GET /e')).toBeUndefined();
  });

  it('resolves a wait when its time comes, and cancelAll ends the others with a ClosedError naming the route', async () => {
    const scheduler = new ManualScheduler();
    const pacing = new RestPacing(1000, scheduler);
    expect(pacing.turn('GET /first')).toBeUndefined();
    const second = pacing.turn('GET /second')!;
    const third = pacing.turn('GET /third')!;
    scheduler.waits[0]!.run();
    await expect(second).resolves.toBeUndefined();
    pacing.cancelAll();
    await expect(third).rejects.toBeInstanceOf(ClosedError);
    await expect(third).rejects.toMatchObject({ operation: 'GET /third' });
    expect(scheduler.waits[1]!.cancelled).toBe(true);
    // Nothing is left booked: the next request starts at once.
    expect(pacing.turn('GET /fourth')).toBeUndefined();
  });
});

describe('ServiceApi with minIntervalMs', () => {
  const options = { timeoutMs: 5000, retries: 0, baseMs: 10, capMs: 10, maxRetryAfterMs: 10, scheduler: asyncScheduler, random: () => 0 };

  it('sends every paced request, in the order they were made', async () => {
    const paths: string[] = [];
    const fetch = ((input: RequestInfo | URL) => {
      paths.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
      return Promise.resolve(new Response(JSON.stringify({ clans: [], channels: [] }), { headers: { 'content-type': 'application/json' } }));
    }) as typeof globalThis.fetch;
    const api = new ServiceApi({ ...options, basePath: 'http://127.0.0.1:9', minIntervalMs: 20, fetch });
    await Promise.all([api.listClans(), api.listClanChannels('K1'), api.listDmChannels(), api.listClanChannels('K2')]);
    expect(paths).toEqual(['/v2/clans', '/v2/clans/K1/channels', '/v2/dm', '/v2/clans/K2/channels']);
  });

  it('cancelAll ends the requests still waiting for their turn with a ClosedError; none of them is sent', async () => {
    const paths: string[] = [];
    const fetch = ((input: RequestInfo | URL) => {
      paths.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
      return Promise.resolve(new Response('{"clans":[]}', { headers: { 'content-type': 'application/json' } }));
    }) as typeof globalThis.fetch;
    const api = new ServiceApi({ ...options, basePath: 'http://127.0.0.1:9', minIntervalMs: 60_000, fetch });
    const first = api.listClans();
    const waiting = api.listDmChannels();
    api.cancelAll();
    await expect(waiting).rejects.toMatchObject({ kind: 'closed', operation: 'GET /v2/dm' });
    await first.catch(() => undefined);
    expect(paths).not.toContain('/v2/dm');
  });
});
