import { request, createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../../src/emulator/index.js';
import { mountWebConsole, StaticPages } from '../../../src/emulator/console/index.js';
import { consoleAllows, exposureWarning, isLoopbackAddress, isLoopbackHost, REMOTE_REFUSAL } from '../../../src/emulator/console/remote-access.js';

describe('who may use the console', () => {
  it('knows loopback addresses in every spelling, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address)).toBe(true);
    for (const address of ['10.0.0.1', '192.168.1.2', '0.0.0.0', '::', '::ffff:10.0.0.1', 'fe80::1', 'localhost', '', undefined]) expect(isLoopbackAddress(address)).toBe(false);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('::')).toBe(false);
  });

  it('lets loopback clients in, others only when remote access is on', () => {
    const from = (remoteAddress: string | undefined) => ({ socket: { remoteAddress }, headers: { host: '127.0.0.1:7350' }, method: 'GET' }) as Parameters<typeof consoleAllows>[0];
    expect(consoleAllows(from('127.0.0.1'), false)).toBe(true);
    expect(consoleAllows(from('::1'), false)).toBe(true);
    expect(consoleAllows(from('10.1.2.3'), false)).toBe(false);
    expect(consoleAllows(from(undefined), false)).toBe(false);
    expect(consoleAllows(from('10.1.2.3'), true)).toBe(true);
  });

  it('warns about exposure, and says what the console does in each case', () => {
    const closed = exposureWarning('0.0.0.0', false);
    expect(closed).toMatch(/^WARNING: the emulator listens on 0\.0\.0\.0/);
    expect(closed).toContain('test server');
    expect(closed).toContain('--allow-remote-console');
    expect(exposureWarning('0.0.0.0', true)).toContain('anyone who can reach it can read every API key');
  });
});

describe('the console behind a socket that is not loopback', () => {
  let emu: Emulator | undefined;
  let server: Server | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await emu?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    emu = server = dir = undefined;
  });

  /** The console of a real emulator served on a Unix socket too: its clients have no IP address at all. */
  async function serveOnUnixSocket(allowRemote: boolean): Promise<(path: string, method?: string) => Promise<{ status: number; body: string }>> {
    emu = await startEmulator({ seed: { users: [{ username: 'alice' }] } });
    const pages = new StaticPages();
    mountWebConsole(pages, emu, { allowRemote });
    server = createServer((req, res) => {
      if (!pages.handle(req, res)) res.writeHead(404).end();
    });
    dir = mkdtempSync(join(tmpdir(), 'console-'));
    const socketPath = join(dir, 'console.sock');
    await new Promise<void>((resolve) => server!.listen(socketPath, resolve));
    return (path, method = 'GET') =>
      new Promise((resolve, reject) => {
        const req = request({ socketPath, path, method, headers: { 'content-type': 'application/json' } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end(method === 'POST' ? JSON.stringify({ kind: 'drop' }) : undefined);
      });
  }

  it('refuses the page, the accounts, the API and the faults with 403, naming the option and no key', async () => {
    const get = await serveOnUnixSocket(false);
    for (const [path, method] of [['/', 'GET'], ['/console/accounts', 'GET'], ['/console/app.js', 'GET'], ['/console/api/world', 'GET'], ['/console/api/faults', 'POST']] as const) {
      const answer = await get(path, method);
      expect(answer.status).toBe(403);
      expect(answer.body).toBe(REMOTE_REFUSAL);
    }
    // The same console answers on the emulator's own loopback address.
    const local = (await (await fetch(`${emu!.url}/console/accounts`)).json()) as { accounts: Array<{ username: string; token: string }> };
    expect(local.accounts.map((a) => a.username)).toEqual(['alice']);
    expect(REMOTE_REFUSAL).not.toContain(local.accounts[0]!.token);
  });

  it('serves them when allowRemoteConsole is on', async () => {
    const get = await serveOnUnixSocket(true);
    const answer = await get('/console/accounts');
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as { accounts: Array<{ username: string }> }).accounts.map((a) => a.username)).toEqual(['alice']);
  });

  it('is the emulator option allowRemoteConsole, off by default', async () => {
    emu = await startEmulator();
    expect(emu.options.allowRemoteConsole).toBe(false);
    await emu.close();
    emu = await startEmulator({ allowRemoteConsole: true });
    expect(emu.options.allowRemoteConsole).toBe(true);
  });
});
