/**
 * The routes that hand out credentials or act as anyone (the web console and
 * the test API) under raw requests from this machine that a browser would
 * send for a hostile page: a foreign Host (DNS rebinding), a foreign Origin,
 * cross-site fetch metadata, a body that is not JSON (a no-cors POST), and a
 * CORS setting of "*". Chromium drives the same attacks in
 * test/browser/console/cross-site.test.ts.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORLD, startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { localAccessRefusal } from '../../src/emulator/http/local-access.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly the headers given (fetch would not let a test set Host). */
function raw(emu: Emulator, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: emu.port, method, path, headers: { ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}), ...headers }, setHost: false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const emulators: Emulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await startEmulator({ seed: DEFAULT_WORLD, ...options });
  emulators.push(emu);
  return emu;
}

/** Every secret the guarded routes could hand out: API keys and webhook tokens. */
const secretsOf = (emu: Emulator): string[] => [...emu.credentials().map((a) => a.token), ...emu.webhooks().map((h) => h.token)];

/** The guarded routes, each with a request that would change something or hand out a secret. */
const ROUTES = (emu: Emulator) => {
  const general = emu.channels(emu.clans()[0]!.id).find((c) => c.channel_label === 'general')!.id;
  return [
    { method: 'GET', path: '/' },
    { method: 'GET', path: '/console/accounts' },
    { method: 'GET', path: '/console/app.js' },
    { method: 'GET', path: '/console/api/world' },
    { method: 'GET', path: '/console/api/wire' },
    { method: 'POST', path: '/console/api/faults', body: JSON.stringify({ kind: 'fail-http', status: 503, count: 1, pathPrefix: '/healthz' }) },
    { method: 'POST', path: '/console/api/act', body: JSON.stringify({ kind: 'typing', userId: emu.credentials()[0]!.id, channelId: general }) },
    { method: 'GET', path: '/emulator/webhooks' },
    { method: 'POST', path: '/emulator/webhooks', body: JSON.stringify({ channel: general, name: 'Planted' }) },
  ];
};

/** Nothing any guarded request could have changed did change: no webhook planted, no fault queued, no event (a typing notice) pushed. */
async function expectUntouched(emu: Emulator, webhooks: number, events: string[]): Promise<void> {
  expect(emu.webhooks()).toHaveLength(webhooks);
  expect(emu.webhooks().map((h) => h.name)).not.toContain('Planted');
  expect((await fetch(`${emu.url}/healthz`)).status).toBe(200);
  expect(events).toEqual([]);
}

describe('the console and the test API refuse requests a hostile page can make', () => {
  it.each([
    ['a foreign Host (DNS rebinding: a name the attacker owns, resolving to 127.0.0.1)', (port: number) => ({ host: `rebind.attacker.example:${port}` }), 403],
    ['a foreign Host with a loopback-looking name', (port: number) => ({ host: `127.0.0.1.attacker.example:${port}` }), 403],
    // node:http itself answers an HTTP/1.1 request without Host with 400, before any route.
    ['no Host at all', () => ({}), 400],
    ['a foreign Origin', (port: number) => ({ host: `127.0.0.1:${port}`, origin: 'http://attacker.example' }), 403],
    ['Origin null (a sandboxed frame or a data: page)', (port: number) => ({ host: `127.0.0.1:${port}`, origin: 'null' }), 403],
    ['another port on the same host (another origin)', (port: number) => ({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port + 1}` }), 403],
    ['Sec-Fetch-Site cross-site without an Origin', (port: number) => ({ host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' }), 403],
  ])('%s: refused on every route, no secret in the answer, nothing changed', async (_name, headersFor, status) => {
    const emu = await emulator();
    const events: string[] = [];
    emu.onEvent((type) => events.push(type));
    const hooks = emu.webhooks().length;
    for (const route of ROUTES(emu)) {
      const answer = await raw(emu, route.method, route.path, { ...headersFor(emu.port), ...(route.body ? { 'content-type': 'application/json' } : {}) }, route.body);
      expect([route.path, answer.status]).toEqual([route.path, status]);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      for (const secret of secretsOf(emu)) expect(answer.body).not.toContain(secret);
    }
    await expectUntouched(emu, hooks, events);
  });

  it('a body that is not application/json (what a no-cors POST can send: text/plain, a form) is 415 and changes nothing', async () => {
    const emu = await emulator();
    const events: string[] = [];
    emu.onEvent((type) => events.push(type));
    const hooks = emu.webhooks().length;
    for (const route of ROUTES(emu).filter((r) => r.method === 'POST')) {
      for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
        const answer = await raw(emu, 'POST', route.path, { host: `127.0.0.1:${emu.port}`, ...(type ? { 'content-type': type } : {}) }, route.body);
        expect([route.path, type, answer.status]).toEqual([route.path, type, 415]);
      }
    }
    await expectUntouched(emu, hooks, events);
  });

  it('serves its own page and tools: loopback Hosts, localhost, the same origin, fetch metadata of its own page, a navigation from elsewhere', async () => {
    const emu = await emulator();
    const port = emu.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `console.localhost:${port}`, `127.0.0.2:${port}`, `[::1]:${port}`, 'localhost']) {
      const answer = await raw(emu, 'GET', '/console/accounts', { host });
      expect([host, answer.status]).toEqual([host, 200]);
    }
    const own = { host: `localhost:${port}`, origin: `http://localhost:${port}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
    expect((await raw(emu, 'POST', '/console/api/faults', own, JSON.stringify({ kind: 'fail-http', status: 503, count: 1, pathPrefix: '/healthz' }))).status).toBe(200);
    expect((await fetch(`${emu.url}/healthz`)).status).toBe(503);
    const events: string[] = [];
    emu.onEvent((type) => events.push(type));
    const act = ROUTES(emu).find((r) => r.path === '/console/api/act')!;
    expect((await raw(emu, 'POST', act.path, own, act.body)).status).toBe(200);
    expect(events).toEqual(['message_typing_event']);
    expect((await raw(emu, 'POST', '/emulator/webhooks', own, JSON.stringify({ channel: 'general', name: 'Mine' }))).status).toBe(200);
    expect(emu.webhooks().map((h) => h.name)).toContain('Mine');
    // A person following a link from another site sees the page; the other site gets nothing from a navigation.
    const navigation = await raw(emu, 'GET', '/', { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
    expect(navigation.status).toBe(200);
    // A navigation that posts (a form on another site) is refused by its Origin.
    const formPost = await raw(emu, 'POST', '/console/api/faults', { host: `127.0.0.1:${port}`, origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'content-type': 'application/json' }, '{"kind":"drop"}');
    expect(formPost.status).toBe(403);
  });

  it('accepts the Host and Origin of the public URL (a proxy in front of the emulator)', async () => {
    const emu = await emulator({ publicUrl: 'https://emulator.test.internal:8443' });
    const host = { host: 'emulator.test.internal:8443', origin: 'https://emulator.test.internal:8443' };
    expect((await raw(emu, 'GET', '/console/accounts', host)).status).toBe(200);
    expect((await raw(emu, 'GET', '/emulator/webhooks', host)).status).toBe(200);
    expect((await raw(emu, 'GET', '/console/accounts', { host: 'other.test.internal:8443' })).status).toBe(403);
  });

  it('with corsOrigins "*": the platform API gets CORS headers, the test API and the console never do', async () => {
    const emu = await emulator({ corsOrigins: ['*'] });
    const from = { host: `127.0.0.1:${emu.port}`, origin: 'http://attacker.example' };
    const platform = await raw(emu, 'GET', '/healthz', from);
    expect(platform.headers['access-control-allow-origin']).toBe('*');
    const preflight = await raw(emu, 'OPTIONS', '/emulator/webhooks', { ...from, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const list = await raw(emu, 'GET', '/emulator/webhooks', from);
    expect(list.status).toBe(403);
    expect(list.headers['access-control-allow-origin']).toBeUndefined();
    for (const secret of secretsOf(emu)) expect(list.body).not.toContain(secret);
    const accounts = await raw(emu, 'GET', '/console/accounts', from);
    expect([accounts.status, accounts.headers['access-control-allow-origin']]).toEqual([403, undefined]);
  });

  it('with the console open to other machines, a Host must still be an IP address or a loopback name', () => {
    const policy = { allowRemote: true, knownOrigins: () => [] };
    const from = (host: string) => ({ socket: { remoteAddress: '10.1.2.3' }, headers: { host }, method: 'GET' }) as never;
    expect(localAccessRefusal(from('10.0.0.5:7350'), policy)).toBeUndefined();
    expect(localAccessRefusal(from('[fd00::5]:7350'), policy)).toBeUndefined();
    expect(localAccessRefusal(from('rebind.attacker.example:7350'), policy)).toMatchObject({ status: 403, reason: 'host' });
    // Closed to other machines, an address of this machine that is not loopback is refused too.
    expect(localAccessRefusal({ socket: { remoteAddress: '127.0.0.1' }, headers: { host: '10.0.0.5:7350' }, method: 'GET' } as never, { ...policy, allowRemote: false })).toMatchObject({ reason: 'host' });
  });
});
