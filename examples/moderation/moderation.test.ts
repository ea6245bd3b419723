import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestWorld, DEFAULT_WORLD, type TestWorld } from '../../src/testing/index.js';
import { until } from '../shared/until.js';
import { moderationBot, overLimit, type ModerationAction, type ModerationOptions } from './bot.js';
import { MODERATED_WORLD } from './world.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
/** A message from `sender` (in channel c1 unless told), for the marble diagrams. */
const msg = (sender: string, text: string, channel = 'c1') => ({ sender_id: sender, channel_id: channel, text });

describe('examples/moderation: the overLimit operator, in virtual time', () => {
  // Each offence is shown as "text!" when it is the one that gets a warning, "text" otherwise.
  const label = map(({ message, warn }: { message: { text: string }; warn: boolean }) => `${message.text}${warn ? '!' : ''}`);

  it('lets maxMessages through per window and flags the rest, warning once', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const source = hot('-abcde', { a: msg('bob', '1'), b: msg('bob', '2'), c: msg('bob', '3'), d: msg('bob', '4'), e: msg('bob', '5') });
      expectObservable(source.pipe(overLimit({ maxMessages: 2, windowMs: 10 }), label)).toBe('---cde', { c: '3!', d: '4', e: '5' });
    });
  });

  it('counts each user, in each channel, separately', () => {
    scheduler().run(({ hot, expectObservable }) => {
      const source = hot('-abcdef', { a: msg('bob', 'b1'), b: msg('amy', 'a1'), c: msg('bob', 'b2'), d: msg('bob', 'b3', 'c2'), e: msg('amy', 'a2'), f: msg('bob', 'b4') });
      expectObservable(source.pipe(overLimit({ maxMessages: 1, windowMs: 10 }), label)).toBe('---c-ef', { c: 'b2!', e: 'a2!', f: 'b4' });
    });
  });

  it('starts counting again in the next window, with a new warning', () => {
    scheduler().run(({ hot, expectObservable }) => {
      // Windows of 10 start with bob's first message at 1: [1, 11), [11, 21).
      const source = hot('-ab 9ms c-d', { a: msg('bob', '1'), b: msg('bob', '2'), c: msg('bob', '3'), d: msg('bob', '4') });
      expectObservable(source.pipe(overLimit({ maxMessages: 1, windowMs: 10 }), label)).toBe('--b 11ms d', { b: '2!', d: '4!' });
    });
  });

  it('warns at most once per windowMs, even across a window boundary (throttleTime)', () => {
    scheduler().run(({ hot, expectObservable }) => {
      // Windows [0,10), [10,20). Warned at 5; the offence at 12 is the first of its window but within
      // 10 ms of that warning, so it gets none; the one at 16 is past it.
      const source = hot('a 4ms b 5ms cd 3ms e', { a: msg('bob', '1'), b: msg('bob', '2'), c: msg('bob', '3'), d: msg('bob', '4'), e: msg('bob', '5') });
      expectObservable(source.pipe(overLimit({ maxMessages: 1, windowMs: 10 }), label)).toBe('5ms b 6ms d 3ms e', { b: '2!', d: '4', e: '5!' });
    });
  });

  it('lets go of a user quiet for a whole window: their next message starts a fresh window', () => {
    scheduler().run(({ hot, expectObservable }) => {
      // Had bob's group been kept, windows would be [0,10) … [30,40), [40,50): 35 and 41 both first in theirs.
      // It was freed at 10 (quiet since 0), so a new window starts at 35: 41 is the second message in it.
      const source = hot('a 34ms b 5ms c', { a: msg('bob', '1'), b: msg('bob', '2'), c: msg('bob', '3') });
      expectObservable(source.pipe(overLimit({ maxMessages: 1, windowMs: 10 }), label)).toBe('41ms c', { c: '3!' });
    });
  });

  it('completes with its source, leaving no timer running', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold('ab|', { a: msg('bob', '1'), b: msg('amy', '1') });
      expectObservable(source.pipe(overLimit({ maxMessages: 1, windowMs: 1000 }), label)).toBe('--|');
    });
  });
});

describe('examples/moderation against the emulator', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  async function start(options: Partial<ModerationOptions> = {}, seed = MODERATED_WORLD) {
    world = await createTestWorld({ seed });
    const w = world;
    const client = await w.connect();
    const general = w.channels.general!.channel_id;
    const actions: ModerationAction[] = [];
    const errors: unknown[] = [];
    const bot = moderationBot(client, { maxMessages: 3, windowMs: 60_000, onError: (e) => errors.push(e), ...options }).subscribe((a) => actions.push(a));
    const stored = () => w.emu.messages(general).map((m) => `${m.username}: ${m.content.t ?? ''}`);
    const count = (type: ModerationAction['type']) => actions.filter((a) => a.type === type).length;
    return { world: w, client, general, actions, errors, bot, stored, count };
  }

  it("deletes a flooder's extra messages and warns them once, leaving everyone else alone", async () => {
    const { world, general, stored, count } = await start();
    world.as('alice').send(general, 'hi all');
    const spam = [1, 2, 3, 4, 5, 6].map((i) => world.as('bob').send(general, `spam ${i}`));
    world.as('carol').send(general, 'carol is fine');
    await until(() => count('deleted') === 3 && count('warned') === 1, 'three deletions and a warning');

    expect(stored()).toEqual([
      'alice: hi all',
      'bob: spam 1',
      'bob: spam 2',
      'bob: spam 3',
      'carol: carol is fine',
      'clanbot: @bob, slow down: at most 3 messages per 60 s here. Extra messages are removed.',
    ]);
    const warning = world.emu.messages(general).at(-1)!;
    expect(warning.references[0]?.message_ref_id).toBe(spam[3]!.message_id); // a reply to the first extra message
    expect(warning.mentions).toEqual([{ user_id: world.accounts.bob!.id, s: 0, e: 4 }]);
  });

  it('does not apply to exempt users', async () => {
    const { world, general, stored, count } = await start({ maxMessages: 1, exempt: (m) => m.username === 'alice' });
    for (let i = 1; i <= 5; i += 1) world.as('alice').send(general, `announcement ${i}`);
    world.as('bob').send(general, 'bob 1');
    world.as('bob').send(general, 'bob 2');
    // Messages are judged in order: once bob's extra one is gone, alice's five were judged too.
    await until(() => count('deleted') === 1, "bob's extra message to go");
    expect(stored().filter((line) => !line.startsWith('clanbot'))).toEqual(['alice: announcement 1', 'alice: announcement 2', 'alice: announcement 3', 'alice: announcement 4', 'alice: announcement 5', 'bob: bob 1']);
  });

  it('reports what it may not do and keeps going (a bot that does not own the clan cannot delete)', async () => {
    const { world, general, errors, count, stored } = await start({ maxMessages: 1 }, DEFAULT_WORLD);
    world.as('bob').send(general, 'one');
    world.as('bob').send(general, 'two');
    world.as('carol').send(general, 'three');
    world.as('carol').send(general, 'four');
    await until(() => errors.length === 2, 'both deletions to fail');
    expect(count('warned')).toBe(2);
    expect(count('deleted')).toBe(0);
    expect(String(errors[0])).toMatch(/only the sender/);
    expect(stored().filter((line) => !line.startsWith('clanbot'))).toEqual(['bob: one', 'bob: two', 'carol: three', 'carol: four']);
  });

  it('stops when unsubscribed', async () => {
    const { world, client, general, bot, stored } = await start({ maxMessages: 1 });
    bot.unsubscribe();
    world.as('bob').send(general, 'one');
    world.as('bob').send(general, 'two');
    const seen: string[] = [];
    client.events$.subscribe((e) => seen.push(e.type));
    await until(() => seen.length === 2, 'both messages to reach the client');
    await client.sendMessage(general, 'done');
    expect(stored()).toEqual(['bob: one', 'bob: two', 'clanbot: done']);
  });
});
