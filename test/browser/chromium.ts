/**
 * Debian's Chromium, driven by playwright-core (which downloads no browser).
 * `.ci/run` installs it with apt-get; locally, `apt-get install -y chromium`.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { serviceAvailable } from '../support/required-service.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Whether the browser suites run: only when Chromium is installed (skipped
 * with one loud line otherwise); in CI a missing browser fails the run.
 */
export const runBrowserTests = serviceAvailable({ what: 'chromium (the browser suites)', path: CHROMIUM_PATH, install: 'apt-get install -y chromium' });

// A skip must not pass unnoticed: one loud line per suite file that skips.
if (!runBrowserTests) console.warn(`BROWSER TESTS SKIPPED: ${CHROMIUM_PATH} is missing (apt-get install -y chromium); with CI set they run and fail instead`);

/** Headless, no sandbox (root in a container), no GPU, and nothing that calls home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** Launches Chromium with a fresh, temporary profile (playwright makes and removes its user-data-dir); `extraArgs` add to {@link CHROMIUM_ARGS}. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium (apt-get install -y chromium)`);
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, chromiumSandbox: false, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** Collects what went wrong inside a page: uncaught errors and console errors. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return problems;
}
