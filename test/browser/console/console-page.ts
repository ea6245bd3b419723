/** Opening the console in Chromium as a user, and the screenshots the tests may write. */
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { pageProblems } from '../chromium.js';

/** Screenshots are written only when asked (UPDATE_SCREENSHOTS=1), so a normal run leaves the tree clean. */
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS ? new URL('../../../docs/images/', import.meta.url) : undefined;

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export interface ConsolePage {
  page: Page;
  /** Uncaught errors and console errors seen in the page. */
  problems: string[];
}

/** Opens the console as `username` (the `?as=` link logs in at once) and waits until `channelId` is drawn. */
export async function openConsole(browser: Browser, baseUrl: string, username: string, channelId: string, viewport: { width: number; height: number } = DESKTOP): Promise<ConsolePage> {
  const page = await browser.newPage({ viewport });
  const problems = pageProblems(page);
  await page.goto(`${baseUrl}/?as=${encodeURIComponent(username)}`);
  await page.waitForSelector(`body[data-status="ready"][data-channel="${channelId}"]`);
  return { page, problems };
}

/** Writes docs/images/console-{name}.png when UPDATE_SCREENSHOTS is set. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: new URL(`console-${name}.png`, SCREENSHOTS).pathname });
}

/** The list item of a message, by id. */
export const messageItem = (page: Page, messageId: string) => page.locator(`#messages li[data-message-id="${messageId}"]`);

/** Whether the element is inside the browser window (not merely in the DOM). */
export const inViewport = (locator: Locator): Promise<boolean> =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  });
