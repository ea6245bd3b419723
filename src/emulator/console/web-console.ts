/**
 * The emulator's web console: a page at `/` where a person picks a seeded
 * account, logs in as it (with clanstream's browser bundle), watches the
 * channels live and types messages, e.g. to talk to a bot under test.
 *
 * Routes (GET and HEAD, served through the HTTP server's `serveStatic` hook):
 *
 * | Path | What |
 * |---|---|
 * | `/` | the page (./page.ts) |
 * | `/console/app.js` | its script (./app.ts, bundled for the browser) |
 * | `/console/clanstream.js` | the library's browser bundle (dist/browser/clanstream.js) |
 * | `/console/accounts` | `{ accounts: [{ id, username, display_name, is_bot, token }] }` |
 *
 * `/console/accounts` hands out every seeded account's API key, so that the
 * page can log in as anyone. The emulator is a local test server (it binds
 * 127.0.0.1 unless told otherwise, and `clanstream emulator` prints the same
 * keys), and the endpoint exists only as part of the console: turning the
 * console off (`emu.pages.enabled = false`) removes it with the page.
 */
import type { EmulatorAccount } from '../types.js';
import { browserAsset, type BrowserAssetName } from './assets.js';
import { CONSOLE_HTML } from './page.js';
import type { StaticPages } from './static-pages.js';

export const CONSOLE_PATHS = { page: '/', app: '/console/app.js', bundle: '/console/clanstream.js', accounts: '/console/accounts' } as const;

const JS = 'text/javascript; charset=utf-8';

const script = (name: BrowserAssetName) => async () => ({ type: JS, body: await browserAsset(name) });

/** Adds the console's routes to `pages`. */
export function mountWebConsole(pages: StaticPages, deps: { accounts: () => EmulatorAccount[] }): void {
  pages
    .add(CONSOLE_PATHS.page, { type: 'text/html; charset=utf-8', body: CONSOLE_HTML })
    .add(CONSOLE_PATHS.app, script('app.js'))
    .add(CONSOLE_PATHS.bundle, script('clanstream.js'))
    .add(CONSOLE_PATHS.accounts, () => ({
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({
        accounts: deps.accounts().map(({ id, username, display_name, is_bot, token }) => ({ id, username, display_name, is_bot, token })),
      }),
    }));
}
