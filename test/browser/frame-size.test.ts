/**
 * Frame sizes in a browser, with the library's browser bundle in Chromium:
 * the browser's WebSocket takes no `maxPayload`, so the client checks each
 * message it hands over. A send over the hello's `max_frame_bytes` is refused
 * before it is sent; an event over `maxInboundFrameBytes` is reported, and the
 * client starts a fresh session, resynchronises and reads the next events.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { serveBundleApp } from './bundle-app.js';
import { launchChromium, pageProblems, runBrowserTests } from './chromium.js';

/** The app: logs in with a 4 KiB inbound bound, records errors$ and lifecycle$, and sends what the test asks for. */
const APP = `<!doctype html><meta charset="utf-8"><title>app</title><script type="module">
import { ServiceClient } from './clanstream.js';
const q = new URLSearchParams(location.search);
const client = new ServiceClient({ botId: q.get('id'), token: q.get('token'), host: '127.0.0.1', port: q.get('port'), useSSL: false, maxInboundFrameBytes: 4096, reconnect: { baseMs: 10, capMs: 50 } });
window.seen = { errors: [], lifecycle: [] };
client.errors$.subscribe((error) => window.seen.errors.push(error.kind + ': ' + error.message));
client.lifecycle$.subscribe((event) => window.seen.lifecycle.push(event.type));
window.send = (text) => client.sendMessage(q.get('channel'), text).then((m) => 'sent ' + m.content.t.length, (error) => 'refused ' + error.kind + ': ' + error.message);
await client.login();
document.body.dataset.status = 'ready';
</script>`;

const seen = (page: Page) => page.evaluate(() => (window as unknown as { seen: { errors: string[]; lifecycle: string[] } }).seen);

describe.skipIf(!runBrowserTests)('frame sizes, in Chromium', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('refuses a send over max_frame_bytes, and reads no event over maxInboundFrameBytes: a fresh session, a resync, and the next events', async () => {
    const served = await serveBundleApp(APP);
    cleanups.push(() => new Promise((resolve) => served.server.close(resolve)));
    const emu = await startEmulator({ corsOrigins: [served.origin], maxFrameBytes: 8192 });
    cleanups.push(() => emu.close());
    const alice = emu.createUser({ username: 'alice' });
    const bob = emu.createUser({ username: 'bob' });
    const clan = emu.createClan({ name: 'Frames', ownerId: alice.id });
    emu.addClanMember(clan.id, bob.id);
    const channel = clan.welcome_channel_id;
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.newPage();
    const problems = pageProblems(page);
    await page.goto(`${served.origin}/?${new URLSearchParams({ id: alice.id, token: alice.token, port: String(emu.port), channel })}`);
    await page.waitForSelector('body[data-status="ready"]', { state: 'attached' });

    // 3000 euro signs pass the content rules (3000 characters) but make a frame of over 9000 bytes.
    const refused = await page.evaluate((text) => (window as unknown as { send(t: string): Promise<string> }).send(text), '€'.repeat(3000));
    expect(refused).toMatch(/^refused validation: Invalid channel_message_send request: the frame is 9\d{3} bytes; the server reads frames of up to 8192 bytes/);
    expect(emu.messages(channel)).toEqual([]);

    emu.as(bob.id).send(channel, 'b'.repeat(3900));
    await page.waitForFunction(() => (window as unknown as { seen: { lifecycle: string[] } }).seen.lifecycle.includes('resync'));
    const after = await seen(page);
    expect(after.lifecycle).toEqual(['ready', 'disconnected', 'reconnected', 'resync']);
    expect(after.errors).toEqual([expect.stringMatching(/^protocol: a frame from the server is 4\d{3} bytes, over the limit of 4096 \(maxInboundFrameBytes\)/)]);

    expect(await page.evaluate((text) => (window as unknown as { send(t: string): Promise<string> }).send(text), 'small')).toBe('sent 5');
    expect(emu.messages(channel).map((m) => m.content.t?.length)).toEqual([3900, 5]);
    expect(problems).toEqual([]);
  });
});
