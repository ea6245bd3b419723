/**
 * A property: whatever entries land in the bot's streams without a gateway
 * or a worker writing them (wrong field names, non-JSON, JSON of every type,
 * huge values, `__proto__` keys, near misses of real entries), written
 * straight into the events, commands and results streams of a real
 * redis-server, the scale-out path leaves no rejection unhandled, does not
 * wedge (a real message sent after them is still answered), dead-letters or
 * reports every bad entry with its reason, holds nothing for them once they
 * are dealt with, pollutes no prototype, and closes. HOSTILE_REDIS_RUNS
 * raises the number of runs (a fixed seed; HOSTILE_REDIS_SEED picks another).
 */
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { Events, type AnyClanstreamError } from '../../src/index.js';
import { scaleKeys, SCALE_DEFAULTS, type ScaleKeys } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { ScaleTracker } from './support.js';

const RUNS = Number(process.env.HOSTILE_REDIS_RUNS ?? 10);
const SEED = Number(process.env.HOSTILE_REDIS_SEED ?? 20_251_126);
/** The consumer name of the worker under test (hostile results go to its results stream). */
const WORKER = 'worker-1';
/** A consumer name no worker has: hostile commands that name it are answered there. */
const PROBE = 'probe';

type StreamName = 'events' | 'commands' | 'results';
interface HostileEntry {
  readonly stream: StreamName;
  readonly fields: ReadonlyArray<readonly [string, string]>;
}

const t = new ScaleTracker();
afterEach(() => t.cleanup());

const FIELD_NAMES = ['sid', 'seq', 'type', 'ch', 'cseq', 'at', 'data', 'key', 'from', 'rid', 'kind', 'name', 'body', 'ok', '__proto__', 'constructor', 'prototype', 'toString'];
const fieldName = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FIELD_NAMES) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) });
const jsonText = fc.json({ maxDepth: 3 });
const huge = fc.integer({ min: 300_000, max: 5_000_000 }).map((n) => 'x'.repeat(n));
const words = fc.constantFrom(...Object.values(Events), 'op', 'api', 'dm', 'token', '0', '1', '-1', '1e400', 'NaN', 'channel_message_send', 'getUser', 'start', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}');
const dangerous = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'message_id', 'channel_id', 'content', 'kind', 'message', 'fields', 'name'), fc.jsonValue({ maxDepth: 2 })).map((value) => JSON.stringify(value));
const value = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 4, arbitrary: jsonText },
  { weight: 2, arbitrary: words },
  { weight: 2, arbitrary: dangerous },
  { weight: 1, arbitrary: huge },
);
const anyFields = fc.array(fc.tuple(fieldName, value), { minLength: 1, maxLength: 8 });
const pairs = (record: Record<string, string>) => Object.entries(record);
/** Mostly `usual`, sometimes anything: near misses reach past the first check. */
const mostly = (usual: fc.Arbitrary<string>) => fc.oneof({ weight: 3, arbitrary: usual }, { weight: 1, arbitrary: value });
/** Payloads shaped like a message, with hostile parts. */
const messageish = fc
  .record({ message_id: fc.oneof(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })), channel_id: fc.oneof(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 })), content: fc.jsonValue({ maxDepth: 2 }), sender_id: fc.string({ maxLength: 8 }), code: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] })
  .map((data) => JSON.stringify(data));
// Near misses of what a gateway and a worker write: every field there, the values mostly usual, some hostile.
const eventLike = fc
  .record({
    sid: mostly(fc.constant('S1')),
    seq: mostly(fc.integer({ min: 1, max: 1_000_000 }).map(String)),
    type: mostly(fc.constantFrom(...Object.values(Events))),
    ch: fc.oneof(fc.constant(''), fc.string({ maxLength: 30 })),
    cseq: mostly(fc.oneof(fc.constant(''), fc.nat().map(String))),
    at: value,
    data: fc.oneof(jsonText, dangerous, messageish, value),
  })
  .map(pairs);
const commandLike = fc
  .record({
    key: mostly(fc.string({ minLength: 1, maxLength: 30 })),
    from: fc.oneof({ weight: 4, arbitrary: fc.constant(PROBE) }, { weight: 1, arbitrary: fc.constantFrom(WORKER, '', '{bot:x}', 'a'.repeat(300)) }),
    rid: mostly(fc.string({ minLength: 1, maxLength: 12 })),
    kind: mostly(fc.constantFrom('op', 'api', 'dm', 'token')),
    name: mostly(fc.constantFrom('channel_message_send', 'message_reaction', 'getUser', 'listClans', 'start', 'resume', '__proto__', 'toString', 'createDMchannel', 'sendToken')),
    body: fc.oneof(jsonText, dangerous, value),
  })
  .map(pairs);
const resultLike = fc.record({ rid: fc.oneof(fc.string({ maxLength: 12 }), fc.constant('')), ok: fc.constantFrom('0', '1', '2', ''), body: fc.oneof(jsonText, dangerous, value) }).map(pairs);
const entry: fc.Arbitrary<HostileEntry> = fc.oneof(
  fc.record({ stream: fc.constant<StreamName>('events'), fields: fc.oneof(anyFields, eventLike) }),
  fc.record({ stream: fc.constant<StreamName>('commands'), fields: fc.oneof(anyFields, commandLike) }),
  fc.record({ stream: fc.constant<StreamName>('results'), fields: fc.oneof(anyFields, resultLike) }),
);

/** The fields as Redis hands them back: a later field of the same name wins. */
function lastWins(fields: HostileEntry['fields']): Map<string, string> {
  return new Map(fields);
}

/** Who a command entry names as its requester (what a worker's answer needs), judged here on its own. */
function requesterOf(fields: HostileEntry['fields']): { from: string; rid: string } | undefined {
  const f = lastWins(fields);
  const from = f.get('from');
  const rid = f.get('rid');
  if (!from || from.length > 256 || /[{}]/.test(from) || !rid || rid.length > 256) return undefined;
  return { from, rid };
}

/** Whether a result entry is not one a worker can read (so it must be reported), judged here on its own. */
function malformedResult(fields: HostileEntry['fields']): boolean {
  const f = lastWins(fields);
  const body = f.get('body');
  return !f.get('rid') || !['0', '1'].includes(f.get('ok') ?? '') || body === undefined || Buffer.byteLength(body) > SCALE_DEFAULTS.maxResultBytes;
}

function keyOf(keys: ScaleKeys, stream: StreamName): string {
  return stream === 'events' ? keys.events : stream === 'commands' ? keys.commands : keys.results(WORKER);
}

async function pendingIds(redis: Redis, key: string, group: string): Promise<Set<string>> {
  const rows = (await redis.call('XPENDING', key, group, '-', '+', 10_000)) as Array<[string, ...unknown[]]>;
  return new Set(rows.map((row) => row[0]));
}

/** Polls an asynchronous condition (the Redis side of the checks). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!runRedisTests)('hostile Redis entries (property)', () => {
  it('no unhandled rejection, no wedge, every bad entry dead-lettered or reported with its reason, nothing held, no pollution, close() settles', { timeout: 300_000 }, async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const w = await t.world();
      const keys = scaleKeys(w.bot.botId);
      const redis = t.client(w);
      const gateway = await t.gateway(w);
      const gatewayErrors: AnyClanstreamError[] = [];
      gateway.errors$.subscribe((error) => gatewayErrors.push(error));
      const worker = await t.worker(w, WORKER);
      const workerErrors: AnyClanstreamError[] = [];
      worker.errors$.subscribe((error) => workerErrors.push(error));
      const answered = new Set<string>();
      worker.onChannelMessage(async (m) => {
        if (m.sender_id !== w.alice.id) return;
        await worker.replyTo(m, { t: `re ${m.content.t}` });
        answered.add(m.content.t ?? '');
      });
      let run = 0;

      await fc.assert(
        fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 6 }), async (entries) => {
          run += 1;
          const written: Array<HostileEntry & { id: string }> = [];
          for (const hostile of entries) {
            const id = (await redis.xadd(keyOf(keys, hostile.stream), '*', ...hostile.fields.flat())) as string;
            written.push({ ...hostile, id });
          }
          // A real message after them is still answered: nothing is wedged.
          const marker = `marker ${run}`;
          w.emu.as(w.alice.id).send(w.general, marker);
          await until(() => answered.has(marker), `the answer to ${marker}`, 20_000);

          // Events: none left pending; each bad one is a dead letter with its reason.
          const events = written.filter((e) => e.stream === 'events').map((e) => e.id);
          await eventually(async () => {
            const pending = await pendingIds(redis, keys.events, 'handlers');
            return events.every((id) => !pending.has(id));
          }, 'every hostile event entry dealt with');
          const letters = new Map((await worker.deadLetters.list({ limit: 10_000 })).map((letter) => [letter.entryId, letter]));
          for (const id of events) {
            const letter = letters.get(id);
            if (letter) {
              expect(letter.reason).not.toBe('');
              expect(workerErrors.some((e) => e.message.includes(`entry ${id} went to the dead letters`))).toBe(true);
            }
          }

          // Commands: answered to the worker they name, or reported and dropped when they name none.
          for (const command of written.filter((e) => e.stream === 'commands')) {
            const requester = requesterOf(command.fields);
            if (requester) {
              await eventually(async () => (await redis.xrange(keys.results(requester.from), '-', '+')).some(([, flat]) => flat[flat.indexOf('rid') + 1] === requester.rid), `an answer to command ${command.id}`);
            } else {
              await until(() => gatewayErrors.some((e) => e.kind === 'validation' && e.message.includes(`entry ${command.id} `)), `the report of command ${command.id}`, 20_000);
            }
          }
          await eventually(async () => (await pendingIds(redis, keys.commands, 'gateway')).size === 0, 'no command left pending');

          // Results: the worker read past them (the marker's answer came after); the unreadable ones are reported.
          for (const result of written.filter((e) => e.stream === 'results')) {
            const reported = workerErrors.some((e) => e.message.includes(`result entry ${result.id} `));
            expect(reported, `result entry ${result.id}: ${JSON.stringify(result.fields).slice(0, 300)}`).toBe(malformedResult(result.fields));
          }

          // Nothing held for them; nothing quoted at length; no prototype touched.
          await until(() => worker.stats().inFlight === 0, 'nothing in flight');
          expect(worker.stats().commandsPending).toBe(0);
          expect(gateway.stats().publisher.buffered).toBe(0);
          expect(await redis.hlen(keys.failures)).toBe(0);
          for (const error of [...gatewayErrors, ...workerErrors]) expect(error.message.length).toBeLessThan(4_000);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(unhandled).toEqual([]);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      await worker.close();
      await gateway.close();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
