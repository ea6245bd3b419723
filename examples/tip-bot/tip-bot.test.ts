import { afterEach, describe, expect, it } from 'vitest';
import { Events } from '../../src/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { until } from '../shared/until.js';
import { tipBot, type TipBotOptions } from './bot.js';

describe('examples/tip-bot', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  async function start(options: TipBotOptions = {}) {
    world = await createTestWorld();
    const w = world;
    const client = await w.connect();
    const general = w.channels.general!.channel_id;
    const stop = tipBot(client, { announceChannelId: general, ...options });
    const id = (username: string) => w.accounts[username]!.id;
    /** Sends a command as a user and resolves with the bot's answer to it. */
    const ask = async (user: string, text: string, mentions?: Array<{ user_id: string; s: number; e: number }>) => {
      const asked = w.as(user).send(general, text, mentions ? { mentions } : {});
      const answer = () => w.emu.messages(general).find((m) => m.references[0]?.message_ref_id === asked.message_id);
      await until(() => answer() !== undefined, `the answer to ${text}`);
      return answer()!.content.t ?? '';
    };
    return { world: w, client, general, stop, id, ask, balance: (username: string) => w.emu.balance(id(username)) };
  }

  it('tips a mentioned user from the bot wallet, exactly, and confirms', async () => {
    const { world, id, ask, balance } = await start();
    const text = '*tip @bob 1.5';
    const answer = await ask('alice', text, [{ user_id: id('bob'), s: 5, e: 9 }]);
    expect(answer).toMatch(/^💸 Sent 1\.5 tokens to @bob \(tx [0-9a-f]{10}…\)\.$/);
    expect(balance('clanbot')).toBe(998.5);
    expect(balance('bob')).toBe(51.5);
    const [tx] = world.emu.transactions().filter((t) => t.sender_id === world.bot.id);
    expect(tx).toMatchObject({ receiver_id: id('bob'), amount: '1500000', text_data: 'tip from alice' });
  });

  it('finds a recipient by username, even one the bot has never seen', async () => {
    const { ask, balance } = await start();
    expect(await ask('carol', '*tip bob 0.000001')).toMatch(/^💸 Sent 0\.000001 tokens to bob/);
    expect(balance('bob')).toBe(50.000001);
    expect(await ask('carol', '*tip @alice 2')).toMatch(/^💸 Sent 2 tokens to @alice/); // "@name" without a mention
    expect(balance('alice')).toBe(102);
  });

  it('refuses what it cannot or should not send, and sends nothing', async () => {
    const { ask, balance } = await start({ maxAmount: 10 });
    expect(await ask('alice', '*tip')).toMatch(/^Usage: \*tip @user 1\.5/);
    expect(await ask('alice', '*tip bob lots')).toMatch(/^Usage/);
    expect(await ask('alice', '*tip bob 0.0000001')).toMatch(/^Usage/); // 7 decimals
    expect(await ask('alice', '*tip bob 0')).toMatch(/^Usage/);
    expect(await ask('alice', '*tip bob 11')).toBe('The largest tip is 10 tokens.');
    expect(await ask('alice', '*tip nobody 1')).toBe("I can't find nobody in this clan.");
    expect(await ask('alice', '*tip alice 1')).toBe('Tips go to someone else.');
    expect(await ask('alice', '*tip clanbot 1')).toBe('Tips go to someone else.');
    expect([balance('clanbot'), balance('alice'), balance('bob')]).toEqual([1000, 100, 50]);
  });

  it('lets only allowed people hand out tips', async () => {
    const { ask, balance } = await start({ allowed: (m) => m.username === 'alice' });
    expect(await ask('bob', '*tip carol 1')).toBe('Sorry, you may not hand out tips.');
    expect(await ask('alice', '*tip carol 1')).toMatch(/^💸 Sent 1 tokens to carol/);
    expect(balance('carol')).toBe(1);
  });

  it('reports a transfer the token network refuses', async () => {
    const { ask, balance } = await start({ maxAmount: Number.POSITIVE_INFINITY });
    expect(await ask('alice', '*tip bob 5000')).toMatch(/^The tip did not go through: .*insufficient/i);
    expect(balance('clanbot')).toBe(1000);
  });

  it('thanks people for tips it receives, once each, and not for the tips it sends', async () => {
    const { world, client, general, id, ask } = await start();
    const received: string[] = [];
    client.stream(Events.TokenSend).subscribe((e) => received.push(`${e.sender_id ?? ''}→${e.receiver_id}`));
    await ask('alice', '*tip bob 1');
    world.as('alice').transfer(world.bot.id, 5, 'for the tips');
    world.as('bob').transfer(id('carol'), 1); // between users: not the bot's business
    world.as('carol').transfer(world.bot.id, 0.5);
    const fromBot = () => world.emu.messages(general).filter((m) => m.sender_id === world.bot.id).map((m) => m.content.t ?? '');
    await until(() => fromBot().length === 3, 'the thanks');
    expect(fromBot().slice(1)).toEqual(['🙏 Thank you alice for the 5 tokens ("for the tips")!', '🙏 Thank you carol for the 0.5 tokens!']);
    // The client saw the bot's own tip and both tips to it (a transfer between others is not sent to the bot).
    expect(received).toEqual([`${world.bot.id}→${id('bob')}`, `${id('alice')}→${world.bot.id}`, `${id('carol')}→${world.bot.id}`]);
  });

  it('stops: no listener is left, and nothing more is sent', async () => {
    const { world, client, general, stop } = await start();
    expect(client.listenerCount(Events.ChannelMessage)).toBe(1);
    expect(client.listenerCount(Events.TokenSend)).toBe(1);
    stop();
    expect(client.listenerCount()).toBe(0);
    world.as('alice').send(general, '*tip bob 1');
    world.as('alice').transfer(world.bot.id, 1);
    const seen: string[] = [];
    client.events$.subscribe((e) => seen.push(e.type));
    await until(() => seen.includes(Events.TokenSend), 'the transfer to reach the client');
    await client.sendMessage(general, 'done'); // sent after anything the bot would have sent
    expect(world.emu.messages(general).map((m) => m.content.t)).toEqual(['*tip bob 1', 'done']);
  });
});
