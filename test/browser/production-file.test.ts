/**
 * The browser file of `clanstream/production` (built as tsup builds
 * dist/browser/production.js: schemas read by its own descriptor reader and
 * registry, frames written by its own writer, the library taken from
 * `./clanstream.js`), run in Chromium against the emulator's production
 * front end: a bot logs in, lists a clan's members and sends a message the
 * emulator stores.
 */
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { browserBundle } from '../../bench/support/browser-size.js';
import { coreAsBrowserBundle } from '../../scripts/lib/core-as-browser-bundle.mjs';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { launchChromium, pageProblems, runBrowserTests } from './chromium.js';

const source = (path: string) => fileURLToPath(new URL(`../../src/${path}`, import.meta.url));

const PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
import { ServiceClient } from './clanstream.js';
import { production } from './production.js';
const q = new URLSearchParams(location.search);
try {
  const client = new ServiceClient({ ...JSON.parse(q.get('config')), protocol: production({ dialect: 'sdk-2.8.44', restIntervalMs: 0 }) });
  await client.login();
  const members = await client.api.listClanMembers(q.get('clan'));
  const sent = await client.sendMessage(q.get('channel'), 'from the browser');
  window.result = { members: members.members.map((m) => m.user.id).sort(), sent: sent.message_id };
  await client.destroy();
} catch (error) {
  window.result = { error: String(error && error.stack || error) };
}
</script>`;

describe.skipIf(!runBrowserTests)('clanstream/production in Chromium', () => {
  let world: TestWorld | undefined;
  let browser: Browser | undefined;
  afterEach(async () => {
    await browser?.close();
    await world?.close();
    browser = undefined;
    world = undefined;
  });

  it('logs in over production REST and socket (sdk-2.8.44), lists the members and sends a message the emulator stores', async () => {
    const [core, file] = await Promise.all([
      browserBundle({ minify: true, entry: { file: source('index.ts') } }),
      browserBundle({ minify: true, entry: { file: source('production/index.ts') }, plugins: [coreAsBrowserBundle()] }),
    ]);
    const w = await createTestWorld({ compat: true });
    world = w;
    const js = 'text/javascript; charset=utf-8';
    w.emu.pages
      .add('/production-file/', { type: 'text/html; charset=utf-8', body: PAGE })
      .add('/production-file/clanstream.js', { type: js, body: new TextDecoder().decode(core.code) })
      .add('/production-file/production.js', { type: js, body: new TextDecoder().decode(file.code) });
    const general = w.channels.general!.channel_id;
    const query = new URLSearchParams({ config: JSON.stringify(w.emu.clientConfig(w.bot)), clan: w.clan!.id, channel: general });

    browser = await launchChromium();
    const page = await browser.newPage();
    const problems = pageProblems(page);
    await page.goto(`${w.emu.url}/production-file/?${query.toString()}`);
    await page.waitForFunction(() => (window as { result?: unknown }).result !== undefined, undefined, { timeout: 30_000 });
    const result = (await page.evaluate(() => (window as { result?: unknown }).result)) as { members?: string[]; sent?: string; error?: string };

    expect(result.error).toBeUndefined();
    expect(result.members).toEqual(w.emu.clan(w.clan!.id).member_ids.slice().sort());
    expect(w.emu.messages(general).find((m) => m.message_id === result.sent)).toMatchObject({ sender_id: w.bot.id, content: { t: 'from the browser' } });
    expect(w.emu.wire.entries().some((e) => e.transport === 'http' && e.path === '/mezon.api.Mezon/ListClanUsers')).toBe(true);
    expect(problems).toEqual([]);
  }, 60_000);
});
