/**
 * `--cors <origin>` (`corsOrigins`): a browser app served from another origin
 * logs in to the emulator with the library's browser bundle and sends a
 * message. Without the origin allowed, the browser refuses the same login.
 */
import type { Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { serveBundleApp } from './bundle-app.js';
import { launchChromium, runBrowserTests } from './chromium.js';

/** The app: logs in with the credentials in its query string and sends one message; the outcome lands in data-result. */
const APP = `<!doctype html><meta charset="utf-8"><title>app</title><script type="module">
import { ServiceClient } from './clanstream.js';
const q = new URLSearchParams(location.search);
const client = new ServiceClient({ botId: q.get('id'), token: q.get('token'), host: '127.0.0.1', port: q.get('port'), useSSL: false, unhandledErrors: 'silent', apiRetry: { retries: 0 }, reconnect: { loginAttempts: 1 } });
try {
  await client.login();
  const sent = await client.sendMessage(q.get('channel'), 'hello from another origin');
  document.body.dataset.result = 'sent ' + sent.message_id;
} catch (error) {
  document.body.dataset.result = 'failed ' + error.kind + ': ' + error.message;
} finally {
  client.destroy();
}
</script>`;

describe.skipIf(!runBrowserTests)('an app on another origin, in Chromium', () => {
  let emu: Emulator | undefined;
  let app: Server | undefined;
  let browser: Browser | undefined;
  afterEach(async () => {
    await browser?.close();
    await emu?.close();
    await new Promise((resolve) => (app ? app.close(resolve) : resolve(undefined)));
    browser = emu = app = undefined;
  });

  async function runApp(corsOrigins: (origin: string) => string[]): Promise<{ result: string; stored: string[]; appOrigin: string }> {
    const served = await serveBundleApp(APP);
    app = served.server;
    emu = await startEmulator({ corsOrigins: corsOrigins(served.origin) });
    const alice = emu.createUser({ username: 'alice' });
    const clan = emu.createClan({ name: 'Cors', ownerId: alice.id });
    browser = await launchChromium();
    const page = await browser.newPage();
    const query = new URLSearchParams({ id: alice.id, token: alice.token, port: String(emu.port), channel: clan.welcome_channel_id });
    await page.goto(`${served.origin}/?${query}`);
    await page.waitForSelector('body[data-result]', { state: 'attached' });
    const result = (await page.getAttribute('body', 'data-result')) ?? '';
    return { result, stored: emu.messages(clan.welcome_channel_id).map((m) => m.content.t ?? ''), appOrigin: served.origin };
  }

  it('logs in and sends when its origin is allowed', async () => {
    const { result, stored } = await runApp((origin) => [origin]);
    expect(result).toMatch(/^sent \d+$/);
    expect(stored).toEqual(['hello from another origin']);
    expect(emu!.wire.requests('/v2/apps/authenticate/token').map((r) => r.status)).toEqual([200]);
  });

  it('is refused by the browser when its origin is not allowed, and the error says CORS may be why, naming the URL and the page origin', async () => {
    const { result, stored, appOrigin } = await runApp(() => ['http://somewhere.else']);
    expect(result).toBe(
      `failed api: POST /v2/apps/authenticate/token failed (no response network_error): could not reach http://127.0.0.1:${emu!.port}/v2/apps/authenticate/token: the browser refused or could not make the request: the server does not allow this page's origin (${appOrigin}) by CORS, or no server answers there; check the server's allowed origins and \`host\`, \`port\` and \`useSSL\``,
    );
    expect(stored).toEqual([]);
  });
});
