/**
 * Pages that are not the console, in a real Chromium on this machine: a page
 * of another site posting to the console's API and the test API (no-cors
 * text/plain, a text/plain form), and DNS rebinding (a name the attacker
 * owns resolving to 127.0.0.1, so the browser sends that name as the Host).
 * Chromium's resolver maps the names to 127.0.0.1 (--host-resolver-rules),
 * as the attacker's DNS server would. Raw requests with the same headers:
 * test/emulator/local-access.test.ts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORLD, startEmulator, type Emulator } from '../../../src/emulator/index.js';
import { launchChromium, runBrowserTests } from '../chromium.js';

/** The attacker's page: every request a page of another site can make without a preflight; the outcome lands in data-result. */
const ATTACK = `<!doctype html><meta charset="utf-8"><title>attacker</title>
<iframe name="sink"></iframe>
<form id="form" method="POST" enctype="text/plain" target="sink"><input id="field"></form>
<script type="module">
const emu = new URLSearchParams(location.search).get('emu');
const results = [];
const attempt = async (name, run) => {
  try { results.push(name + ': ' + (await run())); } catch (error) { results.push(name + ': ' + error.name); }
};
const post = (path, body) => fetch(emu + path, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) }).then((r) => r.type);
await attempt('fault', () => post('/console/api/faults', { kind: 'fail-http', status: 503, count: 5, pathPrefix: '/healthz' }));
await attempt('act', () => post('/console/api/act', { kind: 'typing', userId: new URLSearchParams(location.search).get('user'), channelId: new URLSearchParams(location.search).get('channel') }));
await attempt('webhook', () => post('/emulator/webhooks', { channel: 'general', name: 'Planted' }));
await attempt('read accounts', () => fetch(emu + '/console/accounts').then((r) => r.text()));
await attempt('read webhooks', () => fetch(emu + '/emulator/webhooks').then((r) => r.text()));
// A text/plain form whose one field spells JSON: name '{"kind":…,"x":"' and value '"}' join as '{"kind":…,"x":"="}'.
const form = document.getElementById('form');
const field = document.getElementById('field');
form.action = emu + '/console/api/faults';
field.name = '{"kind":"fail-http","status":503,"count":5,"pathPrefix":"/healthz","x":"';
field.value = '"}';
const sent = new Promise((resolve) => document.querySelector('iframe').addEventListener('load', resolve, { once: true }));
form.submit();
await sent;
results.push('form: submitted');
document.body.dataset.result = results.join('\\n');
</script>`;

describe.skipIf(!runBrowserTests)('the console and the test API against other pages, in Chromium', () => {
  let emu: Emulator;
  let attacker: Server;
  let attackerPort: number;
  let browser: Browser;
  const secrets = () => [...emu.credentials().map((a) => a.token), ...emu.webhooks().map((h) => h.token)];

  beforeAll(async () => {
    emu = await startEmulator({ seed: DEFAULT_WORLD });
    attacker = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ATTACK));
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    attackerPort = (attacker.address() as AddressInfo).port;
    // What the attacker's DNS server would answer: its names point at this machine.
    browser = await launchChromium(['--host-resolver-rules=MAP attacker.test 127.0.0.1, MAP rebind.test 127.0.0.1']);
  });

  afterAll(async () => {
    await browser?.close();
    await emu?.close();
    await new Promise((resolve) => (attacker ? attacker.close(resolve) : resolve(undefined)));
  });

  it('a page of another site can neither inject faults, act as a user, plant a webhook, nor read a key', async () => {
    const events: string[] = [];
    emu.onEvent((type) => events.push(type));
    const hooks = emu.webhooks().map((h) => h.id);
    const alice = emu.credentials().find((a) => a.username === 'alice')!;
    const general = emu.channels(emu.clans()[0]!.id).find((c) => c.channel_label === 'general')!.id;
    const page = await browser.newPage();
    const query = new URLSearchParams({ emu: emu.url, user: alice.id, channel: general });
    await page.goto(`http://attacker.test:${attackerPort}/?${query}`);
    await page.waitForSelector('body[data-result]', { state: 'attached', timeout: 30_000 });
    const result = (await page.getAttribute('body', 'data-result')) ?? '';

    // The no-cors posts went out (opaque answers), the reads failed in the browser, the form was sent.
    expect(result.split('\n')).toEqual(['fault: opaque', 'act: opaque', 'webhook: opaque', 'read accounts: TypeError', 'read webhooks: TypeError', 'form: submitted']);
    // And the emulator did none of it.
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
    expect(events).toEqual([]);
    expect(emu.webhooks().map((h) => h.id)).toEqual(hooks);
    expect(emu.wire.requests('/emulator/webhooks').map((r) => [r.method, r.status])).toEqual([
      ['POST', 403],
      ['GET', 403],
    ]);
    const frame = page.frames().find((f) => f.name() === 'sink')!;
    expect(await frame.content()).toContain('requests from pages of other origins are refused here');
    for (const secret of secrets()) expect(await frame.content()).not.toContain(secret);
    await page.close();
  });

  it('DNS rebinding: a page addressed by a foreign name gets no API key and no webhook token', async () => {
    const hooks = emu.webhooks().map((h) => h.id);
    const page = await browser.newPage();
    // The attacker's name now resolves to 127.0.0.1, at the emulator's port: the browser calls it same-origin.
    const accounts = await page.goto(`http://rebind.test:${emu.port}/console/accounts`);
    expect(accounts?.status()).toBe(403);
    const shown = await page.content();
    expect(shown).toContain('the Host header must name this machine');
    for (const secret of secrets()) expect(shown).not.toContain(secret);
    const reads = await page.evaluate(async () => {
      const list = await fetch('/emulator/webhooks');
      const made = await fetch('/emulator/webhooks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channel: 'general', name: 'Planted' }) });
      const world = await fetch('/console/api/world');
      const fault = await fetch('/console/api/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'fail-http', status: 503, pathPrefix: '/healthz' }) });
      return { statuses: [list.status, made.status, world.status, fault.status], text: (await list.text()) + (await made.text()) };
    });
    expect(reads.statuses).toEqual([403, 403, 403, 403]);
    for (const secret of secrets()) expect(reads.text).not.toContain(secret);
    expect(emu.webhooks().map((h) => h.id)).toEqual(hooks);
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
    expect((await page.goto(`http://rebind.test:${emu.port}/`))?.status()).toBe(403);
    await page.close();
  });

  it('the console page itself, addressed as localhost, still reads its accounts and injects faults', async () => {
    const page = await browser.newPage();
    // The page and its own calls, addressed as localhost (a loopback name), from its own origin.
    expect((await page.goto(`http://localhost:${emu.port}/`))?.status()).toBe(200);
    const statuses = await page.evaluate(async () => {
      const accounts = await fetch('/console/accounts');
      const fault = await fetch('/console/api/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'fail-http', status: 503, pathPrefix: '/healthz' }) });
      return [accounts.status, fault.status];
    });
    expect(statuses).toEqual([200, 200]);
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(503);
    await page.close();
  });
});
