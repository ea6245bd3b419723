/**
 * `resumeFrom` (client config) / `resumeFrom` (gateway connection): a client
 * that logs in resumes a session another process held, from the last event
 * that process handled, instead of starting a new session. The server replays
 * exactly the events after that point; a session that cannot be resumed
 * starts fresh and says so with `resync`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceClient, ValidationError, type LifecycleEvent, type ResumePoint } from '../../src/index.js';
import { NO_RESUME_REASON } from '../../src/gateway/connection.js';
import { until } from '../helpers/client.js';
import { Tracker } from './support.js';
import { clanJoinBodies, inProduction } from '../support/protocol-under-test.js';

const t = new Tracker();
afterEach(() => t.cleanup());

function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

const ofType = <T extends LifecycleEvent['type']>(events: LifecycleEvent[], type: T) => events.filter((e) => e.type === type);

describe('resumeFrom', () => {
  it('resumes the session of another client from its last handled seq: the events after it arrive once, none before', async () => {
    const w = await t.world();
    const first = await t.connected(w);
    const alice = w.emu.as(w.alice.id);
    alice.send(w.general, 'one');
    alice.send(w.general, 'two');
    await until(() => first.received.length === 2, 'two messages at the first client');
    const sessionId = first.client.gateway.currentSessionId!;
    // The first client handled "one" only, then stopped (its socket goes; the server keeps the session).
    const handledSeq = first.client.gateway.lastSequence - 1;
    first.client.closeSocket();
    alice.send(w.general, 'three');

    const second = await t.connected(w, { resumeFrom: { sessionId, seq: handledSeq } });
    if (inProduction) {
      // Production cannot resume: the second client starts a fresh session, joins the clan and "0", and resyncs; nothing
      // from before its login is replayed, and what comes after arrives once.
      await until(() => ofType(second.lifecycle, 'resync').length === 1, 'the resync event');
      expect(ofType(second.lifecycle, 'resync')).toEqual([{ type: 'resync', reason: NO_RESUME_REASON }]);
      expect(w.emu.wire.frames('resume')).toEqual([]);
      expect(second.client.gateway.currentSessionId).not.toBe(sessionId);
      alice.send(w.general, 'four');
      await until(() => second.received.length === 1, 'a live message on the fresh session');
      expect(second.received.map((m) => m.content.t)).toEqual(['four']);
      return;
    }
    await until(() => second.received.length === 2, 'the replayed messages');
    expect(second.received.map((m) => m.content.t)).toEqual(['two', 'three']);
    expect(w.emu.wire.frames('resume').map((f) => f.body)).toEqual([{ session_id: sessionId, seq: handledSeq }]);
    expect(w.emu.wire.frames('start')).toHaveLength(1);
    expect(second.client.gateway.currentSessionId).toBe(sessionId);
    expect(ofType(second.lifecycle, 'ready')).toEqual([{ type: 'ready', sessionId, userId: w.bot.botId }]);
    expect(ofType(second.lifecycle, 'resync')).toEqual([]);

    alice.send(w.general, 'four');
    await until(() => second.received.length === 3, 'a live message after the resume');
    expect(second.received.map((m) => m.content.t)).toEqual(['two', 'three', 'four']);
  });

  it('a session the server no longer knows starts fresh, joins the clans and says resync with the reason', async () => {
    const w = await t.world();
    const { client, received, lifecycle } = await t.connected(w, { resumeFrom: { sessionId: 'gone', seq: 7 } });
    await until(() => ofType(lifecycle, 'resync').length === 1, 'the resync event');
    expect(ofType(lifecycle, 'resync')).toEqual([{ type: 'resync', reason: inProduction ? NO_RESUME_REASON : 'unknown_session' }]);
    expect(client.gateway.currentSessionId).not.toBe('gone');
    expect(w.emu.wire.frames('clan_join').map((f) => f.body)).toEqual(clanJoinBodies([w.clanId]));
    const live = w.emu.as(w.alice.id).send(w.general, 'live');
    await until(() => received.some((m) => m.message_id === live.message_id), 'a message on the fresh session');
  });

  it('rejects a malformed resume point with a ValidationError naming the fields', () => {
    const make = (resumeFrom: ResumePoint) => () => new ServiceClient({ botId: 'b', token: 't', resumeFrom });
    expect(make({ sessionId: '', seq: -1 })).toThrow(ValidationError);
    const error = thrownBy(make({ sessionId: '', seq: 1.5 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['resumeFrom.sessionId', 'resumeFrom.seq']);
  });
});
