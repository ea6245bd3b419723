/**
 * The emulator's web console: a page at `/` where a person acts as any
 * seeded account (several in tabs), talks to a bot under test, clicks what it
 * offers, and watches the wire, the ledger and the world, and injects faults.
 *
 * Routes (served through the HTTP server's `serveStatic` hook, outside the
 * wire log):
 *
 * | Path | What |
 * |---|---|
 * | `/` | the page (./page.ts) |
 * | `/console/app.js` | its script (./app/, bundled for the browser) |
 * | `/console/clanstream.js` | the library's browser bundle (dist/browser/clanstream.js) |
 * | `/console/accounts` | `{ accounts: [{ id, username, display_name, is_bot, token }] }` |
 * | `/console/api/…` | the console's API (./api.ts) |
 *
 * Every one of them answers clients on this machine only (403 otherwise),
 * unless `allowRemote` is set: `/console/accounts` hands out every API key,
 * and the API acts as any user and breaks things on purpose. And only
 * requests addressed to this machine, from the console's own page: a
 * foreign `Host` (DNS rebinding), a foreign `Origin` or `Sec-Fetch-Site`
 * (another page in the same browser) is 403, and a body that is not JSON is
 * 415 (see ../http/local-access.ts). The console never sends CORS headers.
 */
import { ConsoleApi } from './api.js';
import { browserAsset, type BrowserAssetName } from './assets.js';
import { CONSOLE_DEFAULTS } from './defaults.js';
import { CONSOLE_HTML } from './page.js';
import type { ConsolePort } from './port.js';
import { consoleRefusal } from './remote-access.js';
import type { StaticPages } from './static-pages.js';
import { WireFeed } from './wire-feed.js';

export { CONSOLE_API } from './api.js';
export type * from './contract.js';
export type { ConsolePort } from './port.js';
export { isLoopbackAddress, isLoopbackHost, exposureWarning } from './remote-access.js';
export { StaticPages, type StaticAsset, type AssetSource, type PageHandler } from './static-pages.js';

/** Where the web console serves its page, script, the library's browser bundle and the seeded accounts. */
export const CONSOLE_PATHS = { page: '/', app: '/console/app.js', bundle: '/console/clanstream.js', accounts: '/console/accounts' } as const;

export interface WebConsoleOptions {
  /** Serve the console to clients on other machines too (default false: loopback only). */
  allowRemote?: boolean;
  /** Receives a line when something fails inside the console's backend (never secrets). */
  log?: (line: string) => void;
  /** Origins the console is reached at besides the emulator's own address (its public URL). */
  knownOrigins?: () => readonly string[];
}

const JS = 'text/javascript; charset=utf-8';

const script = (name: BrowserAssetName) => async () => ({ type: JS, body: await browserAsset(name) });

const isConsolePath = (path: string): boolean => path === CONSOLE_PATHS.page || path.startsWith('/console/');

/** Adds the console's page, scripts, accounts and API to `pages`; returns a function that detaches it from the emulator's event tap. */
export function mountWebConsole(pages: StaticPages, port: ConsolePort, options: WebConsoleOptions = {}): () => void {
  const log = options.log ?? (() => {});
  const feed = new WireFeed(port, CONSOLE_DEFAULTS.wireFeedSize);
  const api = new ConsoleApi({ port, feed, log });
  const policy = { allowRemote: options.allowRemote ?? false, knownOrigins: options.knownOrigins ?? (() => []) };
  pages
    .use((req, res) => {
      const path = new URL(req.url ?? '/', 'http://emulator').pathname;
      if (!isConsolePath(path)) return false;
      const refusal = consoleRefusal(req, policy);
      if (refusal) {
        res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
        res.end(refusal.message);
        return true;
      }
      feed.start();
      return api.handle(req, res);
    })
    .add(CONSOLE_PATHS.page, { type: 'text/html; charset=utf-8', body: CONSOLE_HTML })
    .add(CONSOLE_PATHS.app, script('app.js'))
    .add(CONSOLE_PATHS.bundle, script('clanstream.js'))
    .add(CONSOLE_PATHS.accounts, () => ({
      type: 'application/json; charset=utf-8',
      body: JSON.stringify({
        accounts: port.credentials().map(({ id, username, display_name, is_bot, token }) => ({ id, username, display_name, is_bot, token })),
      }),
    }));
  return () => feed.close();
}
