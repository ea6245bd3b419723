import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../shared/until.js';
import { countdownBot } from './bot.js';

describe('examples/for-await', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  async function start() {
    world = await createTestWorld();
    const w = world;
    const client = await w.connect();
    const general = w.channels.general!.channel_id;
    const botTexts = () => w.emu.messages(general).filter((m) => m.sender_id === w.bot.id).map((m) => m.content.t ?? '');
    return { world: w, client, general, botTexts };
  }

  /** The loop passes the signal to client.iterate, which listens to it exactly while it is subscribed. */
  const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

  it('answers the first messages in order, even those that came while it was busy, then breaks and lets go', async () => {
    const { world, client, general, botTexts } = await start();
    const controller = new AbortController();
    const loop = countdownBot(client, { limit: 3, signal: controller.signal });
    await until(() => abortListeners(controller.signal) === 1, 'the loop to subscribe');
    // All five arrive while the loop is still answering the first: they wait, in order.
    for (const text of ['one', 'two', 'three', 'four', 'five']) world.as('alice').send(general, text);

    expect(await loop).toEqual(['one', 'two', 'three']);
    // Breaking out unsubscribed the stream behind the loop: it no longer listens to anything.
    expect(abortListeners(controller.signal)).toBe(0);
    expect(client.listenerCount()).toBe(0);
    expect(botTexts()).toEqual(['Got it (1/3), 2 to go.', 'Got it (2/3), 1 to go.', "Got it (3/3). That's all, bye!"]);
    // Nothing answers "four" or "five": this, sent now, is the bot's next message.
    await client.sendMessage(general, 'done');
    expect(botTexts().at(-1)).toBe('done');
    expect(botTexts()).toHaveLength(4);
    const replies = world.emu.messages(general).filter((m) => m.sender_id === world.bot.id && m.references.length > 0);
    const asked = world.emu.messages(general).filter((m) => m.sender_id !== world.bot.id);
    expect(replies.map((r) => r.references[0]?.message_ref_id)).toEqual(asked.slice(0, 3).map((m) => m.message_id));
  });

  it('ends early and cleanly when the signal is aborted (Ctrl+C in main.ts)', async () => {
    const { world, client, general, botTexts } = await start();
    const controller = new AbortController();
    const loop = countdownBot(client, { limit: 10, signal: controller.signal });
    await until(() => abortListeners(controller.signal) === 1, 'the loop to subscribe');
    world.as('bob').send(general, 'a');
    world.as('carol').send(general, 'b');
    await until(() => botTexts().length === 2, 'two answers');
    controller.abort();
    expect(await loop).toEqual(['a', 'b']);
    expect(abortListeners(controller.signal)).toBe(0);

    world.as('bob').send(general, 'anyone?');
    const seen: string[] = [];
    client.events$.subscribe((e) => seen.push(e.type));
    await until(() => seen.length > 0, 'the message to reach the client');
    await client.sendMessage(general, 'done');
    expect(botTexts()).toEqual(['Got it (1/10), 9 to go.', 'Got it (2/10), 8 to go.', 'done']);
  });

  it('ends when the client closes', async () => {
    const { world, client, general, botTexts } = await start();
    const loop = countdownBot(client, { limit: 10 });
    world.as('alice').send(general, 'hello');
    // Stored is not yet acknowledged: closing before the acknowledgement would fail the reply, and the loop with it.
    const settled = () => client.outbox.current.queued === 0 && client.outbox.current.inFlight === 0;
    await until(() => botTexts().length === 1 && settled(), 'the answer, acknowledged');
    client.closeSocket();
    expect(await loop).toEqual(['hello']);
  });

  it('does not start when the signal is already aborted', async () => {
    const { world, client, general } = await start();
    const controller = new AbortController();
    controller.abort();
    world.as('alice').send(general, 'too late');
    expect(await countdownBot(client, { limit: 3, signal: controller.signal })).toEqual([]);
    expect(abortListeners(controller.signal)).toBe(0);
  });
});
