/**
 * Entries written straight into the bot's streams that no gateway or worker
 * wrote, against a real redis-server and the emulator: a bad event entry goes
 * to the dead letters with its reason whatever part of the worker it breaks,
 * and a bad command (corrupt recorded result, unreadable fields, a write
 * larger than the gateway accepts) is answered at once with a typed error
 * while the commands behind it go on.
 */
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryMessageStore, type AnyClanstreamError, type ChannelMessage } from '../../src/index.js';
import { scaleKeys, scaleStatus, type ScaleKeys } from '../../src/scale/index.js';
import { until } from '../helpers/client.js';
import { runRedisTests } from '../support/redis-server.js';
import { ScaleTracker, type ScaleWorld } from './support.js';

const t = new ScaleTracker();
afterEach(() => t.cleanup());

const fromAlice = (w: ScaleWorld) => (m: ChannelMessage) => m.sender_id === w.alice.id;
const stored = (w: ScaleWorld, text: string) => w.emu.messages(w.general).filter((m) => m.content.t === text).length;

/** Adds an event entry as the publish script would, with the given data. */
function addEvent(redis: Redis, keys: ScaleKeys, channelId: string, data: string, type = 'channel_message'): Promise<string | null> {
  return redis.xadd(keys.events, '*', 'sid', 'raw-session', 'seq', '1', 'type', type, 'ch', channelId, 'cseq', '', 'at', '0', 'data', data);
}

/** The result entries of a results stream, by request id. */
async function resultsOf(redis: Redis, keys: ScaleKeys, consumer: string): Promise<Map<string, { ok: string; body: unknown }>> {
  const out = new Map<string, { ok: string; body: unknown }>();
  for (const [, flat] of await redis.xrange(keys.results(consumer), '-', '+')) {
    const fields = Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i]!, flat[2 * i + 1]!]));
    out.set(fields.rid!, { ok: fields.ok!, body: JSON.parse(fields.body!) as unknown });
  }
  return out;
}

/** Waits until the results stream of `consumer` holds `count` answers. */
async function answersTo(redis: Redis, keys: ScaleKeys, consumer: string, count: number): Promise<Map<string, { ok: string; body: unknown }>> {
  for (let tries = 0; tries < 1_500; tries += 1) {
    const results = await resultsOf(redis, keys, consumer);
    if (results.size >= count) return results;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${count} answers to ${consumer}`);
}

describe.skipIf(!runRedisTests)('hostile event entries', () => {
  it.each([
    ['{}', 'channel_message without message_id'],
    ['[]', 'not an object'],
  ])('an event entry whose data is %s goes to the dead letters at once ("%s"); later events are handled, a new worker is not wedged, close() settles', async (data, reason) => {
    const w = await t.world();
    await t.gateway(w);
    const keys = scaleKeys(w.bot.botId);
    const errors: AnyClanstreamError[] = [];
    const first = await t.worker(w, 'worker-1');
    first.errors$.subscribe((error) => errors.push(error));
    first.onChannelMessage(async (m) => {
      if (fromAlice(w)(m)) await first.replyTo(m, { t: `first saw ${m.content.t}` });
    });
    const bad = await addEvent(t.client(w), keys, w.general, data);
    w.emu.as(w.alice.id).send(w.general, 'after');
    await until(() => stored(w, 'first saw after') === 1, 'the event after the bad one handled', 15_000);
    await until(() => first.stats().deadLettered === 1, 'the bad entry dead-lettered', 10_000);
    const [letter] = await first.deadLetters.list();
    expect(letter).toMatchObject({ entryId: bad, deliveries: 1 });
    expect(letter!.reason).toContain(reason);
    expect(errors.some((e) => e.message.includes(`entry ${bad} went to the dead letters`))).toBe(true);

    const second = await t.worker(w, 'worker-2');
    second.onChannelMessage(async (m) => {
      if (fromAlice(w)(m)) await second.replyTo(m, { t: `second saw ${m.content.t}` });
    });
    await first.close();
    w.emu.as(w.alice.id).send(w.general, 'later');
    await until(() => stored(w, 'second saw later') === 1, 'the new worker handling events', 15_000);
    await second.close();
    const status = await scaleStatus(t.client(w), w.bot.botId);
    expect(status.events.groups.find((g) => g.name === 'handlers')?.pending).toBe(0);
  });

  it('an entry that breaks the worker’s caches (its message store throws) goes to the dead letters with the reason; the handlers never run for it, and the rest flows', async () => {
    const w = await t.world();
    await t.gateway(w);
    class Fussy extends InMemoryMessageStore {
      override put(message: ChannelMessage): void {
        if (message.content.t === 'indigestible') throw new Error('the message store refused it');
        super.put(message);
      }
    }
    const worker = await t.worker(w, 'worker-1', { messageStore: new Fussy(100) });
    const handled: string[] = [];
    worker.onChannelMessage(async (m) => {
      if (!fromAlice(w)(m)) return;
      handled.push(m.content.t ?? '');
      await worker.replyTo(m, { t: `re ${m.content.t}` });
    });
    const alice = w.emu.as(w.alice.id);
    alice.send(w.general, 'before');
    alice.send(w.general, 'indigestible');
    alice.send(w.general, 'after');
    await until(() => stored(w, 're after') === 1 && worker.stats().deadLettered === 1, 'the rest handled and the bad one dead-lettered', 15_000);
    expect(handled).toEqual(['before', 'after']);
    const [letter] = await worker.deadLetters.list();
    expect(letter!.entry?.event).toMatchObject({ data: { content: { t: 'indigestible' } } });
    expect(letter!.reason).toContain('the message store refused it');
    await worker.close();
  });
});

describe.skipIf(!runRedisTests)('hostile command entries', () => {
  it('a corrupt recorded result answers its command with a ProtocolError at once; the commands of its batch go on', async () => {
    const w = await t.world();
    const gateway = await t.gateway(w);
    const errors: AnyClanstreamError[] = [];
    gateway.errors$.subscribe((error) => errors.push(error));
    const keys = scaleKeys(w.bot.botId);
    const redis = t.client(w);
    await redis.set(keys.done('corrupt-key'), '{not json');
    const send = (key: string, rid: string, text: string) => ['key', key, 'from', 'probe', 'rid', rid, 'kind', 'op', 'name', 'channel_message_send', 'body', JSON.stringify({ clan_id: w.clanId, channel_id: w.general, mode: 2, is_public: true, content: { t: text } })];
    // One transaction: both commands reach the gateway in one read.
    await redis.multi().xadd(keys.commands, '*', ...send('corrupt-key', 'r1', 'never sent')).xadd(keys.commands, '*', ...send('fresh-key', 'r2', 'sent behind it')).exec();
    await until(() => stored(w, 'sent behind it') === 1, 'the command behind the corrupt one carried out', 15_000);
    const results = await answersTo(redis, keys, 'probe', 2);
    expect(results.get('r1')).toMatchObject({ ok: '0', body: { kind: 'protocol' } });
    expect((results.get('r1')!.body as { message: string }).message).toContain('recorded result');
    expect(results.get('r2')).toMatchObject({ ok: '1', body: { channel_id: w.general } });
    expect(stored(w, 'never sent')).toBe(0);
    expect(errors.map((e) => e.message).filter((m) => m.includes('reading the commands stream failed'))).toEqual([]);
    const status = await scaleStatus(redis, w.bot.botId);
    expect(status.commands.groups.find((g) => g.name === 'gateway')?.pending).toBe(0);
  });

  it('a command that asks for 5 MB of content fails at once with a ValidationError (too large); the gateway keeps its socket and the command behind it is carried out', async () => {
    const w = await t.world();
    const gateway = await t.gateway(w);
    const keys = scaleKeys(w.bot.botId);
    const redis = t.client(w);
    const body = (text: string) => JSON.stringify({ clan_id: w.clanId, channel_id: w.general, mode: 2, is_public: true, content: { t: text } });
    const command = (key: string, rid: string, text: string) => ['key', key, 'from', 'probe', 'rid', rid, 'kind', 'op', 'name', 'channel_message_send', 'body', body(text)];
    await redis.multi().xadd(keys.commands, '*', ...command('huge', 'big', 'x'.repeat(5_000_000))).xadd(keys.commands, '*', ...command('small', 'small', 'behind the huge one')).exec();
    const results = await answersTo(redis, keys, 'probe', 2);
    expect(results.get('big')).toMatchObject({ ok: '0', body: { kind: 'validation', name: 'ValidationError' } });
    expect((results.get('big')!.body as { message: string }).message).toContain('larger than the gateway accepts');
    expect(results.get('small')).toMatchObject({ ok: '1' });
    expect(stored(w, 'behind the huge one')).toBe(1);
    // The socket was never dropped: one session, never resumed.
    expect(w.emu.wire.frames('resume')).toEqual([]);
    expect(w.emu.wire.frames('start')).toHaveLength(1);
    expect(gateway.stats().commands).toMatchObject({ executed: 1, failed: 1 });
  });

  it('an answer a worker cannot read fails its command with a ProtocolError at once, instead of leaving it waiting', async () => {
    const w = await t.world();
    // No gateway: the command waits in the stream, and the test answers it.
    const worker = await t.worker(w, 'worker-1', { commandTimeoutMs: 600_000 });
    const keys = scaleKeys(w.bot.botId);
    const redis = t.client(w);
    const pending = worker.createDMchannel(w.alice.id).catch((error: unknown) => error);
    let command: [string, string[]] | undefined;
    for (let tries = 0; !command && tries < 1_000; tries += 1) {
      [command] = await redis.xrange(keys.commands, '-', '+');
      if (!command) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const rid = command![1][command![1].indexOf('rid') + 1]!;
    await redis.xadd(keys.results('worker-1'), '*', 'rid', rid, 'ok', '0', 'body', 'null');
    const error = await pending;
    expect(error).toMatchObject({ kind: 'protocol', name: 'ProtocolError' });
    expect((error as Error).message).toContain('the gateway answered with an error that is not one');
    expect(worker.stats().commandsPending).toBe(0);
  });

  it('a worker refuses a command larger than the gateway accepts before writing it: a ValidationError, nothing in the commands stream', async () => {
    const w = await t.world();
    await t.gateway(w);
    const worker = await t.worker(w, 'worker-1');
    const keys = scaleKeys(w.bot.botId);
    const before = await t.client(w).xlen(keys.commands);
    const refused = await worker.sendToken({ receiver_id: w.alice.id, amount: 1, note: 'n'.repeat(5_000_000) }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ kind: 'validation', issues: [{ code: 'too_large' }] });
    expect((refused as Error).message).toContain('larger than the gateway accepts');
    expect(await t.client(w).xlen(keys.commands)).toBe(before);
  });
});
