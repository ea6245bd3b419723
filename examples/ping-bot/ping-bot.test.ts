import { afterEach, describe, expect, it } from 'vitest';
import { Events } from '../../src/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../shared/until.js';
import { pingBot } from './bot.js';

describe('examples/ping-bot', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  async function start() {
    world = await createTestWorld();
    const client = await world.connect();
    const stop = pingBot(client);
    const general = world.channels.general!.channel_id;
    const texts = () => world!.emu.messages(general).map((m) => `${m.username}: ${m.content.t ?? ''}`);
    return { world, client, stop, general, texts };
  }

  it('replies pong to *ping, referencing the message it answers', async () => {
    const { world, general, texts } = await start();
    const ping = world.as('alice').send(general, '*ping');
    await until(() => texts().length === 2, 'the reply');
    const [, pong] = world.emu.messages(general);
    expect(pong?.sender_id).toBe(world.bot.id);
    expect(pong?.content.t).toBe('pong');
    expect(pong?.references[0]?.message_ref_id).toBe(ping.message_id);
  });

  it('ignores other messages, edits and its own *ping', async () => {
    const { world, client, general, texts } = await start();
    world.as('bob').send(general, 'hello');
    const edited = world.as('bob').send(general, 'typo');
    world.as('bob').update(edited.message_id, '*ping'); // an edit into *ping is not a new *ping
    await client.sendMessage(general, '*ping'); // the bot's own
    // Messages are delivered in order, so once carol's ping is answered every earlier message was seen.
    world.as('carol').send(general, '*PING are you there?');
    await until(() => texts().at(-1) === 'clanbot: pong', 'the reply to carol');
    expect(texts()).toEqual(['bob: hello', 'bob: *ping', 'clanbot: *ping', 'carol: *PING are you there?', 'clanbot: pong']);
  });

  it('stops answering once stopped, and leaves no listener behind', async () => {
    const { world, client, stop, general, texts } = await start();
    expect(client.listenerCount(Events.ChannelMessage)).toBe(1);
    stop();
    expect(client.listenerCount()).toBe(0);
    const seen: string[] = [];
    client.stream(Events.ChannelMessage).subscribe((m) => seen.push(m.content.t ?? ''));
    world.as('alice').send(general, '*ping');
    world.as('alice').send(general, 'anyone?');
    await until(() => seen.length === 2, 'both messages to reach the client');
    // The outbox keeps order: a pong, had one been queued for the *ping, would be stored before this.
    await client.sendMessage(general, 'done');
    expect(texts()).toEqual(['alice: *ping', 'alice: anyone?', 'clanbot: done']);
  });
});
