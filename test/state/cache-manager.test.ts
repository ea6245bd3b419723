/**
 * CacheManager (src/state/cache-manager.ts): SPEC's CacheManager as a
 * read-only view of a source. `get` is synchronous; `fetch` loads on a miss,
 * concurrent fetches of one key share one load, a failed load is not
 * remembered, and a 404 reaches the caller as an ApiError with isNotFound.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, CacheManager, ValidationError, type CacheSource } from '../../src/index.js';

interface Thing {
  readonly id: string;
  readonly n: number;
}

/** A deferred promise, to hold a load in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A Map-backed source that records reads marked as use and every load. */
function source(initial: Array<[string, number]> = [], load?: (key: string) => Promise<Thing>) {
  const data = new Map<string, Thing>(initial.map(([id, n]) => [id, { id, n }]));
  const touched: string[] = [];
  const loads: string[] = [];
  const src: CacheSource<Thing> = {
    get: (key) => data.get(key),
    entries: () => data.entries(),
    size: () => data.size,
    touch: (key) => touched.push(key),
    ...(load
      ? {
          load: async (key: string) => {
            loads.push(key);
            const value = await load(key);
            data.set(key, value);
            return value;
          },
        }
      : {}),
  };
  return { data, touched, loads, src };
}

const notFound = (key: string) => new ApiError({ status: 404, code: 'not_found', message: `thing ${key} does not exist`, route: 'GET /things/{id}' });

describe('reading', () => {
  const { src, touched } = source([
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ]);
  const cache = new CacheManager<string, Thing>(src, 'thing');

  it('get returns the entry or undefined, and marks a hit as used', () => {
    touched.length = 0;
    expect(cache.get('a')).toEqual({ id: 'a', n: 1 });
    expect(cache.get('zz')).toBeUndefined();
    expect(touched).toEqual(['a']);
  });

  it('has answers without marking use', () => {
    touched.length = 0;
    expect(cache.has('b')).toBe(true);
    expect(cache.has('zz')).toBe(false);
    expect(touched).toEqual([]);
  });

  it('size, entries, keys, values and iteration', () => {
    expect(cache.size).toBe(3);
    expect([...cache.keys()]).toEqual(['a', 'b', 'c']);
    expect([...cache.values()].map((v) => v.n)).toEqual([1, 2, 3]);
    expect([...cache.entries()].map(([k, v]) => `${k}=${v.n}`)).toEqual(['a=1', 'b=2', 'c=3']);
    expect([...cache].map(([k]) => k)).toEqual(['a', 'b', 'c']);
  });

  it('filter, find, first, map and forEach pass value and key', () => {
    expect(cache.filter((v) => v.n >= 2).map((v) => v.id)).toEqual(['b', 'c']);
    expect(cache.filter((_v, k) => k === 'a')).toEqual([{ id: 'a', n: 1 }]);
    expect(cache.find((v) => v.n === 2)?.id).toBe('b');
    expect(cache.find((_v, k) => k === 'zz')).toBeUndefined();
    expect(cache.first()?.id).toBe('a');
    expect(cache.map((v, k) => `${k}:${v.n * 10}`)).toEqual(['a:10', 'b:20', 'c:30']);
    const seen: string[] = [];
    cache.forEach((v, k) => seen.push(`${k}${v.n}`));
    expect(seen).toEqual(['a1', 'b2', 'c3']);
  });

  it('an empty cache: size 0, first undefined, empty lists', () => {
    const empty = new CacheManager<string, Thing>(source().src, 'thing');
    expect(empty.size).toBe(0);
    expect(empty.first()).toBeUndefined();
    expect(empty.map((v) => v)).toEqual([]);
    expect([...empty]).toEqual([]);
  });

  it('reads the source live: a change shows at the next read', () => {
    const s = source([['a', 1]]);
    const live = new CacheManager<string, Thing>(s.src, 'thing');
    expect(live.get('b')).toBeUndefined();
    s.data.set('b', { id: 'b', n: 2 });
    expect(live.get('b')?.n).toBe(2);
    expect(live.size).toBe(2);
  });

  it('toJSON describes the cache without its contents', () => {
    expect(JSON.parse(JSON.stringify(cache))).toEqual({ what: 'thing', size: 3 });
  });
});

describe('fetch', () => {
  it('resolves a cached entry without loading', async () => {
    const s = source([['a', 1]], async (key) => ({ id: key, n: 99 }));
    const cache = new CacheManager<string, Thing>(s.src, 'thing');
    await expect(cache.fetch('a')).resolves.toEqual({ id: 'a', n: 1 });
    expect(s.loads).toEqual([]);
    expect(s.touched).toEqual(['a']);
  });

  it('loads on a miss, and the entry is then cached', async () => {
    const s = source([], async (key) => ({ id: key, n: 7 }));
    const cache = new CacheManager<string, Thing>(s.src, 'thing');
    await expect(cache.fetch('x')).resolves.toEqual({ id: 'x', n: 7 });
    expect(cache.get('x')).toEqual({ id: 'x', n: 7 });
    await cache.fetch('x');
    expect(s.loads).toEqual(['x']);
  });

  it('force loads even when cached', async () => {
    const s = source([['a', 1]], async (key) => ({ id: key, n: 2 }));
    const cache = new CacheManager<string, Thing>(s.src, 'thing');
    await expect(cache.fetch('a', { force: true })).resolves.toEqual({ id: 'a', n: 2 });
    expect(s.loads).toEqual(['a']);
  });

  it('concurrent fetches of one key share one load and get the same value', async () => {
    const gate = deferred<Thing>();
    const s = source([], () => gate.promise);
    const cache = new CacheManager<string, Thing>(s.src, 'thing');
    const first = cache.fetch('x');
    const second = cache.fetch('x');
    const forced = cache.fetch('x', { force: true });
    expect(s.loads).toEqual(['x']);
    gate.resolve({ id: 'x', n: 1 });
    const [a, b, c] = await Promise.all([first, second, forced]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(s.loads).toEqual(['x']);
  });

  it('fetches of different keys load separately', async () => {
    const s = source([], async (key) => ({ id: key, n: key.length }));
    const cache = new CacheManager<string, Thing>(s.src, 'thing');
    await Promise.all([cache.fetch('a'), cache.fetch('bb'), cache.fetch('a')]);
    expect(s.loads.sort()).toEqual(['a', 'bb']);
  });

  it('a failing load rejects every waiting fetch, is not remembered, and can be retried', async () => {
    let attempt = 0;
    const gates = [deferred<Thing>(), deferred<Thing>()];
    const s = source([], () => gates[attempt++]!.promise);
    const cache = new CacheManager<string, Thing>(s.src, 'thing');
    const first = cache.fetch('x');
    const second = cache.fetch('x');
    const boom = new Error('network down');
    gates[0]!.reject(boom);
    await expect(first).rejects.toBe(boom);
    await expect(second).rejects.toBe(boom);
    expect(cache.has('x')).toBe(false);

    const retry = cache.fetch('x');
    expect(s.loads).toEqual(['x', 'x']);
    gates[1]!.resolve({ id: 'x', n: 5 });
    await expect(retry).resolves.toEqual({ id: 'x', n: 5 });
    expect(cache.get('x')?.n).toBe(5);
  });

  it('a 404 reaches the caller as the ApiError itself, with isNotFound; the next fetch asks again', async () => {
    const s = source([], async (key) => {
      throw notFound(key);
    });
    const cache = new CacheManager<string, Thing>(s.src, 'thing');
    const error = await cache.fetch('ghost').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', isNotFound: true, route: 'GET /things/{id}' });
    await expect(cache.fetch('ghost')).rejects.toBeInstanceOf(ApiError);
    expect(s.loads).toEqual(['ghost', 'ghost']);
  });

  it('other statuses are not "not found"', () => {
    expect(new ApiError({ status: 403, code: 'forbidden', message: 'no', route: 'GET /x' }).isNotFound).toBe(false);
    expect(new ApiError({ status: 0, code: 'network_error', message: 'no', route: 'GET /x' }).isNotFound).toBe(false);
  });

  it('refuses an empty or non-string key with a ValidationError, without loading', async () => {
    const s = source([], async (key) => ({ id: key, n: 0 }));
    const cache = new CacheManager<string, Thing>(s.src, 'thing');
    await expect(cache.fetch('')).rejects.toBeInstanceOf(ValidationError);
    await expect(cache.fetch(undefined as unknown as string)).rejects.toBeInstanceOf(ValidationError);
    await expect(cache.fetch(42 as unknown as string)).rejects.toThrow(/thing id/);
    expect(s.loads).toEqual([]);
  });

  it('a cache without a loader refuses a miss with a ValidationError naming what is missing', async () => {
    const cache = new CacheManager<string, Thing>(source([['a', 1]]).src, 'thing');
    await expect(cache.fetch('a')).resolves.toEqual({ id: 'a', n: 1 });
    const error = await cache.fetch('b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/thing b is not cached/);
  });

  it('views built over one pending map dedupe together', async () => {
    const gate = deferred<Thing>();
    const s = source([], () => gate.promise);
    const pending = new Map<string, Promise<Thing>>();
    const one = new CacheManager<string, Thing>(s.src, 'thing', pending);
    const other = new CacheManager<string, Thing>(s.src, 'thing', pending);
    const a = one.fetch('x');
    const b = other.fetch('x');
    expect(pending.size).toBe(1);
    gate.resolve({ id: 'x', n: 1 });
    expect(await a).toBe(await b);
    expect(s.loads).toEqual(['x']);
    expect(pending.size).toBe(0);
  });
});
