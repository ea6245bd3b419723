/**
 * The invariant checks of the reliability suite, on hand-made logs: each
 * one must pass a clean run and name each kind of violation, or a green
 * reliability run would prove nothing.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, ClosedError, type LifecycleEvent } from '../../src/index.js';
import type { StoredMessage, TransactionRecord } from '../../src/emulator/index.js';
import { checkActions, type WorldAfterRun } from './action-invariants.js';
import { ActionLedger, tagged, tagsOf } from './action-ledger.js';
import { checkCaches, type CachedChannels } from './cache-consistency.js';
import { checkDelivery, type ClientEntry, type EmittedEvent } from './event-delivery.js';

describe('checkDelivery', () => {
  let tick = 0;
  const emit = (sessionId: string, seq: number, text = `m${seq}`, at = ++tick): EmittedEvent => ({ tick: at, sessionId, seq, type: 'channel_message', payload: { t: text } });
  const got = (sessionId: string, seq: number, text = `m${seq}`): ClientEntry => ({ tick: ++tick, kind: 'event', sessionId, seq, type: 'channel_message', data: { t: text } });
  const life = (event: LifecycleEvent): ClientEntry => ({ tick: ++tick, kind: 'lifecycle', event });
  const ready = (sessionId: string) => life({ type: 'ready', sessionId, userId: 'bot' });
  const reconnected = (sessionId: string, resumed: boolean) => life({ type: 'reconnected', sessionId, resumed, replayed: 0, downtimeMs: 0 });
  const resync = () => life({ type: 'resync', reason: 'unknown_session' });

  it('passes every event delivered once, in order, across a resumed reconnect', () => {
    const client = [ready('S1')];
    const emitted = [emit('S1', 1), emit('S1', 2)];
    client.push(got('S1', 1), got('S1', 2), reconnected('S1', true));
    emitted.push(emit('S1', 3));
    client.push(got('S1', 3));
    expect(checkDelivery({ emitted, client, finalSessionId: 'S1' })).toEqual([]);
  });

  it('names a duplicate, a gap, a changed payload and a missing tail', () => {
    const emitted = [emit('S1', 1), emit('S1', 2), emit('S1', 3), emit('S1', 4), emit('S1', 5)];
    const client = [ready('S1'), got('S1', 1), got('S1', 1), got('S1', 3, 'other text')];
    const violations = checkDelivery({ emitted, client, finalSessionId: 'S1' });
    expect(violations).toEqual([
      expect.stringContaining('delivered seq 1 where seq 2 was due (a duplicate)'),
      expect.stringContaining('delivered seq 3 where seq 2 was due (1 event(s) skipped)'),
      expect.stringContaining('seq 3 was delivered as channel_message {"t":"other text"}'),
      expect.stringContaining('was pushed 5 events but 3 were delivered; missing: 4 channel_message, 5 channel_message'),
    ]);
  });

  it('allows what a lost session still held only when a resync followed the change of session', () => {
    const emitted = [emit('S1', 1), emit('S1', 2), emit('S2', 1)];
    const lost = [ready('S1'), got('S1', 1), reconnected('S2', false), got('S2', 1)];
    expect(checkDelivery({ emitted, client: lost, finalSessionId: 'S2' })).toEqual([expect.stringContaining('changed 1 time(s) after the first ready, but resync was emitted 0 time(s)')]);
    expect(checkDelivery({ emitted, client: [...lost, resync()], finalSessionId: 'S2' })).toEqual([]);
  });

  it('names an event delivered from two sessions, events out of emit order, and a session the client went back to', () => {
    const shared = ++tick;
    const emitted = [emit('S1', 1, 'same', shared), emit('S2', 1, 'same', shared), emit('S2', 2)];
    const client = [ready('S1'), got('S1', 1, 'same'), reconnected('S2', false), got('S2', 1, 'same'), got('S2', 2), resync()];
    expect(checkDelivery({ emitted, client, finalSessionId: 'S2' })).toEqual([expect.stringContaining('was already delivered from another session')]);

    const early = emit('S1', 1);
    const late = emit('S1', 2);
    const reordered = { ...late, sessionId: 'S1', seq: 1 };
    expect(checkDelivery({ emitted: [reordered, { ...early, seq: 2 }], client: [ready('S1'), got('S1', 1, 'm2'), got('S1', 2, 'm1')], finalSessionId: 'S1' })).toEqual([
      expect.stringContaining('after an event the emulator emitted later'),
    ]);

    const back = [ready('S1'), got('S1', 1), reconnected('S2', false), got('S2', 1), got('S1', 2), resync()];
    expect(checkDelivery({ emitted: [emit('S1', 1), emit('S2', 1), emit('S1', 2)], client: back, finalSessionId: 'S2' })).toContainEqual(expect.stringContaining('were delivered again after session'));
  });

  it('requires a resync after the events of a session the client never learnt of', () => {
    const emitted = [emit('S1', 1), emit('ghost', 1)];
    const client = [ready('S1'), got('S1', 1)];
    expect(checkDelivery({ emitted, client, finalSessionId: 'S1' })).toEqual([expect.stringContaining('never known to the client')]);
  });
});

describe('checkActions', () => {
  const message = (id: string, sender: string, text: string) => ({ message_id: id, channel_id: 'c', sender_id: sender, content: { t: text } }) as StoredMessage;
  const announced = (sender: string, text: string, code = 0) => ({ type: 'channel_message', payload: { sender_id: sender, code, content: { t: text } } });
  const tx = (note: string, sender: string, nonce: number, hash = `h-${note}`) => ({ tx_hash: hash, sender_id: sender, text_data: note, nonce }) as TransactionRecord;
  const world = (over: Partial<WorldAfterRun>): WorldAfterRun => ({ messages: [], emitted: [], transactions: [], nonces: new Map(), ...over });

  it('passes acknowledged actions applied once, and failed ones applied at most once', async () => {
    const ledger = new ActionLedger();
    await ledger.track('send', 's1', 'bot', async () => ({ message_id: 'm1' }));
    await ledger.track('send', 's2', 'bot', async () => Promise.reject(new ClosedError('send')));
    await ledger.track('update', 'u3', 'bot', async () => ({}));
    await ledger.track('react', 'r4', 'bot', async () => ({}));
    await ledger.track('transfer', 't5', 'bot', async () => ({ ok: true, tx_hash: 'h-t5', error: '' }));
    await ledger.track('transfer', 't6', 'bot', async () => ({ ok: false, tx_hash: '', error: 'the token network did not confirm the transfer: x (it may still have been applied; …)' }));
    const violations = checkActions(
      ledger,
      world({
        messages: [message('m1', 'bot', `pick {s1} | yes by alice {u3}`)],
        emitted: [announced('bot', tagged('pick', 's1')), announced('bot', 'pick {s1} | yes by alice {u3}', 1), { type: 'message_reaction_event', payload: { sender_id: 'bot', emoji_id: 'r4', action: false } }],
        transactions: [tx('t5', 'bot', 1), tx('t6', 'bot', 2)],
        nonces: new Map([['bot', 2]]),
      }),
    );
    expect(violations).toEqual([]);
  });

  it('names a send stored twice or not at all, an untyped failure, a refused transfer that landed, and a nonce gap', async () => {
    const ledger = new ActionLedger();
    await ledger.track('send', 's1', 'bot', async () => ({ message_id: 'm1' }));
    await ledger.track('send', 's2', 'bot', async () => ({ message_id: 'm9' }));
    await ledger.track('send', 's3', 'bot', async () => Promise.reject(new Error('boom')));
    await ledger.track('transfer', 't4', 'bot', async () => ({ ok: false, tx_hash: '', error: 'insufficient balance' }));
    await ledger.track('transfer', 't5', 'bot', async () => Promise.reject(new ApiError({ status: 0, code: 'timeout', message: 'x', route: 'r' })));
    const violations = checkActions(
      ledger,
      world({
        messages: [message('m1', 'bot', tagged('a', 's1')), message('m2', 'bot', tagged('a', 's1')), message('m3', 'bot', tagged('stray', 's99'))],
        transactions: [tx('t4', 'bot', 1), tx('t5', 'bot', 3)],
        nonces: new Map([['bot', 3]]),
      }),
    );
    expect(violations).toEqual([
      expect.stringContaining('send s1 by bot (acknowledged): stored 2 times'),
      expect.stringContaining('send s1 by bot (acknowledged): announced 0 times'),
      expect.stringContaining('send s2 by bot (acknowledged): stored 0 times'),
      expect.stringContaining('send s2 by bot (acknowledged): announced 0 times'),
      expect.stringContaining('send s3 by bot: failed with an untyped error (Error: boom)'),
      expect.stringContaining('transfer t4 by bot: resolved ok:false ("insufficient balance") but landed'),
      expect.stringContaining('transfer t5 by bot: sendToken rejected'),
      expect.stringContaining('stored: 1 message(s) tagged s99 that no action sent'),
      expect.stringContaining('nonces of bot: [1, 3], expected 1…3 once each'),
    ]);
  });

  it('reads tags from text: the send first, an edit last', () => {
    expect(tagsOf('pick one {s12} | yes by u1 {u40}')).toEqual(['s12', 'u40']);
    expect(tagsOf('no tag here')).toEqual([]);
  });
});

describe('checkCaches', () => {
  const stored = (ids: string[], texts: Record<string, string> = {}) => ids.map((id) => ({ message_id: id, content: { t: texts[id] ?? id } }) as StoredMessage);
  const client = (window: Array<{ message_id: string; content: { t?: string } }> | undefined): CachedChannels => ({
    channels: { get: () => (window === undefined ? undefined : { name: 'general', messages: { map: (fn) => window.map(fn) } }) },
  });

  it('passes a window that is the newest stored messages, however short', () => {
    expect(checkCaches(client([]), [{ channelId: 'c', stored: stored(['a', 'b']) }], 200)).toEqual([]);
    expect(checkCaches(client(stored(['b', 'c'])), [{ channelId: 'c', stored: stored(['a', 'b', 'c']) }], 200)).toEqual([]);
  });

  it('names a hole, a window that stops early, stale text, and an uncached channel', () => {
    const truth = [{ channelId: 'c', stored: stored(['a', 'b', 'c']) }];
    expect(checkCaches(client(stored(['a', 'c'])), truth, 200)).toEqual([expect.stringContaining('is not the newest 2 of its 3 stored messages; missing 1: b; extra 1: a')]);
    expect(checkCaches(client(stored(['a', 'b'])), truth, 200)).toEqual([expect.stringContaining('missing 1: c')]);
    expect(checkCaches(client(stored(['b', 'c'], { c: 'old' })), truth, 200)).toEqual([expect.stringContaining('reads "old"; stored "c"')]);
    expect(checkCaches(client(undefined), truth, 200)).toEqual([expect.stringContaining('is not cached')]);
  });
});
