/**
 * Logging in (SPEC §4.1.1, §5): login() against the emulator, what goes over
 * the wire, how failures surface, secrets kept out of every output, Session
 * and SessionManager (SPEC §4.1.2), restoring a stored session, and a process
 * that can exit after closeSocket().
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import util from 'node:util';
import { asyncScheduler } from 'rxjs';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  ClosedError,
  ConnectionError,
  ServiceApi,
  ServiceClient,
  Session,
  SessionManager,
  ValidationError,
  type ClientConfigDto,
  type LifecycleEvent,
  type Logger,
  type WebSocketLike,
} from '../../src/index.js';
import { authenticate, http } from '../helpers/raw.js';
import { until } from '../helpers/client.js';
import { TrackingScheduler } from '../helpers/tracking-scheduler.js';
import { trackingWebSocket } from '../helpers/tracking-websocket.js';
import { startFaultProxy } from '../support/fault-proxy.js';
import { countingFetch, deadPort, fakeJwt, sleep, Tracker } from './support.js';
import { API_PREFIX, clanJoinBodies, httpRoute, inProduction, SESSION_REFRESH, SESSION_START_OP } from '../support/protocol-under-test.js';

/** The clan list's route in this run. */
const CLANS = httpRoute({ route: 'GET /v2/clans', path: '/v2/clans' }, 'ListClanDescs');

const t = new Tracker();
afterEach(() => t.cleanup());

/** A logger that keeps every line (message and details, as text). */
function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (message: string, ...details: unknown[]) =>
      lines.push(`${level} ${message} ${details.map((d) => (typeof d === 'string' ? d : JSON.stringify(d))).join(' ')}`);
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A WebSocket constructor (the `ws` one) that counts the sockets it opened. */
function countingWebSocket(): { WebSocket: WebSocketLike; opened: () => number } {
  let opened = 0;
  class Counting extends WebSocket {
    constructor(url: string) {
      super(url);
      opened += 1;
    }
  }
  return { WebSocket: Counting as unknown as WebSocketLike, opened: () => opened };
}

describe('login()', () => {
  it('resolves "ready", sets clientId, and status$ goes connecting → ready', async () => {
    const w = await t.world();
    const client = t.client(w);
    const statuses = t.record(client.status$);
    const lifecycle = t.record(client.lifecycle$);
    expect(client.clientId).toBeUndefined();
    // Before login() the status says so, rather than "closed".
    expect(client.status).toBe('not_logged_in');

    await expect(client.login()).resolves.toBe('ready');

    expect(client.clientId).toBe(w.bot.botId);
    expect(client.status).toBe('ready');
    // status$ replays the current value ('not_logged_in') to a new subscriber, then moves on.
    expect(statuses).toEqual(['not_logged_in', 'connecting', 'ready']);
    expect(lifecycle).toEqual([{ type: 'ready', sessionId: expect.any(String), userId: w.bot.botId }]);
    const [auth] = w.emu.wire.requests('/v2/apps/authenticate/token');
    expect(auth).toMatchObject({ method: 'POST', status: 200, body: { account: { appid: w.bot.botId, token: '***' } } });
    // One gateway session, started fresh and subscribed to the bot's clan.
    const sessions = w.emu.sessions(w.bot.botId);
    // Production's socket does not name its session: the client names it locally.
    const sessionId = inProduction ? expect.any(String) : (lifecycle[0] as { sessionId: string }).sessionId;
    expect(sessions).toEqual([{ id: sessionId, userId: w.bot.botId, seq: expect.any(Number), connected: true }]);
    expect(w.emu.wire.frames(SESSION_START_OP)).toHaveLength(1);
    expect(w.emu.wire.frames('clan_join').map((f) => f.body)).toEqual(clanJoinBodies([w.clanId]));
  });

  it('shares one attempt between concurrent calls: one authentication, one socket', async () => {
    const w = await t.world();
    const client = t.client(w);
    const results = await Promise.all([client.login(), client.login(), client.login()]);
    expect(results).toEqual(['ready', 'ready', 'ready']);
    expect(w.emu.wire.requests('/v2/apps')).toHaveLength(1);
    expect(w.emu.wire.frames('connect')).toHaveLength(1);
    expect(w.emu.wire.frames(SESSION_START_OP)).toHaveLength(1);
    expect(w.emu.sessions(w.bot.botId)).toHaveLength(1);
  });

  it('changes nothing when called again after success: no second socket, no duplicated events', async () => {
    const w = await t.world();
    const { client, received, lifecycle } = await t.connected(w);
    await expect(client.login()).resolves.toBe('ready');
    await expect(client.login()).resolves.toBe('ready');

    const first = w.emu.as(w.alice.id).send(w.general, 'once');
    const barrier = w.emu.as(w.alice.id).send(w.general, 'barrier');
    await until(() => received.some((m) => m.message_id === barrier.message_id), 'the barrier message');
    expect(received.map((m) => m.message_id)).toEqual([first.message_id, barrier.message_id]);
    expect(w.emu.wire.requests('/v2/apps')).toHaveLength(1);
    expect(w.emu.wire.frames('connect')).toHaveLength(1);
    expect(w.emu.sessions(w.bot.botId)).toHaveLength(1);
    expect(lifecycle.filter((e) => e.type === 'ready')).toHaveLength(1);
  });

  it('rejects a bad API key with an AuthenticationError after exactly one request (no retry storm)', async () => {
    const w = await t.world();
    const badKey = 'not-the-right-key-0123456789';
    const client = t.client(w, {}, { botId: w.bot.botId, token: badKey });
    const error = await client.login().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthenticationError);
    const auth = error as AuthenticationError;
    expect(auth.status).toBe(401);
    expect(auth.message).toMatch(/API key/);
    expect(auth.message).not.toContain(badKey);
    // Nothing keeps trying in the background either.
    await sleep(200);
    expect(w.emu.wire.requests('/v2/apps')).toHaveLength(1);
    expect(w.emu.wire.requests('/v2/apps')[0]?.status).toBe(401);
    expect(w.emu.wire.frames('connect')).toHaveLength(0);
    expect(client.status).toBe('closed');
  });

  it('gives up on an unreachable server after the configured retries, with a clear error', async () => {
    const port = await deadPort();
    const counter = countingFetch();
    const client = t.track(
      new ServiceClient({ botId: '1840000000000000001', token: 'some-api-key', host: '127.0.0.1', port: String(port), useSSL: false, apiRetry: { retries: 2, baseMs: 5, capMs: 20 }, fetch: counter.fetch }),
    );
    const error = await client.login().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    const api = error as ApiError;
    expect(api).toMatchObject({ status: 0, code: 'network_error', route: 'POST /v2/apps/authenticate/token' });
    // The message names the address tried, what it means, and the settings to change.
    expect(api.message).toBe(
      `POST /v2/apps/authenticate/token failed (no response network_error): could not reach http://127.0.0.1:${port}/v2/apps/authenticate/token: nothing listens on 127.0.0.1:${port} (ECONNREFUSED): start the server, or correct \`host\`, \`port\` and \`useSSL\``,
    );
    expect(api.url).toBe(`http://127.0.0.1:${port}/v2/apps/authenticate/token`);
    expect(counter.calls()).toBe(3); // the first attempt and 2 retries
    expect(client.status).toBe('closed');
  });

  it('gives up on an unreachable gateway after loginAttempts sockets, with a fatal ConnectionError', async () => {
    const w = await t.world();
    const session = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
    const port = await deadPort();
    const sockets = countingWebSocket();
    const client = t.client(w, { reconnect: { baseMs: 5, capMs: 20, loginAttempts: 3 }, WebSocket: sockets.WebSocket });
    const errors = t.record(client.errors$);
    client.initManager(w.emu.url, { ...session, ws_url: `ws://127.0.0.1:${port}` });
    const error = await client.login().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ fatal: true, message: expect.stringMatching(/could not connect to the gateway after 3 attempts/) });
    expect(sockets.opened()).toBe(3);
    expect(errors).toContain(error);
    expect(client.status).toBe('closed');
    await sleep(100);
    expect(sockets.opened()).toBe(3);
  });

  it('stops on a fatal close code (4005) and reports a fatal ConnectionError; status becomes closed', async () => {
    const w = await t.world();
    const client = t.client(w);
    const errors = t.record(client.errors$);
    const lifecycle = t.record(client.lifecycle$);
    await client.login();
    w.emu.closeConnections(4005, 'the session was logged out');
    await until(() => errors.some((e) => e instanceof ConnectionError), 'a ConnectionError');
    const fatal = errors.find((e): e is ConnectionError => e instanceof ConnectionError);
    expect(fatal).toMatchObject({ fatal: true, closeCode: 4005 });
    expect(fatal?.message).toMatch(/4005.*not retrying/);
    expect(client.status).toBe('closed');
    expect(lifecycle.at(-1)).toEqual({ type: 'disconnected', code: 4005, reason: 'the session was logged out', willReconnect: false });
    // With reconnect.baseMs at 10 ms, a retry would long have happened.
    await sleep(300);
    expect(w.emu.wire.frames('connect')).toHaveLength(1);
  });

  // Two refusals in a row are fatal: see marbles/reconnect.marbles.ts.
  it('authenticates again once after 4003 (a refused token) and goes on', async () => {
    const w = await t.world();
    const client = t.client(w);
    const errors = t.record(client.errors$);
    const lifecycle = t.record(client.lifecycle$);
    await client.login();
    w.emu.closeConnections(4003, 'the token signature is not valid');
    await until(() => lifecycle.some((e) => e.type === 'reconnected'), 'the reconnection');
    expect(w.emu.wire.requests('/v2/apps/authenticate/token')).toHaveLength(2);
    expect(client.status).toBe('ready');
    expect(errors.filter((e) => e instanceof ConnectionError && e.fatal)).toHaveLength(0);
  });

  it('recovers from a restored session whose token the server refuses, by renewing it once', async () => {
    const w = await t.world();
    const session = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
    const [header, payload] = session.token.split('.');
    const forged = `${header}.${payload}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    const client = t.client(w);
    client.initManager(w.emu.url, { ...session, token: forged });
    await expect(client.login()).resolves.toBe('ready');
    // One refused request, one refresh, then everything runs on the new token.
    expect(w.emu.wire.requests(SESSION_REFRESH.path)).toHaveLength(1);
    expect(w.emu.wire.requests(API_PREFIX).filter((r) => r.status === 401)).toHaveLength(1);
    expect(w.emu.wire.frames('connect')).toHaveLength(1);
    expect(client.status).toBe('ready');
  });
});

describe('configuration', () => {
  it('throws a ValidationError at construction when botId or token is missing', () => {
    const missingBot = () => new ServiceClient({ token: 'an-api-key' } as ClientConfigDto);
    expect(missingBot).toThrow(ValidationError);
    expect(() => missingBot()).toThrow(/botId/);
    const missingToken = () => new ServiceClient({ botId: '1840000000000000001' } as ClientConfigDto);
    expect(missingToken).toThrow(ValidationError);
    expect(missingToken).toThrow(/token/);
    try {
      new ServiceClient({ botId: '', token: '' });
      expect.unreachable('an empty config must be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['botId', 'token']);
      // Both are in the message, not "(and 1 more)": a newcomer fixes both at once.
      expect((error as ValidationError).message).toBe('Invalid client config: botId: is required: the bot id from the developer portal; token: is required: the bot token (API key)');
    }
  });

  it('applies the SPEC defaults and exposes timeout read-only', () => {
    const client = t.track(new ServiceClient({ botId: '1', token: 'an-api-key' }));
    expect({ host: client.host, port: client.port, useSSL: client.useSSL, timeout: client.timeout }).toEqual({
      host: 'gateway.clanstream.chat',
      port: '443',
      useSSL: true,
      timeout: 7000,
    });
    expect(client.token).toBe('an-api-key');
  });
});

describe('secrets', () => {
  it('never show the API key or session tokens in JSON, inspect output, error messages or logs', async () => {
    const w = await t.world();
    const logger = capturingLogger();
    const client = t.client(w, { logger });
    const errors = t.record(client.errors$);
    await client.login();
    const session = client.sessionManager.getSession();
    if (!session) throw new Error('no session after login');
    const secrets = [w.bot.token, session.token, session.refresh_token];
    // Provoke errors: a REST failure, a listener failure, a bad frame kind and a fatal close.
    const restError = await client.api.getChannel('1999999999999999999').then(
      () => undefined,
      (e: unknown) => e as ApiError,
    );
    expect(restError).toBeInstanceOf(ApiError);
    client.onChannelMessage(() => {
      throw new Error(`listener saw a message (token ${w.bot.token})`);
    });
    w.emu.as(w.alice.id).send(w.general, 'hello');
    await until(() => errors.length > 0, 'the listener error');
    w.emu.closeConnections(4005, 'bye');
    await until(() => errors.some((e) => e instanceof ConnectionError), 'the fatal error');

    const texts = [
      JSON.stringify(client),
      util.inspect(client, { depth: 10 }),
      util.inspect(client, { depth: 10, showHidden: true }),
      String(client),
      JSON.stringify(session),
      util.inspect(session, { depth: 10 }),
      Object.keys(session).join(','),
      restError?.message ?? '',
      JSON.stringify(restError),
      ...logger.lines,
      // The listener error's message repeats what the listener threw; that includes the key on purpose
      // here, and the redacting logger must still remove it.
      ...errors.filter((e) => e.kind !== 'listener').flatMap((e) => [e.message, JSON.stringify(e)]),
    ];
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.some((line) => line.includes('ListenerError'))).toBe(true);
    for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
  });

  // ServiceApi, SessionManager and GatewayConnection keep secrets in #private fields and describe themselves without them.
  it('keeps secrets out of inspect output of client.api, client.sessionManager and client.gateway', async () => {
    const w = await t.world();
    const client = t.client(w);
    await client.login();
    const session = client.sessionManager.getSession();
    if (!session) throw new Error('no session after login');
    const texts = [util.inspect(client.api, { depth: 6 }), util.inspect(client.sessionManager, { depth: 6 }), util.inspect(client.gateway, { depth: 6 })];
    for (const text of texts) for (const secret of [w.bot.token, session.token, session.refresh_token]) expect(text).not.toContain(secret);
  });
});

describe('Session', () => {
  const now = 1_800_000_000;
  const access = (exp: number, extra: Record<string, unknown> = {}) => fakeJwt({ uid: '1840000000000000001', usn: 'clanbot', typ: 'access', exp, vars: { tier: 'gold' }, ...extra });
  const refresh = (exp: number) => fakeJwt({ uid: '1840000000000000001', typ: 'refresh', exp });

  it('reads expiry, user and vars from the tokens and answers isexpired / isrefreshexpired', () => {
    const session = new Session({ token: access(now + 60.5), refresh_token: refresh(now + 3600), created_at: now, api_url: 'http://127.0.0.1:1', ws_url: 'ws://127.0.0.1:1' });
    expect(session).toMatchObject({ created_at: now, expires_at: now + 60.5, refresh_expires_at: now + 3600, user_id: '1840000000000000001', username: 'clanbot', vars: { tier: 'gold' } });
    expect(session.isexpired(now)).toBe(false);
    expect(session.isexpired(now + 60)).toBe(false);
    expect(session.isexpired(now + 60.5)).toBe(true);
    expect(session.isexpired(now + 61)).toBe(true);
    expect(session.isrefreshexpired(now + 3599)).toBe(false);
    expect(session.isrefreshexpired(now + 3600)).toBe(true);
  });

  it('update() replaces both tokens and re-derives expiry and vars', () => {
    const session = new Session({ token: access(now + 60), refresh_token: refresh(now + 120), created_at: now });
    const nextToken = access(now + 600, { vars: { tier: 'platinum' } });
    const nextRefresh = refresh(now + 7200);
    session.update(nextToken, nextRefresh);
    expect(session.token).toBe(nextToken);
    expect(session.refresh_token).toBe(nextRefresh);
    expect(session.expires_at).toBe(now + 600);
    expect(session.refresh_expires_at).toBe(now + 7200);
    expect(session.vars).toEqual({ tier: 'platinum' });
    expect(session.isexpired(now + 300)).toBe(false);
    expect(() => session.update('not-a-jwt', nextRefresh)).toThrow(ValidationError);
  });

  it('restore(toStorable()) gives back an equal session', () => {
    const session = new Session({ token: access(now + 60), refresh_token: refresh(now + 120), created_at: now, user_id: '1840000000000000001', api_url: 'http://a', ws_url: 'ws://a' });
    const stored = session.toStorable();
    expect(stored).toEqual({ token: session.token, refresh_token: session.refresh_token, created_at: now, user_id: '1840000000000000001', username: 'clanbot', api_url: 'http://a', ws_url: 'ws://a', restore_key: session.restore_key });
    const restored = Session.restore(JSON.parse(JSON.stringify(stored)));
    expect(restored).toBeInstanceOf(Session);
    expect(restored.toJSON()).toEqual(session.toJSON());
    expect(restored.token).toBe(session.token);
    expect(restored.refresh_token).toBe(session.refresh_token);
  });

  it('refuses input without token or refresh_token with a ValidationError that does not echo secrets', () => {
    const token = access(now + 60);
    expect(() => new Session({ refresh_token: refresh(now) })).toThrow(ValidationError);
    expect(() => new Session({ token })).toThrow(ValidationError);
    expect(() => new Session({ token: '', refresh_token: refresh(now) })).toThrow(/token/);
    expect(() => new Session(null)).toThrow(ValidationError);
    expect(() => Session.restore({ token })).toThrow(ValidationError);
    try {
      new Session({ token: 'opaque-secret-value-123', refresh_token: refresh(now) });
      expect.unreachable('a token that is not a JWT must be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('token');
      expect((error as Error).message).not.toContain('opaque-secret-value-123');
    }
  });

  it('keeps its tokens out of toJSON, JSON.stringify, Object.keys and inspect output', () => {
    const session = new Session({ token: access(now + 60), refresh_token: refresh(now + 120), created_at: now });
    const texts = [JSON.stringify(session), util.inspect(session, { depth: 5 }), Object.keys(session).join(','), JSON.stringify(session.toJSON())];
    for (const text of texts) {
      expect(text).not.toContain(session.token);
      expect(text).not.toContain(session.refresh_token);
    }
    expect(util.inspect(session)).toMatch(/^Session \{/);
  });
});

describe('SessionManager', () => {
  function apiFor(baseUrl: string): ServiceApi {
    return new ServiceApi({ basePath: baseUrl, timeoutMs: 5000, retries: 0, baseMs: 10, capMs: 50, maxRetryAfterMs: 5000, scheduler: asyncScheduler, random: Math.random });
  }

  it('authenticate() stores a session; logout() revokes it on the server; getSession() follows', async () => {
    const w = await t.world();
    const manager = new SessionManager(apiFor(w.emu.url), undefined, { appId: w.bot.botId });
    expect(manager.getSession()).toBeUndefined();
    await expect(manager.logout()).resolves.toBe(false);

    const session = await manager.authenticate(w.bot.token);
    expect(session).toBeInstanceOf(Session);
    expect(manager.getSession()).toBe(session);
    expect(session).toMatchObject({ user_id: w.bot.botId, username: w.bot.username, api_url: w.emu.url });
    expect(session.expires_at).toBeGreaterThan(Date.now() / 1000);
    expect((await http(w.emu.url, 'GET', '/v2/clans', { token: session.token })).status).toBe(200);

    await expect(manager.logout()).resolves.toBe(true);
    expect(manager.getSession()).toBeUndefined();
    expect(w.emu.wire.requests('/v2/session/logout').map((r) => r.status)).toEqual([200]);
    const after = await http<{ code: string; message: string }>(w.emu.url, 'GET', '/v2/clans', { token: session.token });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 'unauthenticated', message: 'the session was logged out' });
  });

  it('authenticate() turns a refused key into an AuthenticationError and keeps no session', async () => {
    const w = await t.world();
    const manager = new SessionManager(apiFor(w.emu.url), undefined, { appId: w.bot.botId });
    await expect(manager.authenticate('wrong-key-123456')).rejects.toBeInstanceOf(AuthenticationError);
    expect(manager.getSession()).toBeUndefined();
  });

  it('starts with a restored session and refreshes it over the wire', async () => {
    const w = await t.world();
    const raw = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
    const restored = Session.restore(raw);
    const manager = new SessionManager(apiFor(w.emu.url), restored);
    expect(manager.getSession()).toBe(restored);
    const before = restored.token;
    const refreshed = await manager.refresh();
    expect(refreshed).toBe(restored);
    expect(refreshed.token).not.toBe(before);
    expect(w.emu.wire.requests('/v2/account/session/refresh').map((r) => r.status)).toEqual([200]);
    expect((await http(w.emu.url, 'GET', '/v2/clans', { token: refreshed.token })).status).toBe(200);
  });
});

describe('initManager(basePath, storedSession)', () => {
  it('makes login() skip authentication and connect with the stored session', async () => {
    const w = await t.world();
    const stored = Session.restore(await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token })).toStorable();
    w.emu.wire.clear();
    const client = t.client(w);
    client.initManager(w.emu.url, stored);
    expect(client.loginBasePath).toBe(w.emu.url);
    await expect(client.login()).resolves.toBe('ready');
    expect(client.clientId).toBe(w.bot.botId);
    expect(w.emu.wire.requests('/v2/apps')).toHaveLength(0);
    expect(w.emu.wire.frames('connect')).toHaveLength(1);
    expect(w.emu.sessions(w.bot.botId)).toEqual([expect.objectContaining({ connected: true })]);
  });

  it('refreshes a stored session whose token has expired instead of authenticating', async () => {
    const w = await t.world();
    const stored = Session.restore(await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token })).toStorable();
    w.emu.expireTokens();
    w.emu.wire.clear();
    // The emulator ages tokens server-side; the client only learns from a 4004 at connect.
    const client = t.client(w);
    const lifecycle = t.record(client.lifecycle$);
    client.initManager(w.emu.url, stored);
    await expect(client.login()).resolves.toBe('ready');
    expect(w.emu.wire.requests('/v2/apps')).toHaveLength(0);
    expect(w.emu.wire.requests(SESSION_REFRESH.path).map((r) => r.status)).toEqual([200]);
    expect(lifecycle.map((e: LifecycleEvent) => e.type)).toEqual(['ready']);
  });
});

/** Runs test/client/fixtures/exit.ts in a child process; resolves with how it ended (killed if it hangs). */
async function runChild(scenario: string, boundMs: number): Promise<{ code: number | null; hung: boolean; stdout: string; stderr: string }> {
  const script = fileURLToPath(new URL('./fixtures/exit.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, scenario], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, hung: true, stdout, stderr });
    }, boundMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, hung: false, stdout, stderr });
    });
  });
}

describe('closeSocket()', () => {
  // Liveness checks, not timing assertions: a leaked timer or socket keeps the child alive forever, so
  // the bound only needs to be far above the normal run (about 2 s, mostly tsx start-up).
  it('lets the process exit by itself after logging in, receiving, calling the API and closing', async () => {
    const run = await runChild('close-socket', 25_000);
    expect({ code: run.code, hung: run.hung, stderr: run.stderr }).toEqual({ code: 0, hung: false, stderr: '' });
    expect(run.stdout).toContain('logged in as');
    expect(run.stdout).toContain('received: ping / ping');
    expect(run.stdout).toContain('closed');
  }, 30_000);

  // A failed login leaves no timer behind: the process can exit by itself.
  it('lets the process exit by itself after a failed login', async () => {
    // The same bound as above: below ws's 30 s close timer (a leak it must catch), above a loaded machine's start-up.
    const run = await runChild('failed-login', 25_000);
    expect(run.stdout).toContain('login: ConnectionError');
    expect({ code: run.code, hung: run.hung, stderr: run.stderr }).toEqual({ code: 0, hung: false, stderr: '' });
  }, 30_000);

  // Found by the reliability suite: over a stalled network the close handshake never completes, and ws kept the
  // socket (and its 30 s close timer) until it gave up, so the process could not exit after closeSocket().
  it('lets go of its gateway socket at once when closed while the network is stalled', async () => {
    const w = await t.world();
    const proxy = await startFaultProxy({ target: { host: '127.0.0.1', port: w.emu.port } });
    t.onCleanup(() => proxy.close());
    w.emu.setPublicUrl(proxy.url);
    const sockets = trackingWebSocket();
    const client = t.client(w, { host: '127.0.0.1', port: String(proxy.port), WebSocket: sockets.WebSocket });
    await client.login();
    expect(sockets.open()).toBe(1);
    proxy.stall(true);
    client.closeSocket();
    // A liveness bound far below ws's 30 s close timeout, not a timing assertion.
    await until(() => sockets.open() === 0, `the socket to close (${sockets.describe().join(', ')})`, 5000);
    // Once the network flows again, the server learns that the socket is gone.
    proxy.stall(false);
    await until(() => w.emu.sessions(w.bot.botId).every((s) => !s.connected), 'the emulator to see the socket gone');
  });

  // Found by the reliability suite: a resync waiting out a 429 kept its retry timer through closeSocket(), then sent
  // its request anyway and armed a 7 s timeout, so the process could not exit and the closed client kept working.
  it('cancels REST work in flight (a resync waiting to retry): it rejects with a ClosedError and leaves no timer', async () => {
    const w = await t.world();
    const scheduler = new TrackingScheduler();
    const client = t.client(w, { scheduler });
    await client.login();
    w.emu.failHttp({ status: 429, count: 1, retryAfterSeconds: 1, pathPrefix: CLANS.path });
    const sync = client.syncNow().then(
      () => 'synced',
      (error: unknown) => error,
    );
    await until(() => w.emu.wire.requests(CLANS.path).some((r) => r.status === 429), 'the 429');
    const asked = w.emu.wire.requests(CLANS.path).length;
    client.closeSocket();
    expect(await sync).toBeInstanceOf(ClosedError);
    await until(() => scheduler.outstanding === 0, `no timer left (${scheduler.describe().join('; ')})`);
    // The retry would have gone out after 1 s: nothing does.
    await sleep(1200);
    expect(w.emu.wire.requests(CLANS.path)).toHaveLength(asked);
  });

  it('ends a token transfer in flight with {ok: false} and a ClosedError cause, leaving no timer', async () => {
    const w = await t.world();
    w.emu.fund(w.bot.botId, 10);
    const scheduler = new TrackingScheduler();
    const client = t.client(w, { scheduler, apiRetry: { retries: 5, baseMs: 2000, capMs: 2000 }, random: () => 0.99 });
    await client.login();
    w.emu.failHttp({ status: 503, count: 1, pathPrefix: '/mmn' });
    const transfer = client.sendToken({ receiver_id: w.alice.id, amount: 1 });
    await until(() => w.emu.wire.requests('/mmn').some((r) => r.status === 503), 'the 503');
    client.closeSocket();
    const result = await transfer;
    expect(result).toMatchObject({ ok: false, tx_hash: '' });
    expect(result.cause).toBeInstanceOf(ClosedError);
    await until(() => scheduler.outstanding === 0, `no timer left (${scheduler.describe().join('; ')})`);
    expect(w.emu.transactions()).toEqual([]);
  });

  it('can be followed by login() again: a new gateway session, events flow, listeners must be added again', async () => {
    const w = await t.world();
    const client = t.client(w);
    const lifecycle = t.record(client.lifecycle$);
    const first: string[] = [];
    client.onChannelMessage((m) => void first.push(m.message_id));
    await client.login();
    client.closeSocket();
    expect(client.listenerCount()).toBe(0);
    await until(() => w.emu.sessions(w.bot.botId).every((s) => !s.connected), 'the first session to be detached');

    const second: string[] = [];
    client.onChannelMessage((m) => void second.push(m.message_id));
    await expect(client.login()).resolves.toBe('ready');
    const sent = w.emu.as(w.alice.id).send(w.general, 'after the second login');
    await until(() => second.length === 1, 'the message after the second login');
    expect(second).toEqual([sent.message_id]);
    expect(first).toEqual([]);
    expect(lifecycle.map((e) => e.type)).toEqual(['ready', 'disconnected', 'ready']);
    expect(w.emu.wire.requests('/v2/apps/authenticate/token')).toHaveLength(2);
    // Production's sessions cannot be resumed: the emulator forgets the first one when its socket closes.
    expect(w.emu.sessions(w.bot.botId).map((s) => s.connected)).toEqual(inProduction ? [true] : [false, true]);
  });

  // closeSocket() while connecting settles login() with a ClosedError.
  it('rejects a login() that is still connecting when closeSocket() is called, with a ClosedError', async () => {
    const w = await t.world();
    // A socket that never opens keeps login() in its connecting phase for as long as the test needs.
    let opened = 0;
    class NeverOpens {
      readyState = 0;
      onopen = null;
      onmessage = null;
      onclose = null;
      onerror = null;
      constructor() {
        opened += 1;
      }
      send(): void {}
      close(): void {}
    }
    const client = t.client(w, { WebSocket: NeverOpens });
    const login = client.login().then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await until(() => opened > 0, 'the gateway socket');
    client.closeSocket();
    const outcome = await Promise.race([login, sleep(2000).then(() => 'still pending after 2 s')]);
    expect(outcome).toBeInstanceOf(ClosedError);
  });

  // closeSocket() while authenticating settles login() with a ClosedError.
  it('rejects a login() that is still authenticating when closeSocket() is called, with a ClosedError', async () => {
    const w = await t.world();
    const client = t.client(w);
    const login = client.login().then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await sleep(0);
    client.closeSocket();
    const outcome = await Promise.race([login, sleep(2000).then(() => 'still pending after 2 s')]);
    await sleep(100);
    expect(w.emu.wire.frames('connect')).toHaveLength(0);
    expect(outcome).toBeInstanceOf(ClosedError);
  });
});
