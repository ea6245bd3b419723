/**
 * The store's emit-after-apply order (SPEC §6 rule 2: events are processed
 * and cached before listeners are called), in virtual time. A hot stream of
 * gateway events goes through an InboundPipeline wired as the client wires
 * it — the store step first, then publish — and at each emission the
 * subscriber records what store.state holds for that event. The recorded
 * values must already include the event. One TestScheduler per test; one
 * character is one frame.
 */
import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { Events, ServiceClient, TypeMessage, type ClanstreamError, type ClanstreamEvent, type ClientState } from '../src/index.js';
import { EventRouter } from '../src/events/router.js';
import { InboundPipeline } from '../src/client/inbound-pipeline.js';
import type { Store } from '../src/state/store.js';
import { channelCreated, channelDeleted, CHANNEL, ev, messageEvent, newStore, reactionEvent } from '../test/state/fixtures.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** What the state holds for the subject of an event: a message's text and reactions, a channel's label. */
function seen(state: ClientState, event: ClanstreamEvent): string {
  switch (event.type) {
    case Events.ChannelMessage: {
      const record = state.messages.get(event.data.channel_id)?.get(event.data.message_id);
      return record ? `${record.content.t ?? ''}` : 'absent';
    }
    case Events.MessageReaction: {
      const record = state.messages.get(event.data.channel_id)?.get(event.data.message_id);
      const reaction = record?.reactions.find((r) => r.emoji_id === event.data.emoji_id);
      return reaction ? `${reaction.emoji_id}×${reaction.count}` : 'no reaction';
    }
    case Events.ChannelCreated:
    case Events.ChannelUpdated:
    case Events.ChannelDeleted: {
      const channel = state.channels.get(event.data.channel_id);
      return channel ? `#${channel.channel_label ?? ''}` : 'no channel';
    }
    default:
      return event.type;
  }
}

/** A pipeline wired like ServiceClient's: duplicates dropped first, then the store applies, then publish. */
function wired(store: Store, errors: ClanstreamError[], order: 'store-then-publish' | 'publish-then-store' = 'store-then-publish') {
  const router = new EventRouter();
  const pipeline = new InboundPipeline(
    (event) => {
      router.publish(event);
      if (order === 'publish-then-store') store.dispatch(event);
    },
    (error) => errors.push(error),
  );
  const delivered = new Set<string>();
  pipeline.use((event) => {
    if (event.type !== Events.MessageReaction) return true;
    const key = event.data.id;
    if (delivered.has(key)) return false;
    delivered.add(key);
    return true;
  });
  if (order === 'store-then-publish') pipeline.use((event) => store.dispatch(event));
  return { router, pipeline };
}

const EVENTS = {
  c: channelCreated('c2', { channel_label: 'news' }),
  n: messageEvent({ message_id: 'm1', channel_id: 'c2', content: { t: 'hello' } }),
  e: messageEvent({ message_id: 'm1', channel_id: 'c2', code: TypeMessage.ChatUpdate, content: { t: 'hello, edited' } }),
  r: reactionEvent({ id: 'r1', message_id: 'm1', channel_id: 'c2', count: 1 }),
  s: reactionEvent({ id: 'r2', message_id: 'm1', channel_id: 'c2', sender_id: 'carol', count: 2 }),
  d: messageEvent({ message_id: 'm1', channel_id: 'c2', code: TypeMessage.ChatRemove }),
  x: channelDeleted('c2'),
};

describe('store: emit after apply', () => {
  it('each published event is already in store.state when the subscriber sees it', () => {
    const { store, errors } = newStore();
    newScheduler().run(({ hot, expectObservable }) => {
      const { router, pipeline } = wired(store, errors);
      const source = hot('  -c-n--e-r-s--d-x-|', EVENTS);
      const expected = '    -C-N--E-R-S--D-X-|';
      source.subscribe({ next: (event) => pipeline.push(event), complete: () => router.complete() });
      expectObservable(router.events$.pipe(map((event) => seen(store.state, event)))).toBe(expected, {
        C: '#news',
        N: 'hello',
        E: 'hello, edited',
        R: 'tada×1',
        S: 'tada×2',
        D: 'absent',
        X: 'no channel',
      });
    });
    expect(errors).toEqual([]);
  });

  it('typed streams (router.stream) see the same: a listener of one event type reads its event from the state', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const { store, errors } = newStore();
      const { router, pipeline } = wired(store, errors);
      const source = hot('  --n-e-r-d|', EVENTS);
      const messages = '    --N-E---D';
      const reactions = '   ------R--';
      source.subscribe((event) => pipeline.push(event));
      expectObservable(
        router.stream(Events.ChannelMessage).pipe(map((m) => store.state.messages.get(m.channel_id)?.get(m.message_id)?.content.t ?? 'absent')),
      ).toBe(messages, { N: 'hello', E: 'hello, edited', D: 'absent' });
      expectObservable(
        router.stream(Events.MessageReaction).pipe(map((r) => store.state.messages.get(r.channel_id)?.get(r.message_id)?.reactions[0]?.count ?? 0)),
      ).toBe(reactions, { R: 1 });
    });
  });

  it('a dropped duplicate is neither applied nor published; the next event goes through', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const { store, errors } = newStore();
      const { router, pipeline } = wired(store, errors);
      // r arrives twice (a replay): the second is dropped before the store sees it.
      const source = hot('  -n-r-r-s|', EVENTS);
      const expected = '    -N-R---S';
      source.subscribe((event) => pipeline.push(event));
      expectObservable(router.events$.pipe(map((event) => seen(store.state, event)))).toBe(expected, { N: 'hello', R: 'tada×1', S: 'tada×2' });
    });
  });

  it('a step that throws is reported, the event is still published, and later events apply', () => {
    const { store, errors } = newStore();
    newScheduler().run(({ hot, expectObservable }) => {
      const { router, pipeline } = wired(store, errors);
      pipeline.use((event) => {
        if (event.type === Events.ChannelMessage && event.data.code === TypeMessage.ChatUpdate) throw new Error('a broken step');
      });
      const source = hot('  -n-e-d|', EVENTS);
      const expected = '    -N-E-D';
      source.subscribe((event) => pipeline.push(event));
      expectObservable(router.events$.pipe(map((event) => seen(store.state, event)))).toBe(expected, { N: 'hello', E: 'hello, edited', D: 'absent' });
    });
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/processing channel_message #\d+ failed: a broken step/)]);
  });

  it('control: wired the other way round (publish, then store), a subscriber sees the state before its event', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const { store, errors } = newStore();
      const { router, pipeline } = wired(store, errors, 'publish-then-store');
      const source = hot('  -c-n-e|', EVENTS);
      const expected = '    -C-N-E';
      source.subscribe((event) => pipeline.push(event));
      expectObservable(router.events$.pipe(map((event) => seen(store.state, event)))).toBe(expected, { C: 'no channel', N: 'absent', E: 'hello' });
    });
  });
});

describe('ServiceClient: its own pipeline', () => {
  it('client.stream(...) subscribers read client.state and client.channels with the event applied', () => {
    const scheduler = newScheduler();
    const client = new ServiceClient({ botId: 'bot', token: 'not-used', host: '127.0.0.1', port: '9', useSSL: false, scheduler });
    try {
      scheduler.run(({ hot, expectObservable }) => {
        const events = {
          c: channelCreated(CHANNEL, { channel_label: 'general' }),
          n: messageEvent({ message_id: 'm1', content: { t: 'hi' } }),
          e: messageEvent({ message_id: 'm1', code: TypeMessage.ChatUpdate, content: { t: 'hi, edited' } }),
          r: reactionEvent({ message_id: 'm1', count: 1 }),
          u: ev(Events.ChannelUpdated, { ...channelCreated(CHANNEL).data, channel_label: 'lobby', meeting_code: '', topic: '', active: 1 }),
        };
        const source = hot('  -c-n-e-r-u|', events);
        const channels = '    -C-------U';
        const messages = '    ---N-E----';
        const reactions = '   -------R--';
        source.subscribe((event) => client.pipeline.push(event));
        expectObservable(client.stream(Events.ChannelCreated).pipe(map((e) => client.channels.get(e.channel_id)?.name ?? 'missing'))).toBe(channels.replace('U', '-'), { C: 'general' });
        expectObservable(client.stream(Events.ChannelUpdated).pipe(map((e) => client.channels.get(e.channel_id)?.name ?? 'missing'))).toBe(channels.replace('C', '-'), { U: 'lobby' });
        expectObservable(client.stream(Events.ChannelMessage).pipe(map((m) => client.channels.get(m.channel_id)?.messages.get(m.message_id)?.content.t ?? 'missing'))).toBe(messages, {
          N: 'hi',
          E: 'hi, edited',
        });
        expectObservable(
          client.stream(Events.MessageReaction).pipe(map((r) => client.channels.get(r.channel_id)?.messages.get(r.message_id)?.reactions.find((x) => x.emoji_id === r.emoji_id)?.count ?? 0)),
        ).toBe(reactions, { R: 1 });
      });
    } finally {
      client.destroy();
    }
  });
});
