/**
 * A message and a role whose URLs and colour a hostile bot or user chose,
 * drawn by the web console in Chromium: every `href` and `src` in the page
 * goes through one URL policy (http(s) links, pictures of the emulator only),
 * and every colour through one colour policy (no `url(…)`). A server on
 * another port stands for "outside": it counts what the page asks it for.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EButtonMessageStyle, EMessageComponentType } from '../../../src/index.js';
import { startEmulator, type Emulator } from '../../../src/emulator/index.js';
import { launchChromium, runBrowserTests } from '../chromium.js';
import { messageItem, openConsole } from './console-page.js';
import { serveMedia } from './showcase.js';

const SCRIPT = 'javascript:document.title="pwned"';
const HTML = 'data:text/html,<script>document.title="pwned"</script>';
const SVG = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="document.title=1"/>';

describe.skipIf(!runBrowserTests)('hostile URLs and colours in the web console, in Chromium', () => {
  let emu: Emulator;
  let browser: Browser;
  let outside: Server;
  let outsideUrl: string;
  const outsideRequests: string[] = [];

  beforeAll(async () => {
    emu = await startEmulator();
    outside = createServer((req, res) => {
      outsideRequests.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    });
    await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve));
    outsideUrl = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await emu?.close();
    await new Promise((resolve) => (outside ? outside.close(resolve) : resolve(undefined)));
  });

  it('renders no javascript: or data: URL as an href or a src: embeds, attachments, link buttons, animations', async () => {
    const alice = emu.createUser({ username: 'alice' });
    const mallory = emu.createUser({ username: 'mallory' });
    const clan = emu.createClan({ name: 'Hostile', ownerId: alice.id });
    emu.addClanMember(clan.id, mallory.id);
    const general = clan.welcome_channel_id;
    const picture = serveMedia(emu, 'fine', '#2a8a3a');
    const sent = emu.as(mallory.id).send(
      general,
      {
        t: 'look',
        embed: [
          { title: 'scripted title', url: SCRIPT, author: { name: 'scripted author', url: HTML, icon_url: SCRIPT }, thumbnail: { url: SVG }, image: { url: HTML }, footer: { text: 'foot', icon_url: SVG }, description: 'd' },
          { title: 'fine title', url: 'https://example.org/fine', image: { url: picture }, thumbnail: { url: `${outsideUrl}/thumb.svg` } },
        ],
        components: [
          {
            components: [
              { type: EMessageComponentType.BUTTON, id: 'evil-link', component: { label: 'Evil link', style: EButtonMessageStyle.LINK, url: SCRIPT } },
              { type: EMessageComponentType.BUTTON, id: 'fine-link', component: { label: 'Fine link', style: EButtonMessageStyle.LINK, url: 'https://example.org/docs' } },
              { type: EMessageComponentType.ANIMATION, id: 'evil-animation', component: { url_image: SVG, url_position: SCRIPT, pool: ['a'] } },
            ],
          },
        ],
      },
      {
        attachments: [
          { url: SCRIPT, filetype: 'application/pdf', filename: 'evil.pdf' },
          { url: SVG, filetype: 'image/svg+xml', filename: 'evil.svg' },
          { url: HTML, filetype: 'image/png', filename: 'evil.png' },
          { url: picture, filetype: 'image/svg+xml', filename: 'fine.svg' },
        ],
      },
    );

    const { page, problems } = await openConsole(browser, emu.url, 'alice', general);
    const item = messageItem(page, sent.message_id);
    await item.locator('.embed').nth(1).waitFor();
    const urls = await item.evaluate((li) =>
      [...li.querySelectorAll('[href], [src]')].map((el) => ({ tag: el.tagName.toLowerCase(), href: el.getAttribute('href'), src: el.getAttribute('src') })),
    );
    for (const { tag, href, src } of urls) {
      if (href !== null) expect([tag, href]).toEqual([tag, expect.stringMatching(/^https?:\/\//)]);
      if (src !== null) expect([tag, src]).toEqual([tag, expect.stringMatching(new RegExp(`^${emu.url}/`))]);
    }
    // The fine parts are drawn as before: links, the emulator's own pictures; a picture from outside is a link, not loaded.
    expect(urls.map((u) => u.href ?? u.src).sort()).toEqual([`${outsideUrl}/thumb.svg`, picture, picture, 'https://example.org/docs', 'https://example.org/fine'].sort());
    // The refused parts stay visible as text, and the refused link button does nothing.
    expect(await item.locator('.embed-title').first().textContent()).toBe('scripted title');
    expect(await item.locator('.embed-author').first().textContent()).toContain('scripted author');
    // Four pictures of the first embed (author icon, thumbnail, image, footer icon) and three attachments.
    expect(await item.locator('.refused').count()).toBe(7);
    expect(await item.locator('button[data-button-id="evil-link"]').isDisabled()).toBe(true);
    expect(await item.locator('.attachments').textContent()).toContain('evil.pdf (not a web address, not shown)');
    expect(await page.title()).not.toBe('pwned');
    expect(outsideRequests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a role colour like url(http://…) is not applied: the World tab loads nothing from outside', async () => {
    const owner = emu.createUser({ username: 'owner' });
    const clan = emu.createClan({ name: 'Colours', ownerId: owner.id });
    const loader = emu.createRole({ clanId: clan.id, title: 'Loader', color: `url(${outsideUrl}/role.png)`, userIds: [owner.id] });
    const escaper = emu.createRole({ clanId: clan.id, title: 'Escaper', color: `red; background-image: url(${outsideUrl}/escape.png)` });
    const orange = emu.createRole({ clanId: clan.id, title: 'Orange', color: '#e67e22' });
    const { page, problems } = await openConsole(browser, emu.url, 'owner', clan.welcome_channel_id);
    await page.click('#tab-world');
    const dot = (roleId: string) => page.locator(`#world li[data-role-id="${roleId}"] .role-dot`);
    await dot(orange.id).waitFor();
    expect(await dot(orange.id).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(230, 126, 34)');
    for (const role of [loader, escaper]) {
      expect(await dot(role.id).getAttribute('style')).toBeNull();
      expect(await dot(role.id).evaluate((el) => getComputedStyle(el).backgroundImage)).toBe('none');
    }
    // Two frames after the dots are drawn, a background image would have been asked for.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(outsideRequests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
