/**
 * What public bots written for the official SDK 2.8.33 need of the era-A
 * front end, each shown by an unchanged SDK bot: a notification with the
 * emulator's default content must not crash it (the SDK parses notification
 * content as JSON), content up to SDK 2.8.33's 8,000 characters is taken,
 * hashtags in its spelling (`hg[].channelid`) are taken and stored
 * normalised, and a bot that names its own host reaches the emulator through
 * the preload's CLANSTREAM_REDIRECT_ORIGINS.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { describeWithSdk, SdkBot } from './support/sdk-bot.js';

type Ack = { message_id: string; channel_id: string };

describeWithSdk('public SDK 2.8.33 bots against the era-A front end', () => {
  let world: TestWorld;
  let bot: SdkBot;
  let general: string;

  beforeAll(async () => {
    world = await createTestWorld({ compat: true });
    general = world.channels.general!.channel_id;
    bot = await SdkBot.start('command-bot.mjs', { url: world.emu.url, account: { id: world.bot.id, token: world.bot.token } });
  });
  afterAll(async () => {
    await bot?.stop();
    await world?.close();
  });

  const stored = (id: string) => world.emu.messages(general).find((m) => m.message_id === id);

  it('survives a notification with the default (empty) content: it is sent as JSON, and the bot keeps answering', async () => {
    world.emu.notify(world.bot.id, { subject: 'hello' });
    world.emu.notify(world.bot.id, { subject: 'plain', content: 'not JSON' });
    world.as('alice').send(general, '*react');
    await bot.report('reacted');
    expect(bot.running).toBe(true);
    expect(bot.log).not.toContain('SyntaxError');
  });

  it('sends content up to 8,000 JSON characters, as SDK 2.8.33 allows, and is refused past it', async () => {
    world.as('alice').send(general, '*long 6000');
    const ack = await bot.report<Ack>('sent');
    expect((stored(ack.message_id)?.content.t as string).length).toBe(6000);
    world.as('alice').send(general, '*long 8000');
    const refused = await bot.report<{ command: string; message: string }>('error', (e) => e.command === 'long');
    expect(refused.message).toContain('8000');
  });

  it('sends a hashtag spelled hg[].channelid, stored as hg[].channelId', async () => {
    world.as('alice').send(general, '*tag');
    const ack = await bot.report<Ack>('sent', (a) => stored(a.message_id)?.content.t === 'see #general');
    expect(stored(ack.message_id)?.content).toEqual({ t: 'see #general', hg: [{ channelId: general, s: 4, e: 12 }] });
  });
});

describeWithSdk('a public SDK 2.8.33 bot that names its own host', () => {
  let world: TestWorld;
  const bots: SdkBot[] = [];

  beforeAll(async () => {
    world = await createTestWorld({ compat: true });
  });
  afterAll(async () => {
    await Promise.all(bots.map((b) => b.stop()));
    await world?.close();
  });

  const account = () => ({ id: world.bot.id, token: world.bot.token });
  // Without the variable its requests go to its own host, which the preload leaves alone (test/compat-preload/redirect.test.ts).

  it('reaches the emulator when its origin is named in CLANSTREAM_REDIRECT_ORIGINS, and hears the clan', async () => {
    const bot = SdkBot.spawn('hosted-bot.mjs', { url: world.emu.url, account: account(), env: { CLANSTREAM_REDIRECT_ORIGINS: 'https://bots.example.test' } });
    bots.push(bot);
    expect((await bot.next((r) => r.kind === 'ready' || r.kind === 'login_failed')).kind).toBe('ready');
    const said = world.as('alice').send(world.channels.general!.channel_id, 'hi there');
    await bot.report('channel_message', (m: { message_id: string }) => m.message_id === said.message_id);
  });
});
