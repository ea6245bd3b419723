import type { Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { serveBrowserChat } from '../../examples/browser-chat/serve.js';
import { until } from '../helpers/client.js';
import { launchChromium, pageProblems, runBrowserTests } from './chromium.js';

describe.skipIf(!runBrowserTests)('examples/browser-chat, in Chromium', () => {
  let emu: Emulator | undefined;
  let browser: Browser | undefined;

  afterEach(async () => {
    await browser?.close();
    await emu?.close();
    browser = undefined;
    emu = undefined;
  });

  it('logs in from the URL, shows what bob says, and sends a reply the emulator stores', async () => {
    emu = await startEmulator();
    const alice = emu.createUser({ username: 'alice' });
    const bob = emu.createUser({ username: 'bob' });
    const clan = emu.createClan({ name: 'Guild', ownerId: alice.id });
    emu.addClanMember(clan.id, bob.id);
    const channelId = clan.welcome_channel_id;
    const url = await serveBrowserChat(emu, alice, channelId);

    browser = await launchChromium();
    const page = await browser.newPage();
    const problems = pageProblems(page);
    await page.goto(url);
    await page.waitForSelector('body[data-status="ready"]');

    emu.as(bob.id).send(channelId, 'hello from bob');
    await page.locator('#messages li', { hasText: 'hello from bob' }).waitFor();

    await page.fill('#text', 'hi bob, from the browser');
    await page.press('#text', 'Enter');
    await until(() => emu!.messages(channelId).some((m) => m.sender_id === alice.id), 'alice\'s message in the emulator', 15_000);
    expect(emu.messages(channelId).find((m) => m.sender_id === alice.id)?.content.t).toBe('hi bob, from the browser');
    await page.locator('#messages li', { hasText: 'hi bob, from the browser' }).waitFor();

    expect(problems).toEqual([]);
  });

  it('asks for credentials when the URL has none', async () => {
    emu = await startEmulator();
    const alice = emu.createUser({ username: 'alice' });
    const clan = emu.createClan({ name: 'Guild', ownerId: alice.id });
    const url = new URL(await serveBrowserChat(emu, alice, clan.welcome_channel_id));
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(`${url.origin}${url.pathname}`);
    await page.fill('#credentials input[name="id"]', alice.id);
    await page.fill('#credentials input[name="token"]', alice.token);
    await page.fill('#credentials input[name="channel"]', clan.welcome_channel_id);
    await page.click('#credentials button');
    await page.waitForSelector('body[data-status="ready"]');
    expect(new URL(page.url()).searchParams.get('id')).toBe(alice.id);
  });
});
