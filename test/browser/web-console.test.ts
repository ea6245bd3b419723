import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import * as fromSource from '../../src/emulator/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { until } from '../helpers/client.js';
import { launchChromium, pageProblems, runBrowserTests } from './chromium.js';

type EmulatorModule = typeof fromSource;

/** The built emulator (dist/, made by `npm ci` through `prepare`), which serves dist/browser/. */
const DIST_EMULATOR = new URL('../../dist/emulator.js', import.meta.url).href;
const fromDist = async (): Promise<EmulatorModule> => (await import(DIST_EMULATOR)) as EmulatorModule;

describe.skipIf(!runBrowserTests).each([
  // From source (tsx, vitest), the emulator builds the console's scripts from src/ with esbuild.
  { how: 'run from source', load: async (): Promise<EmulatorModule> => fromSource },
  // Built, it serves what tsup wrote: the browser bundle that ships as `clanstream/browser`.
  { how: 'built (dist)', load: fromDist },
])('the web console, in Chromium, emulator $how', ({ load }) => {
  let emu: Emulator | undefined;
  let browser: Browser | undefined;

  afterEach(async () => {
    await browser?.close();
    await emu?.close();
    browser = undefined;
    emu = undefined;
  });

  it('logs in as alice, shows what bob says, and sends her reply through the emulator', async () => {
    emu = await (await load()).startEmulator();
    const alice = emu.createUser({ username: 'alice' });
    const bob = emu.createUser({ username: 'bob' });
    const clan = emu.createClan({ name: 'Guild', ownerId: alice.id });
    emu.addClanMember(clan.id, bob.id);
    const channelId = clan.welcome_channel_id;

    browser = await launchChromium();
    const page = await browser.newPage();
    const problems = pageProblems(page);
    await page.goto(`${emu.url}/`);

    // The accounts come from GET /console/accounts; log in as alice.
    await page.locator('#account option', { hasText: 'alice' }).waitFor({ state: 'attached' });
    await page.selectOption('#account', { label: 'alice' });
    await page.click('#login button[type="submit"]');
    await page.waitForSelector(`body[data-status="ready"][data-channel="${channelId}"]`);
    expect(await page.textContent('#channels')).toContain('Guild');

    // Bob talks through the emulator; the page shows it live.
    emu.as(bob.id).send(channelId, 'hello from bob');
    const bobsLine = page.locator('#messages li', { hasText: 'hello from bob' });
    await bobsLine.waitFor();
    expect(await bobsLine.getAttribute('data-sender-id')).toBe(bob.id);
    await page.locator('#activity li', { hasText: 'hello from bob' }).waitFor();

    // Alice answers from the page; the emulator stores her message.
    await page.fill('#text', 'hi bob, alice here');
    await page.press('#text', 'Enter');
    await until(() => emu!.messages(channelId).some((m) => m.sender_id === alice.id), "alice's message in the emulator", 15_000);
    const stored = emu.messages(channelId).find((m) => m.sender_id === alice.id);
    expect(stored?.content.t).toBe('hi bob, alice here');
    await page.locator('#messages li', { hasText: 'hi bob, alice here' }).waitFor();

    expect(problems).toEqual([]);
  });
});

describe('the web console routes', () => {
  let emu: Emulator | undefined;

  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('serve the page, the library bundle and the accounts the page logs in with, outside the wire log', async () => {
    emu = await fromSource.startEmulator();
    const alice = emu.createUser({ username: 'alice' });
    const page = await fetch(`${emu.url}/`);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('/console/app.js');
    const bundle = await fetch(`${emu.url}/console/clanstream.js`);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await bundle.text()).toMatch(/ServiceClient/);
    const accounts = (await (await fetch(`${emu.url}/console/accounts`)).json()) as { accounts: Array<{ id: string; username: string; token: string }> };
    expect(accounts.accounts).toContainEqual(expect.objectContaining({ id: alice.id, username: 'alice', token: alice.token }));
    expect(emu.wire.requests('/console')).toEqual([]);
    expect(emu.wire.requests('/')).toEqual([]);

    // Turned off, the pages (and the accounts with them) are gone and the API is untouched.
    emu.pages.enabled = false;
    expect((await fetch(`${emu.url}/console/accounts`)).status).toBe(404);
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
  });

  it('are served from dist/browser by the built emulator', async () => {
    emu = await (await fromDist()).startEmulator();
    const served = await (await fetch(`${emu.url}/console/clanstream.js`)).text();
    expect(served).toBe(await readFile(new URL('../../dist/browser/clanstream.js', import.meta.url), 'utf8'));
    const app = await (await fetch(`${emu.url}/console/app.js`)).text();
    expect(app).toBe(await readFile(new URL('../../dist/browser/console.js', import.meta.url), 'utf8'));
  });
});
