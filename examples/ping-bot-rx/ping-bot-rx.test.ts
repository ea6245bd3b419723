import { TestScheduler } from 'rxjs/testing';
import type { Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { TypeMessage, type BotSurface } from '../../src/index.js';
import { createMarbleClient, createTestWorld, messageEvent, type TestWorld } from '../../src/testing/index.js';
import { until } from '../shared/until.js';
import { pingBot } from './bot.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('examples/ping-bot-rx in virtual time (marble client)', () => {
  it('answers *ping, whatever the case, and nothing else', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const events$ = hot('-a-b-c-d', { a: messageEvent('*ping'), b: messageEvent('ping'), c: messageEvent('*PING now'), d: messageEvent('*pingpong') });
      const client = createMarbleClient({ events$ });
      pingBot(client).subscribe();
      expectObservable(client.texts$).toBe('-r---r', { r: 'pong' });
    });
  });

  it('ignores its own messages, edits and deletions', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const events$ = hot('-a-b-c-d', {
        a: messageEvent('*ping', { sender_id: 'bot' }),
        b: messageEvent('*ping', { code: TypeMessage.ChatUpdate }),
        c: messageEvent('*ping', { code: TypeMessage.ChatRemove }),
        d: messageEvent('*ping'),
      });
      const client = createMarbleClient({ clientId: 'bot', events$ });
      pingBot(client).subscribe();
      expectObservable(client.texts$).toBe('-------r', { r: 'pong' });
    });
  });

  it('replies to the message, in its channel', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const client = createMarbleClient({ events$: hot('--a', { a: messageEvent('*ping', { message_id: 'p1', channel_id: 'c7' }) }) });
      pingBot(client).subscribe();
      expectObservable(client.actions$).toBe('--r', { r: { type: 'reply', channel_id: 'c7', reply_to: 'p1', content: { t: 'pong' }, options: {} } });
    });
  });

  it('keeps going after a reply fails, and reports the failure', async () => {
    const errors: unknown[] = [];
    const sent: string[] = [];
    scheduler().run(({ hot, expectObservable }) => {
      const client = createMarbleClient({ events$: hot('-a-b', { a: messageEvent('*ping'), b: messageEvent('*ping') }) });
      let calls = 0;
      // The same client, except that its first reply is refused (as a server might refuse one).
      const flaky: BotSurface = { ...client, replyTo: (...args) => (++calls === 1 ? Promise.reject(new Error('refused')) : client.replyTo(...args)) };
      pingBot(flaky, { onError: (error) => errors.push(error) }).subscribe((reply) => sent.push(reply.message_id));
      expectObservable(client.texts$).toBe('---r', { r: 'pong' });
    });
    // Promises settle outside virtual time: let them.
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toEqual([new Error('refused')]);
    expect(sent).toEqual(['m1']);
  });

  it('stops when unsubscribed', () => {
    scheduler().run(({ hot, expectObservable, cold }) => {
      const client = createMarbleClient({ events$: hot('-a---b', { a: messageEvent('*ping'), b: messageEvent('*ping') }) });
      let bot: Subscription | undefined;
      cold('s--u').subscribe((step) => (step === 's' ? (bot = pingBot(client).subscribe()) : bot?.unsubscribe()));
      expectObservable(client.texts$).toBe('-r', { r: 'pong' });
    });
  });
});

describe('examples/ping-bot-rx against the emulator', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('replies pong in the channel, referencing the *ping', async () => {
    world = await createTestWorld();
    const client = await world.connect();
    const replies: string[] = [];
    const bot = pingBot(client).subscribe((sent) => replies.push(sent.message_id));
    const general = world.channels.general!.channel_id;
    const texts = () => world!.emu.messages(general).map((m) => `${m.username}: ${m.content.t ?? ''}`);

    const first = world.as('alice').send(general, '*ping');
    world.as('bob').send(general, 'ping without the prefix');
    await until(() => replies.length === 1, 'the reply to alice');
    await client.sendMessage(general, '*ping'); // its own: ignored
    world.as('carol').send(general, '*ping');
    await until(() => replies.length === 2, 'two replies');

    expect(texts()).toEqual(['alice: *ping', 'bob: ping without the prefix', 'clanbot: pong', 'clanbot: *ping', 'carol: *ping', 'clanbot: pong']);
    const stored = world.emu.messages(general);
    expect(stored[2]?.references[0]?.message_ref_id).toBe(first.message_id);
    expect(replies).toEqual([stored[2]?.message_id, stored[5]?.message_id]);
    bot.unsubscribe();
  });
});
