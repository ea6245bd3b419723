/**
 * A person plays with the demo bot from the web console, in Chromium:
 * every click goes through the page, and the tests check both what the page
 * shows and what the emulator stored.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelType, Events, formNumber, formString, TypeMessage, type ButtonClick, type DropdownSelection, type MessageTypingEvent } from '../../../src/index.js';
import { startDemo, type Demo } from '../../../examples/demo/script.js';
import { until } from '../../helpers/client.js';
import { launchChromium, runBrowserTests } from '../chromium.js';
import { inViewport, messageItem, openConsole, PHONE, screenshot } from './console-page.js';
import { formattedText, serveMedia, showcase } from './showcase.js';

describe.skipIf(!runBrowserTests)('the web console with the demo bot, in Chromium', () => {
  let demo: Demo;
  let browser: Browser;
  let general: string;
  const id = (name: string) => demo.world.accounts[name]!.id;

  beforeAll(async () => {
    demo = await startDemo({ out: () => {} });
    general = demo.world.channels.general!.channel_id;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  it('bob starts a poll from the page, votes by clicking its button, and sees the bot update its message', async () => {
    const { page, problems } = await openConsole(browser, demo.world.emu.url, 'bob', general);
    await page.fill('#text', '*poll Lunch? | Pizza | Tacos');
    await page.press('#text', 'Enter');

    await until(() => demo.world.emu.messages(general).some((m) => m.content.embed?.[0]?.title === '📊 Lunch?'), 'the poll in the emulator', 15_000);
    const poll = demo.world.emu.messages(general).find((m) => m.content.embed?.[0]?.title === '📊 Lunch?')!;
    const item = messageItem(page, poll.message_id);
    // From the keyboard: focus the button and press Enter, as a person without a mouse would.
    await item.locator('button[data-button-id="option-1"]', { hasText: 'Tacos' }).focus();
    await page.keyboard.press('Enter');

    // The bot counted the vote and edited its message; the page shows the edit in place.
    await item.locator('[data-field="Tacos"] dd', { hasText: /1$/ }).waitFor();
    await expect.poll(() => item.getAttribute('data-edited'), { timeout: 15_000 }).toBe('true');
    const stored = demo.world.emu.messages(general).find((m) => m.message_id === poll.message_id)!;
    expect(stored.content.embed?.[0]?.fields?.map((f) => f.value.split(' ').pop())).toEqual(['0', '1']);
    expect(demo.world.emu.messages(general).filter((m) => m.message_id === poll.message_id)).toHaveLength(1);
    expect(await page.locator(`#messages li[data-message-id="${poll.message_id}"]`).count()).toBe(1);
    await screenshot(page, 'poll');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws every message part, chooses a select option and submits a form; the bot gets the events and answers', async () => {
    const { client, world } = demo;
    const text = formattedText(id('alice'));
    const photo = serveMedia(world.emu, 'photo', '#c83737');
    await client.sendMessage(general, text.content, {
      mentions: text.mentions,
      attachments: [
        { url: photo, filetype: 'image/svg+xml', filename: 'photo.svg', width: 120, height: 80 },
        { url: 'https://files.example/report.pdf', filetype: 'application/pdf', filename: 'report.pdf', size: 2048 },
      ],
    });
    const thread = world.emu.createChannel({ clanId: world.clan!.id, name: 'trip-plans', type: ChannelType.CHANNEL_TYPE_THREAD, parentId: general, memberIds: [id('alice'), id('clanbot')] });
    const built = showcase(world.emu);
    const form = await client.sendMessage(general, built.content, { mentions: built.mentions });
    const picked = client.awaitSelection(form, { timeout: 20_000 });
    const submitted = client.awaitButton(form, { filter: (c) => c.button_id === 'submit', timeout: 20_000 });

    const { page, problems } = await openConsole(browser, world.emu.url, 'alice', general);
    const item = messageItem(page, form.message_id);
    await item.waitFor();

    // Embed parts and every component kind, as the builders made them.
    await expect.poll(() => item.locator('.embed').getAttribute('data-color'), { timeout: 15_000 }).toBe('#e67e22');
    expect(await item.locator('.embed-title a').getAttribute('href')).toBe('https://example.org/trip');
    expect(await item.locator('.embed-author').textContent()).toContain('Clan Bot');
    expect(await item.locator('.embed-fields .field.inline').count()).toBe(3);
    expect(await item.locator('.embed-footer').textContent()).toContain('Sign-ups close Friday');
    expect(await item.locator('.embed-footer time').getAttribute('datetime')).toBe('2025-06-01T10:00:00.000Z');
    expect(await item.locator('img.embed-thumbnail').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    expect(await item.locator('button[data-button-id="closed"]').isDisabled()).toBe(true);
    expect(await item.locator('button[data-button-id="cancel"]').getAttribute('class')).toContain('btn-danger');
    expect(await item.locator('select[data-select-id="driver"] option').allTextContents()).toEqual(expect.arrayContaining(['Driver', 'alice', 'bob', 'carol', 'clanbot']));
    expect(await item.locator('select[data-select-id="team"] option').allTextContents()).toContain('Moderator');
    expect(await item.locator('select[data-select-id="where"] option').allTextContents()).toContain('#general');
    expect(await item.locator('[data-animation-id="spin"] figcaption').textContent()).toContain('pool: a, b, c');
    const intro = page.locator('#messages li', { hasText: 'Release notes for' });
    expect(await intro.locator('strong').textContent()).toBe('bold');
    expect(await intro.locator('code').textContent()).toBe('inline code');
    expect(await intro.locator('pre.code-block').textContent()).toBe('const answer = 42;');
    expect(await intro.locator('a.link').getAttribute('href')).toBe('https://example.org/notes');
    expect(await intro.locator(`.mention[data-mention="${id('alice')}"]`).textContent()).toBe('@alice');
    // Attachments: an image served by the emulator is shown, a file from elsewhere is a link.
    expect(await intro.locator('.attachments img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.alt)).toBe('photo.svg');
    expect(await intro.locator('.attachments a').getAttribute('href')).toBe('https://files.example/report.pdf');
    // The thread sits under its channel in the list.
    const threadButton = page.locator(`#channels li.thread button[data-channel-id="${thread.channel_id}"]`);
    expect(await threadButton.textContent()).toBe('↳ # trip-plans');
    expect(await page.locator('#channels li').evaluateAll((lis, ids) => lis.findIndex((li) => li.querySelector(`[data-channel-id="${ids[1]}"]`)) - lis.findIndex((li) => li.querySelector(`[data-channel-id="${ids[0]}"]`)), [general, thread.channel_id])).toBe(1);
    // Multi-line text keeps its lines.
    expect(await intro.locator('.text').textContent()).toBe(text.content.t);
    expect(await intro.locator('.text').evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-wrap');

    // A select in an action row reports the choice at once.
    await item.locator('select[data-select-id="transport"]').selectOption('bus');
    const selection: DropdownSelection = await picked;
    expect([selection.selectbox_id, selection.values, selection.user_id]).toEqual(['transport', ['bus'], id('alice')]);

    // The form: a required field stops the submit until it is filled.
    await item.locator('button[data-button-id="submit"]').click();
    await item.locator('.form-problem', { hasText: 'name' }).waitFor();
    await item.locator('input[data-input-id="name"]').fill('Alice');
    await item.locator('input[data-input-id="guests"]').fill('3');
    await item.getByLabel('Fish').check();
    await item.locator('input[data-date-id="date"]').fill('2025-06-07');
    await screenshot(page, 'form');
    await item.locator('button[data-button-id="submit"]').click();
    const click: ButtonClick = await submitted;
    expect(click.user_id).toBe(id('alice'));
    expect(click.form).toEqual({ name: 'Alice', guests: 3, meal: 'fish', date: '2025-06-07' });

    // The bot answers in the channel; the page shows it live.
    await client.replyTo(form, `Thanks ${formString(click.form, 'name') ?? '?'}, ${formNumber(click.form, 'guests') ?? 0} seats kept.`);
    await page.locator('#messages li', { hasText: 'Thanks Alice, 3 seats kept.' }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sees someone typing, reacts and unreacts from the page, replies, and sees counts and names as others react', async () => {
    const { world } = demo;
    const said = world.as('carol').send(general, 'Who wants cake?');
    const { page, problems } = await openConsole(browser, world.emu.url, 'alice', general);
    const item = messageItem(page, said.message_id);
    // carol types: the page says so under the messages, from message_typing_event (the emulator keeps nothing of it).
    const pushed: string[] = [];
    const storedBefore = world.emu.messages(general).length;
    const stopTap = world.emu.onEvent((type, payload) => {
      if (type === Events.MessageTyping || (payload as { code?: number }).code === TypeMessage.Typing) pushed.push(type);
    });
    world.as('carol').typing(general);
    stopTap();
    expect(pushed).toEqual([Events.MessageTyping]);
    await page.locator('p.typing', { hasText: /carol is typing…/i }).waitFor();
    expect(await item.textContent()).not.toMatch(/typing/i);
    expect(world.emu.messages(general)).toHaveLength(storedBefore);
    await item.hover();
    await item.locator('button[data-add-emoji="🎉"]').click();
    await item.locator('button.reaction[data-emoji="🎉"] .count', { hasText: '1' }).waitFor();
    world.as('bob').react(said.message_id, { emoji: '🎉' });
    await item.locator('button.reaction[data-emoji="🎉"] .count', { hasText: '2' }).waitFor();
    expect(await item.locator('button.reaction[data-emoji="🎉"]').getAttribute('title')).toBe('🎉 by alice, bob');
    expect(await item.locator('button.reaction[data-emoji="🎉"]').getAttribute('aria-pressed')).toBe('true');
    expect(world.emu.messages(general).find((m) => m.message_id === said.message_id)?.reactions).toEqual([{ emoji_id: '🎉', emoji: '🎉', count: 2, sender_ids: [id('alice'), id('bob')] }]);

    // Unreact: alice's goes, bob's stays.
    await item.locator('button.reaction[data-emoji="🎉"]').click();
    await item.locator('button.reaction[data-emoji="🎉"][aria-pressed="false"] .count', { hasText: '1' }).waitFor();
    expect(world.emu.messages(general).find((m) => m.message_id === said.message_id)?.reactions).toEqual([{ emoji_id: '🎉', emoji: '🎉', count: 1, sender_ids: [id('bob')] }]);

    // A reply with a mention, from the keyboard; typing it tells the channel that alice is typing.
    const typists: string[] = [];
    const stopWatching = world.emu.onEvent((type, payload) => {
      if (type === Events.MessageTyping) typists.push((payload as MessageTypingEvent).sender_id);
    });
    await item.getByRole('button', { name: 'reply to carol' }).click();
    await page.fill('#text', 'Me! @carol @here');
    await until(() => typists.includes(id('alice')), "alice's typing notice");
    stopWatching();
    await page.press('#text', 'Enter');
    await until(() => world.emu.messages(general).some((m) => m.content.t === 'Me! @carol @here'), "alice's reply in the emulator", 15_000).catch(async (error: unknown) => {
      throw new Error(`${String(error)}; the page says: ${await page.textContent('#status')}`);
    });
    const reply = world.emu.messages(general).find((m) => m.content.t === 'Me! @carol @here')!;
    expect(reply.references[0]?.message_ref_id).toBe(said.message_id);
    expect(reply.mentions).toEqual([{ user_id: id('carol'), s: 4, e: 10 }]);
    expect(reply.mention_everyone).toBe(true);
    await messageItem(page, reply.message_id).locator(`blockquote[data-ref-id="${said.message_id}"]`).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the bot editing and deleting its messages live', async () => {
    const { client, world } = demo;
    const { page, problems } = await openConsole(browser, world.emu.url, 'bob', general);
    const sent = await client.sendMessage(general, 'draft announcement');
    const item = messageItem(page, sent.message_id);
    await item.locator('.text', { hasText: 'draft announcement' }).waitFor();

    await client.editMessage(sent, 'final announcement\nsecond line');
    await item.locator('.text', { hasText: 'final announcement' }).waitFor();
    expect(await item.getAttribute('data-edited')).toBe('true');
    expect(await item.locator('.edited').textContent()).toBe('(edited)');
    expect(world.emu.messages(general).find((m) => m.message_id === sent.message_id)?.content.t).toBe('final announcement\nsecond line');

    await client.deleteMessage(sent);
    await item.locator('em', { hasText: 'message deleted' }).waitFor();
    expect(world.emu.messages(general).some((m) => m.message_id === sent.message_id)).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('drops every connection from the fault controls: the bot status shows it reconnecting, then recovered', async () => {
    const { world } = demo;
    const { page, problems } = await openConsole(browser, world.emu.url, 'alice', general);
    await page.getByRole('tab', { name: 'Faults' }).click();
    const bot = page.locator(`#faults .bot[data-bot-id="${id('clanbot')}"]`);
    await bot.locator('.state', { hasText: 'online' }).waitFor();
    const resumesBefore = world.emu.wire.frames('resume').filter((f) => f.userId === id('clanbot')).length;

    await page.click('#faults button[data-fault="drop"]');
    await bot.locator('.history', { hasText: 'reconnecting… → recovered' }).waitFor();
    expect(await bot.getAttribute('data-state')).toBe('recovered');
    expect(await bot.textContent()).toContain('a resume (same session, nothing missed)');
    // What the emulator saw: the bot resumed its session, and it answers again.
    expect(world.emu.wire.frames('resume').filter((f) => f.userId === id('clanbot')).length).toBeGreaterThan(resumesBefore);
    await screenshot(page, 'faults');
    await page.getByRole('tab', { name: 'Wire' }).click();
    await page.locator('#wire .wire-lines li[data-kind="resume"]').first().waitFor();
    await screenshot(page, 'wire');
    await page.fill('#wire input[name="kind"]', 'resume');
    await expect.poll(async () => new Set(await page.locator('#wire .wire-lines li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')))).size, { timeout: 15_000 }).toBe(1);
    await page.fill('#text', '*ping');
    await page.press('#text', 'Enter');
    await page.locator('#messages li', { hasText: 'pong' }).last().waitFor();
    expect(problems.filter((p) => !/WebSocket|ERR_CONNECTION|net::/.test(p))).toEqual([]);
    await page.close();
  });

  it('shows the ledger and the world, and works at phone width', async () => {
    const { world } = demo;
    world.as('alice').transfer(id('bob'), 2, 'for lunch');
    const { page, problems } = await openConsole(browser, world.emu.url, 'alice', general);
    await page.getByRole('tab', { name: 'Ledger' }).click();
    await page.locator('#ledger .transfers li', { hasText: 'alice → bob: 2 ("for lunch")' }).waitFor();
    expect(await page.locator(`#ledger tr[data-user-id="${id('bob')}"] td`).nth(1).textContent()).toBe(String(world.emu.balance(id('bob'))));
    await screenshot(page, 'ledger');
    await page.getByRole('tab', { name: 'World' }).click();
    await page.locator('#world li', { hasText: 'Moderator: alice' }).waitFor();
    await page.locator('#world li', { hasText: '#staff' }).waitFor();
    await screenshot(page, 'desktop');
    await page.close();

    const phone = await openConsole(browser, world.emu.url, 'bob', general, PHONE);
    // One column at a time: the chat first; the channel list behind its own button.
    expect(await phone.page.locator('.channels-column').isVisible()).toBe(false);
    await expect.poll(() => inViewport(phone.page.locator('#messages > li').last()), { timeout: 15_000 }).toBe(true);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(phone.page, 'phone');
    await phone.page.getByRole('button', { name: 'Channels' }).click();
    await phone.page.locator('#channels button', { hasText: 'random' }).click();
    await phone.page.getByRole('button', { name: 'Chat' }).click();
    await phone.page.waitForSelector(`body[data-channel="${demo.world.channels.random!.channel_id}"]`);
    expect(problems.concat(phone.problems)).toEqual([]);
    await phone.page.close();
  });
});
