/**
 * A channel of ten thousand messages stays a small page: the console draws
 * a bounded window of them, and more arriving live do not grow it.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMELINE_DEFAULTS } from '../../../src/emulator/console/app/timeline.js';
import { createTestWorld, type TestWorld } from '../../../src/testing/index.js';
import { launchChromium, runBrowserTests } from '../chromium.js';
import { inViewport, openConsole } from './console-page.js';

const STORED = 10_000;
const LIVE = 1_000;

describe.skipIf(!runBrowserTests)('a long channel in the web console, in Chromium', () => {
  let world: TestWorld;
  let browser: Browser;

  beforeAll(async () => {
    world = await createTestWorld();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it(`opens a channel of ${STORED} messages and takes ${LIVE} more live with a bounded DOM, the newest in view`, { timeout: 120_000 }, async () => {
    const general = world.channels.general!.channel_id;
    const alice = world.as('alice');
    for (let i = 1; i <= STORED; i++) alice.send(general, `stored message ${i}`);
    expect(world.emu.messages(general)).toHaveLength(STORED);

    const { page, problems } = await openConsole(browser, world.emu.url, 'bob', general);
    const items = page.locator('#messages > li');
    await page.locator('#messages li', { hasText: `stored message ${STORED}` }).waitFor();
    expect(await items.count()).toBeLessThanOrEqual(TIMELINE_DEFAULTS.window);
    expect(await inViewport(page.locator('#messages li', { hasText: `stored message ${STORED}` }))).toBe(true);

    for (let i = 1; i <= LIVE; i++) world.as('carol').send(general, `live message ${i}`);
    const newest = page.locator('#messages li', { hasText: `live message ${LIVE}` });
    await newest.waitFor();
    expect(await items.count()).toBe(TIMELINE_DEFAULTS.window);
    await expect.poll(() => inViewport(newest), { timeout: 15_000 }).toBe(true);
    expect(await page.locator('#messages').getAttribute('data-kept')).toBe(String(50 + LIVE));

    // Reading back through the history keeps the page the same size.
    const older = page.locator('button[data-more="older"]');
    for (let i = 0; i < 25; i++) await older.click();
    await page.locator('#messages li', { hasText: /stored message \d+/ }).first().waitFor();
    expect(await items.count()).toBe(TIMELINE_DEFAULTS.window);
    expect(Number(await page.locator('#messages').getAttribute('data-kept'))).toBeGreaterThan(50 + LIVE);
    await page.click('button[data-more="newest"]');
    await expect.poll(() => inViewport(newest), { timeout: 15_000 }).toBe(true);
    expect(await items.count()).toBe(TIMELINE_DEFAULTS.window);
    expect(problems).toEqual([]);
    await page.close();
  });
});
