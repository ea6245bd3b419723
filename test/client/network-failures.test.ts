/**
 * Every network failure names what it tried: the address (secrets removed),
 * the likely cause, and the setting to change. Real processes and sockets on
 * 127.0.0.1: a refused port, TLS spoken to a plain HTTP server, a name that
 * does not resolve (the `.invalid` TLD: no network needed), for REST and for
 * the gateway socket; what CLANSTREAM_DEBUG=1 and a logger print for a
 * failed login; and the browser bundle loaded in Node without a WebSocket.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, ServiceClient, type ClientConfigDto } from '../../src/index.js';
import { BROWSER_BUILD } from '../../src/emulator/console/browser-build.js';
import { authenticate } from '../helpers/raw.js';
import { rejection } from '../helpers/outcomes.js';
import { deadPort, Tracker } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

const BOT = { botId: '1840000000000000001', token: 'network-failure-api-key-0001' };
const QUICK: Partial<ClientConfigDto> = { apiRetry: { retries: 0 }, reconnect: { baseMs: 1, capMs: 2, loginAttempts: 1 }, unhandledErrors: 'silent' };

/** The message of what login() rejected with, after checking its type. */
async function loginFailure(client: ServiceClient, type: typeof ApiError | typeof ConnectionError): Promise<string> {
  const error = await rejection(client.login());
  expect(error).toBeInstanceOf(type);
  return (error as Error).message;
}

/** A client whose gateway address (the session's ws_url) is `wsUrl`; REST goes to a working emulator. */
async function gatewayAt(wsUrl: string): Promise<ServiceClient> {
  const w = await t.world();
  const session = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
  const client = t.client(w, QUICK);
  client.initManager(w.emu.url, { ...session, ws_url: wsUrl });
  return client;
}

describe('REST: every failure names the URL, the cause and the setting', () => {
  it('a refused port: nothing listens there; correct host and port', async () => {
    const port = await deadPort();
    const client = t.track(new ServiceClient({ ...BOT, ...QUICK, host: '127.0.0.1', port: String(port), useSSL: false }));
    expect(await loginFailure(client, ApiError)).toBe(
      `POST /v2/apps/authenticate/token failed (no response network_error): could not reach http://127.0.0.1:${port}/v2/apps/authenticate/token: nothing listens on 127.0.0.1:${port} (ECONNREFUSED): start the server, or correct \`host\`, \`port\` and \`useSSL\``,
    );
  });

  it('TLS against a plain HTTP server (useSSL left at its default): the server answered in plain HTTP; set useSSL: false', async () => {
    const w = await t.world();
    const client = t.track(new ServiceClient({ ...BOT, ...QUICK, host: '127.0.0.1', port: String(w.emu.port) }));
    const message = await loginFailure(client, ApiError);
    expect(message).toMatch(
      new RegExp(`could not reach https://127\\.0\\.0\\.1:${w.emu.port}/v2/apps/authenticate/token: 127\\.0\\.0\\.1:${w.emu.port} answered in plain HTTP, not TLS \\(ERR_SSL_[A-Z_]+\\): set \`useSSL: false\`$`),
    );
    // The server did answer; it was never told "could not be reached".
    expect(message).not.toContain('could not be reached');
  });

  it('a name that does not resolve: correct host', async () => {
    const client = t.track(new ServiceClient({ ...BOT, ...QUICK, host: 'clanstream-test.invalid', port: '8080', useSSL: false }));
    expect(await loginFailure(client, ApiError)).toMatch(
      /could not reach http:\/\/clanstream-test\.invalid:8080\/v2\/apps\/authenticate\/token: the name clanstream-test\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN)\): correct `host`, `port` and `useSSL`$/,
    );
  });

  it('no host given: the error says the default production host was used, and which setting to set', async () => {
    // The default host, sent to a `.invalid` twin: the same failure, with no network needed.
    const fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch((input as string).replace('gateway.clanstream.chat', 'gateway.clanstream.invalid'), init);
    const client = t.track(new ServiceClient({ ...BOT, ...QUICK, fetch }));
    expect(await loginFailure(client, ApiError)).toMatch(
      /could not reach https:\/\/gateway\.clanstream\.chat\/v2\/apps\/authenticate\/token: the name gateway\.clanstream\.chat does not resolve \((ENOTFOUND|EAI_AGAIN)\): correct `host` \(not set, so the default gateway\.clanstream\.chat was used\), `port` and `useSSL`$/,
    );
  });
});

describe('the gateway socket: every failure names the URL (token removed) and the cause', () => {
  it('a refused port', async () => {
    const port = await deadPort();
    const message = await loginFailure(await gatewayAt(`ws://127.0.0.1:${port}`), ConnectionError);
    expect(message).toContain(`could not reach ws://127.0.0.1:${port}/ws: nothing listens on 127.0.0.1:${port} (ECONNREFUSED): start the server, or correct the \`ws_url\` the server named at login`);
    expect(message).not.toMatch(/token=/);
  });

  it('TLS (wss) against a plain server', async () => {
    const w = await t.world();
    const message = await loginFailure(await gatewayAt(`wss://127.0.0.1:${w.emu.port}`), ConnectionError);
    expect(message).toContain(`could not reach wss://127.0.0.1:${w.emu.port}/ws: 127.0.0.1:${w.emu.port} answered in plain HTTP, not TLS (EPROTO): use an address without TLS (http://, ws://) in the \`ws_url\``);
  });

  it('a name that does not resolve', async () => {
    const message = await loginFailure(await gatewayAt('ws://gateway-test.invalid:8080'), ConnectionError);
    expect(message).toMatch(/could not reach ws:\/\/gateway-test\.invalid:8080\/ws: the name gateway-test\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN)\)/);
  });
});

/** Runs test/client/fixtures/failed-login.ts in its own process against a port nothing listens on. */
function runFailedLogin(port: number, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = fileURLToPath(new URL('./fixtures/failed-login.ts', import.meta.url));
  const { CLANSTREAM_DEBUG: _own, DEBUG: _debug, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...inherited, PORT: String(port), ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('a failed login is narrated', () => {
  it('CLANSTREAM_DEBUG=1 prints which URL was tried and what answered, on stderr', async () => {
    const port = await deadPort();
    const run = await runFailedLogin(port, [], { CLANSTREAM_DEBUG: '1' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`rejected: POST /v2/apps/authenticate/token failed (no response network_error): could not reach http://127.0.0.1:${port}/v2/apps/authenticate/token`);
    expect(run.stderr).toContain(`clanstream:http POST http://127.0.0.1:${port}/v2/apps/authenticate/token failed: POST /v2/apps/authenticate/token failed (no response network_error): could not reach`);
    expect(run.stderr).toContain('(ECONNREFUSED)');
    expect(run.stderr).not.toContain('failed-login-api-key-0001');
  }, 30_000);

  it('a logger hears the attempt, each request and the failure', async () => {
    const port = await deadPort();
    const run = await runFailedLogin(port, ['logger'], { CLANSTREAM_DEBUG: '1' });
    const lines = run.stdout.split('\n');
    expect(lines).toContain(`info logging in to http://127.0.0.1:${port} as 1840000000000000001`);
    expect(lines.some((line) => line.startsWith(`debug clanstream:http POST http://127.0.0.1:${port}/v2/apps/authenticate/token failed: `))).toBe(true);
    expect(lines.some((line) => line.startsWith('warn login failed: POST /v2/apps/authenticate/token failed (no response network_error): could not reach '))).toBe(true);
    // With a logger, nothing goes to stderr.
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('failed-login-api-key-0001');
  }, 30_000);
});

describe('the browser bundle loaded in Node 20', () => {
  it('says a WebSocket implementation is needed, and which, instead of "e is not a constructor"', async () => {
    expect(typeof (globalThis as { WebSocket?: unknown }).WebSocket, 'this test is about a Node without a global WebSocket').toBe('undefined');
    const w = await t.world();
    const dir = await mkdtemp(join(tmpdir(), 'clanstream-browser-'));
    t.onCleanup(() => rm(dir, { recursive: true, force: true }));
    // The browser bundle as tsup builds dist/browser/clanstream.js: minified (the error names are the classes' own), isomorphic-ws resolved to the browser's WebSocket.
    const bundle = join(dir, 'clanstream.mjs');
    await build({ ...BROWSER_BUILD, entryPoints: [fileURLToPath(new URL('../../src/index.ts', import.meta.url))], outfile: bundle, logLevel: 'silent' });
    const script = join(dir, 'bot.mjs');
    await writeFile(
      script,
      `import { ServiceClient } from ${JSON.stringify(pathToFileURL(bundle).href)};
const client = new ServiceClient({ botId: ${JSON.stringify(w.bot.botId)}, token: ${JSON.stringify(w.bot.token)}, host: '127.0.0.1', port: '${w.emu.port}', useSSL: false });
try { await client.login(); console.log('logged in?'); } catch (error) { console.log(error.name + ': ' + error.message); } finally { client.destroy(); }
`,
    );
    const output = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', () => resolve(out.trim()));
    });
    expect(output).toBe('ConnectionError: no WebSocket in this runtime (the browser build in Node before 22?): pass one as the `WebSocket` option, e.g. `import WebSocket from "ws"`');
    expect(output).not.toContain('is not a constructor');
    // It stopped before sending anything.
    expect(w.emu.wire.requests('/v2/')).toEqual([]);
  });
});
