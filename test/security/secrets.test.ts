/**
 * Secrets (API keys, session and refresh tokens, the wallet's private key,
 * webhook tokens) never appear in anything clanstream shows: error messages,
 * stacks, causes, `toJSON`, `JSON.stringify`, `util.inspect`, log lines at
 * every level, `errors$`, CLI output, the emulator's wire log and log lines.
 * Each test uses recognisable secrets, walks through every failure it can
 * provoke, collects every output and scans it (see leak-scan.ts).
 */
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  AuthenticationError,
  ChannelWebhook,
  ClanWebhook,
  ConnectionError,
  GatewayError,
  ProtocolError,
  ServiceClient,
  ValidationError,
  type AnyClanstreamError,
  type ClientConfigDto,
  type LifecycleEvent,
} from '../../src/index.js';
import { main } from '../../src/cli/main.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { clientFor, until } from '../helpers/client.js';
import { authenticate, http, RawGateway } from '../helpers/raw.js';
import { tappedWebSocket } from '../helpers/tapped-websocket.js';
import { LeakScanner, recordingLogger } from './leak-scan.js';
import { rejection } from '../helpers/outcomes.js';

/** Recognisable API keys: a leak of any of them is unmistakable in a report. */
const BOT_KEY = 'ck_live_BOTKEY_7f3a9c1e5b2d4f6a8c0e2468';
const ALICE_KEY = 'ck_live_ALICEKEY_91b3d5f7a9c1e3f5b7d9';
const WRONG_KEY = 'ck_live_WRONGKEY_0d9e8f7a6b5c4d3e2f10';

/** Retries and backoff that keep the failure paths short (the behaviour is the same as with the defaults). */
const FAST: Partial<ClientConfigDto> = {
  reconnect: { baseMs: 5, capMs: 40, loginAttempts: 2 },
  apiRetry: { retries: 1, baseMs: 5, capMs: 20 },
  timeout: 2_000,
};

const emulators: Emulator[] = [];
const clients: ServiceClient[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const client of clients.splice(0)) client.closeSocket();
  await Promise.all(emulators.splice(0).map((emu) => emu.close()));
});

async function emulator(scanner: LeakScanner, options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = await startEmulator({ ...options, log: (line) => scanner.text('emulator log', line) });
  emulators.push(emu);
  return emu;
}

function track(client: ServiceClient): ServiceClient {
  clients.push(client);
  return client;
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/**
 * fetch for a client: requests to `/v2/users/1777…` never get an answer
 * (until aborted), requests to `/v2/users/1888…` and to any `/echo-login`
 * base are refused with an error that repeats the request's credentials
 * (header and body); everything else goes to the real server.
 */
const hostileFetch: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (/\/v2\/users\/1777/.test(url)) {
    return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
  }
  if (/\/v2\/users\/1888|\/echo-login\//.test(url)) {
    const authorization = new Headers(init?.headers).get('authorization') ?? '';
    const body = typeof init?.body === 'string' ? init.body : '';
    const message = `refused ${authorization} with ${body}`;
    return new Response(JSON.stringify({ code: url.includes('echo-login') ? 'unauthenticated' : 'bad_request', message, fields: { authorization, body } }), {
      status: url.includes('echo-login') ? 401 : 400,
      headers: { 'content-type': 'application/json' },
    });
  }
  return fetch(input, init);
};

/** Registers every session token and refresh token the client is ever given. */
function watchSessions(client: ServiceClient, scanner: LeakScanner): void {
  client.sessionManager.session$.subscribe((session) => {
    scanner.secret('session token', session?.token);
    scanner.secret('refresh token', session?.refresh_token);
  });
}

/** Registers every ed25519 seed the wallet creates (the key object never shows it). */
function watchPrivateKeys(scanner: LeakScanner): { count: () => number } {
  const original = ed25519.utils.randomSecretKey;
  let count = 0;
  vi.spyOn(ed25519.utils, 'randomSecretKey').mockImplementation((given?: Uint8Array) => {
    const seed = original(given);
    scanner.privateKey('wallet private key', seed.slice());
    count += 1;
    return seed;
  });
  return { count: () => count };
}

/** Everything a client shows about itself and the objects it hands out. */
function scanClient(scanner: LeakScanner, label: string, client: ServiceClient): void {
  scanner.value(label, client);
  scanner.value(`${label}.wallet`, client.wallet);
  scanner.value(`${label}.wallet.status`, client.wallet.status);
  scanner.value(`${label}.state`, client.state);
  for (const clan of client.clans.values()) scanner.value(`${label} clan`, clan);
  for (const channel of client.channels.values()) scanner.value(`${label} channel`, channel);
  for (const user of client.users.values()) scanner.value(`${label} user`, user);
  try {
    scanner.value(`${label}.api`, client.api);
    scanner.value(`${label}.sessionManager`, client.sessionManager);
    scanner.value(`${label}.session`, client.sessionManager.getSession());
    scanner.value(`${label}.gateway`, client.gateway);
  } catch (error) {
    // Before login these throw a ClosedError; that error is output too.
    scanner.value(`${label} (not logged in)`, error);
  }
}

describe('secrets never leak', () => {
  it('from the client: config, login, REST, gateway refusals, bad frames, expiry, failed refresh and fatal closes', async () => {
    const scanner = new LeakScanner();
    scanner.apiKey('bot API key', BOT_KEY);
    scanner.apiKey('alice API key', ALICE_KEY);
    scanner.apiKey('wrong API key', WRONG_KEY);
    const keys = watchPrivateKeys(scanner);
    const emu = await emulator(scanner);
    const bot = emu.createBot({ username: 'secretbot', token: BOT_KEY });
    const alice = emu.createUser({ username: 'alice', token: ALICE_KEY });
    const stranger = emu.createUser({ username: 'stranger' });
    const clan = emu.createClan({ name: 'Ours', ownerId: alice.id });
    emu.addClanMember(clan.id, bot.botId);
    const elsewhere = emu.createClan({ name: 'Theirs', ownerId: alice.id });
    const errorsSeen: AnyClanstreamError[] = [];
    const lifecycle: LifecycleEvent[] = [];
    const errorOf = (label: string, error: unknown): unknown => {
      scanner.value(label, error);
      return error;
    };

    // 1. Config refused: wrongly typed or misplaced secrets are never echoed.
    const configs: Array<[string, unknown]> = [
      ['token as an object', { botId: bot.botId, token: { key: BOT_KEY } }],
      ['token as an array', { botId: bot.botId, token: [BOT_KEY] }],
      ['API key passed as botId, no token', { botId: BOT_KEY }],
      ['valid token, bad port and timeout', { botId: bot.botId, token: BOT_KEY, port: `x${BOT_KEY}`, timeout: -1 }],
      ['valid token, bad outbox', { botId: bot.botId, token: BOT_KEY, outbox: { maxQueued: 0 } }],
    ];
    for (const [label, config] of configs) {
      let thrown: unknown;
      try {
        new ServiceClient(config as ClientConfigDto);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, label).toBeInstanceOf(ValidationError);
      errorOf(`config: ${label}`, thrown);
    }

    // 2. A refused API key, and a server that cannot be reached.
    const wrong = track(clientFor(emu, { botId: bot.botId, token: WRONG_KEY }, { ...FAST, logger: recordingLogger(scanner, 'wrong-key client') }));
    expect(errorOf('login with a wrong key', await rejection(wrong.login()))).toBeInstanceOf(AuthenticationError);
    scanClient(scanner, 'wrong-key client', wrong);
    const unreachable = track(
      new ServiceClient({ botId: bot.botId, token: BOT_KEY, host: '127.0.0.1', port: String(await closedPort()), useSSL: false, ...FAST, logger: recordingLogger(scanner, 'unreachable client') }),
    );
    const networkError = errorOf('login to a closed port', await rejection(unreachable.login()));
    expect(networkError).toMatchObject({ kind: 'api', code: 'network_error' });
    scanClient(scanner, 'unreachable client', unreachable);

    // 3. A working client, with a logger at every level and a socket the test can push frames into.
    const logger = recordingLogger(scanner, 'client');
    // A gateway that answers one kind of send with an error repeating the connection's token.
    let liveToken = '';
    const socket = tappedWebSocket({ intercept: (frame) => {
      const send = frame.channel_message_send as { content?: { t?: string } } | undefined;
      if (send?.content?.t !== 'echo my token') return undefined;
      return JSON.stringify({ cid: frame.cid, error: { code: 'bad_request', message: `token ${liveToken} is not allowed here`, fields: { token: liveToken } } });
    } });
    // The hanging request waits out this timeout; it stays generous so nothing else times out on a busy machine.
    const client = track(clientFor(emu, { botId: bot.botId, token: BOT_KEY }, { ...FAST, timeout: 1_500, logger, WebSocket: socket.Ctor, fetch: hostileFetch }));
    client.errors$.subscribe((error) => errorsSeen.push(error));
    client.lifecycle$.subscribe((event) => lifecycle.push(event));
    await client.login();
    watchSessions(client, scanner);
    await until(() => client.wallet.status.state === 'ready', 'the wallet to be prepared');
    expect(keys.count()).toBeGreaterThan(0);
    expect(socket.urls.some((url) => url.includes('token='))).toBe(true);

    // 4. REST failures: 404, 403, an injected 500 that outlasts the retries, a timeout.
    expect(errorOf('REST 404', await rejection(client.api.getChannel('1999999999999999999')))).toMatchObject({ status: 404 });
    expect(errorOf('REST 403', await rejection(client.api.getClan(elsewhere.id)))).toMatchObject({ status: 403 });
    emu.failHttp({ status: 500, count: 5, pathPrefix: '/v2/clans' });
    expect(errorOf('REST 500', await rejection(client.api.listClans()))).toMatchObject({ status: 500 });
    emu.clearHttpFaults();
    expect(errorOf('REST timeout', await rejection(client.api.getUser('1777000000000000000')))).toMatchObject({ code: 'timeout' });

    // A REST server that echoes the request's credentials in its error, as some proxies do.
    const echoed = errorOf('REST error echoing the bearer token', await rejection(client.api.getUser('1888000000000000000')));
    // The error still says what failed; only the credential is gone.
    expect(echoed).toMatchObject({ status: 400, route: 'GET /v2/users/{userId}', message: expect.stringContaining('refused Bearer [redacted]') });
    const echoingLogin = track(clientFor(emu, { botId: bot.botId, token: BOT_KEY }, { ...FAST, fetch: hostileFetch, logger: recordingLogger(scanner, 'echoing login') }));
    echoingLogin.loginBasePath = `${emu.url}/echo-login`;
    expect(errorOf('login refused with an echo of the credentials', await rejection(echoingLogin.login()))).toBeInstanceOf(AuthenticationError);
    scanClient(scanner, 'echoing-login client', echoingLogin);

    // 5. Gateway error replies.
    expect(errorOf('send to a clan the bot is not in', await rejection(client.sendMessage(elsewhere.welcome_channel_id, 'hello')))).toMatchObject({ status: 403 });
    const general = await client.channels.fetch(clan.welcome_channel_id);
    expect(errorOf('ephemeral to a non-member', await rejection(general.sendEphemeral(stranger.id, 'psst')))).toMatchObject({ kind: 'gateway', code: 'forbidden' });
    expect(errorOf('ephemeral to an unknown user', await rejection(general.sendEphemeral('1999999999999999998', 'psst')))).toBeInstanceOf(GatewayError);
    liveToken = client.sessionManager.getSession()?.token ?? '';
    expect(errorOf('gateway error echoing the token', await rejection(general.send('echo my token')))).toMatchObject({ kind: 'gateway', code: 'bad_request', message: expect.stringContaining('token [redacted] is not allowed here'), fields: { token: '[redacted]' } });
    expect(errorOf('invalid content', await rejection(client.sendMessage(clan.welcome_channel_id, { t: 'x', mk: [{ type: 'b', s: 0, e: 9 }] })))).toBeInstanceOf(ValidationError);

    // 6. Frames the client cannot read, some echoing secrets the way a confused proxy would.
    const session = client.sessionManager.getSession();
    if (!session) throw new Error('no session');
    const before = errorsSeen.length;
    const frames = [
      `GET /ws?protocol=1&token=${session.token} 400 Bad Request`,
      `{"cid": "c1", "error": "Authorization: Bearer ${session.token}"}`,
      `{"seq": "next", "session_id": "s", "channel_message": {"t": "${BOT_KEY}"}}`,
      `{"seq": 1, "session_id": "s", "channel_message": "refresh_token=${session.refresh_token}"}`,
      '[1, 2, 3]',
      '{"pong": {}, "ready": {}}',
      '{"cid": "unknown-cid", "weird_reply": {}}',
      '{"error": {"code": "bad_request"}}',
    ];
    for (const frame of frames) socket.inject(frame);
    await until(() => errorsSeen.filter((e) => e instanceof ProtocolError).length >= 6, 'protocol errors for the bad frames');
    expect(errorsSeen.length).toBeGreaterThan(before);
    const excerpts = errorsSeen.filter((e): e is ProtocolError => e instanceof ProtocolError).map((e) => e.excerpt);
    expect(excerpts).toEqual(expect.arrayContaining([expect.stringContaining('token=[redacted]'), expect.stringContaining('"t": "[redacted]"')]));

    // 7. Every token expires and refreshing fails until authentication works again.
    emu.failHttp({ status: 503, count: 1_000, pathPrefix: '/v2/apps/authenticate' });
    emu.expireTokens({ refresh: true });
    await until(() => lifecycle.some((e) => e.type === 'disconnected' && e.code === 4004), 'the 4004 close');
    await until(() => emu.wire.requests('/v2/apps/authenticate').filter((e) => e.status === 503).length >= 2, 'failed re-authentications');
    emu.clearHttpFaults();
    await until(() => client.status === 'ready', 'the client to recover', 10_000);

    // 8. A fatal close code.
    emu.closeConnections(4005, 'the session was logged out');
    await until(() => errorsSeen.some((e) => e instanceof ConnectionError && e.fatal), 'the fatal close');

    for (const [i, error] of errorsSeen.entries()) scanner.value(`errors$[${i}] ${error.name}`, error);
    for (const [i, event] of lifecycle.entries()) scanner.value(`lifecycle$[${i}]`, event);
    scanClient(scanner, 'client', client);
    scanner.value('emu.wire', emu.wire.entries());
    expect(errorsSeen.map((e) => e.kind)).toEqual(expect.arrayContaining(['protocol', 'connection']));
    expect(logger.lines.some((l) => l.startsWith('warn'))).toBe(true);
    expect(logger.lines.some((l) => l.startsWith('debug') || l.startsWith('info'))).toBe(true);
    scanner.expectNoLeaks();
  });

  it('from webhooks: bad URLs, unknown, reset and misplaced tokens, 403, 404, 429, 5xx, timeouts and unreachable servers', async () => {
    const scanner = new LeakScanner();
    const emu = await emulator(scanner);
    const owner = emu.createUser({ username: 'owner', token: ALICE_KEY });
    const outsider = emu.createUser({ username: 'outsider' });
    const clan = emu.createClan({ name: 'Hooks', ownerId: owner.id });
    const channelId = clan.welcome_channel_id;
    const channelHook = emu.createChannelWebhook(channelId);
    const clanHook = emu.createClanWebhook(clan.id);
    const doomedChannel = emu.createChannel({ clanId: clan.id, name: 'doomed' }).id;
    const doomedHook = emu.createChannelWebhook(doomedChannel);
    for (const hook of [channelHook, clanHook, doomedHook]) {
      scanner.secret('webhook token', hook.token);
      scanner.secret('webhook URL', hook.url);
    }
    const logger = recordingLogger(scanner, 'webhook');
    const options = { retries: 1, backoff: { baseMs: 5, capMs: 10 }, timeout: 1_000, logger };
    const failures: unknown[] = [];
    const fail = async (label: string, send: () => Promise<unknown>): Promise<unknown> => {
      const error = await rejection(send());
      scanner.value(label, error);
      failures.push(error);
      return error;
    };

    // Bad URLs: every shape error is a ValidationError that does not repeat the URL.
    const badUrls = [
      `${channelHook.url}?token=${channelHook.token}`,
      `${channelHook.url}#${channelHook.token}`,
      channelHook.url.replace('http://', `http://user:${channelHook.token}@`),
      channelHook.url.replace('http://', 'ftp://'),
      `${emu.url}/webhooks/${channelHook.token}`,
      `${emu.url}/nothooks/${channelId}/${channelHook.token}`,
      `not a url ${channelHook.token}`,
      `${emu.url}/webhooks/%E0%A4%A/${channelHook.token}`,
    ];
    for (const url of badUrls) {
      for (const make of [() => new ChannelWebhook(url, options), () => new ClanWebhook(url, options)]) {
        let thrown: unknown;
        try {
          make();
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(ValidationError);
        scanner.value('webhook constructor with a bad URL', thrown);
      }
    }
    let clanUrlWithUser: unknown;
    try {
      new ClanWebhook(`${clanHook.url}/${owner.id}`, options);
    } catch (error) {
      clanUrlWithUser = error;
    }
    expect(clanUrlWithUser).toBeInstanceOf(ValidationError);
    scanner.value('clan webhook URL with a user', clanUrlWithUser);

    const channel = new ChannelWebhook(channelHook.url, options);
    const clanDm = new ClanWebhook(clanHook.url, options);
    scanner.value('ChannelWebhook', channel);
    scanner.value('ClanWebhook', clanDm);
    scanner.text('ChannelWebhook keys', Object.keys(channel).join(','));

    // A message the rules refuse.
    await fail('invalid channel webhook message', () => channel.send({ t: 'x', mk: [{ type: 'pre', s: 0, e: 5 }] }));
    // The server refuses: wrong token (a token of another channel), an unknown user, a non-member, a deleted channel.
    await fail('token bound to another channel', () => new ChannelWebhook(`${emu.url}/webhooks/${channelId}/${doomedHook.token}`, options).send({ t: 'x' }));
    await fail('clan webhook to an unknown user', () => clanDm.send('nobody-here', { content: { t: 'hi' } }));
    await fail('clan webhook to a non-member', () => clanDm.send(outsider.id, { content: { t: 'hi' } }));
    emu.deleteChannel(doomedChannel);
    await fail('channel deleted (404)', () => new ChannelWebhook(doomedHook.url, options).send({ t: 'x' }));
    // A base path the server does not know: its 404 repeats the path, token included.
    await fail('unknown route echoing the token (404)', () => new ChannelWebhook(`${emu.url}/prefix/webhooks/${channelId}/${channelHook.token}`, options).send({ t: 'x' }));
    // Injected 429 and 5xx that outlast the retries.
    emu.failHttp({ status: 429, count: 5, pathPrefix: '/webhooks/', retryAfterSeconds: 0 });
    expect(await fail('429 after retries', () => channel.send({ t: 'x' }))).toMatchObject({ status: 429 });
    emu.clearHttpFaults();
    emu.failHttp({ status: 503, count: 5, pathPrefix: '/clanwebhooks/' });
    expect(await fail('503 after retries', () => clanDm.send(owner.id, { content: { t: 'x' } }))).toMatchObject({ status: 503 });
    emu.clearHttpFaults();
    // No answer in time, then no server at all.
    emu.pause();
    expect(await fail('timeout', () => channel.send({ t: 'x' }))).toMatchObject({ code: 'timeout' });
    emu.resume();
    const port = await closedPort();
    const gone = `http://127.0.0.1:${port}/webhooks/${channelId}/${channelHook.token}`;
    expect(await fail('unreachable server', () => new ChannelWebhook(gone, options).send({ t: 'x' }))).toMatchObject({ code: 'network_error' });
    // A reset token: the old URL is refused (401) by both kinds of webhook.
    const resetChannel = emu.resetWebhookToken(channelHook.id);
    const resetClan = emu.resetWebhookToken(clanHook.id);
    for (const hook of [resetChannel, resetClan]) {
      scanner.secret('new webhook token', hook.token);
      scanner.secret('new webhook URL', hook.url);
    }
    expect(await fail('reset channel webhook token', () => channel.send({ t: 'x' }))).toMatchObject({ status: 401 });
    expect(await fail('reset clan webhook token', () => clanDm.send(owner.id, { content: { t: 'x' } }))).toMatchObject({ status: 401 });
    // send$ fails the same way.
    const viaObservable = await new Promise<unknown>((resolve) => channel.send$({ t: 'x' }).subscribe({ error: resolve, complete: () => resolve(undefined) }));
    scanner.value('send$ after reset', viaObservable);
    // And the new ones work.
    await expect(new ChannelWebhook(resetChannel.url, options).send({ t: 'fresh' })).resolves.toMatchObject({ channel_id: channelId });

    expect(failures.every((e) => e instanceof ApiError || e instanceof ValidationError)).toBe(true);
    expect(logger.count()).toBeGreaterThan(0);
    scanner.value('emu.wire', emu.wire.entries());
    scanner.expectNoLeaks();
  });

  it('from the webhook CLI: stdout, stderr and console for every failure', async () => {
    const scanner = new LeakScanner();
    const emu = await emulator(scanner);
    const owner = emu.createUser({ username: 'owner' });
    emu.createUser({ username: 'stranger' });
    const clan = emu.createClan({ name: 'CLI', ownerId: owner.id });
    const channelId = clan.welcome_channel_id;
    const channelHook = emu.createChannelWebhook(channelId);
    const clanHook = emu.createClanWebhook(clan.id);
    for (const hook of [channelHook, clanHook]) {
      scanner.secret('webhook token', hook.token);
      scanner.secret('webhook URL', hook.url);
    }
    const consoleOutput = (...args: unknown[]): void => scanner.text('console', args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: Infinity }))).join(' '));
    for (const method of ['log', 'error', 'warn', 'info', 'debug'] as const) vi.spyOn(console, method).mockImplementation(consoleOutput);
    const stdoutWrite = vi.spyOn(process.stdout, 'write');
    const stderrWrite = vi.spyOn(process.stderr, 'write');
    const codes: number[] = [];
    const run = async (label: string, argv: string[]): Promise<void> => {
      const out: string[] = [];
      const err: string[] = [];
      codes.push(await main(argv, (line) => out.push(line), (line) => err.push(line)));
      scanner.text(`cli ${label} stdout`, out.join('\n'));
      scanner.text(`cli ${label} stderr`, err.join('\n'));
    };
    const fast = ['--retries', '1', '--timeout', '1000'];
    const port = await closedPort();

    await run('wrong kind', ['webhook', 'chanel', channelHook.url, '--text', 'x']);
    await run('url with a query', ['webhook', 'channel', `${channelHook.url}?token=${channelHook.token}`, '--text', 'x']);
    await run('clan url with a user', ['webhook', 'clan', `${clanHook.url}/${owner.id}`, 'owner', '--text', 'x']);
    await run('missing text', ['webhook', 'channel', channelHook.url]);
    await run('bad timeout', ['webhook', 'channel', channelHook.url, '--text', 'x', '--timeout', channelHook.token]);
    await run('too many arguments', ['webhook', 'channel', channelHook.url, channelHook.token, '--text', 'x']);
    await run('invalid content', ['webhook', 'channel', channelHook.url, '--text', '']);
    await run('non-member', ['webhook', 'clan', clanHook.url, 'stranger', '--text', 'x', ...fast]);
    await run('unknown route', ['webhook', 'channel', `${emu.url}/prefix/webhooks/${channelId}/${channelHook.token}`, '--text', 'x', ...fast]);
    emu.failHttp({ status: 502, count: 5, pathPrefix: '/webhooks/' });
    await run('5xx', ['webhook', 'channel', channelHook.url, '--text', 'x', ...fast]);
    emu.clearHttpFaults();
    await run('unreachable', ['webhook', 'channel', `http://127.0.0.1:${port}/webhooks/${channelId}/${channelHook.token}`, '--text', 'x', ...fast]);
    emu.pause();
    await run('timeout', ['webhook', 'channel', channelHook.url, '--text', 'x', ...fast]);
    emu.resume();
    emu.resetWebhookToken(channelHook.id);
    emu.resetWebhookToken(clanHook.id);
    await run('reset channel token', ['webhook', 'channel', channelHook.url, '--text', 'x', ...fast]);
    await run('reset clan token', ['webhook', 'clan', clanHook.url, 'owner', '--text', 'x', ...fast]);

    // Usage errors exit 2, refusals and failures 1; nothing was sent.
    expect(codes).toEqual([2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1]);
    expect(emu.messages(channelId)).toEqual([]);
    for (const [spy, where] of [
      [stdoutWrite, 'process.stdout'],
      [stderrWrite, 'process.stderr'],
    ] as const) {
      for (const call of spy.mock.calls) scanner.text(where, String(call[0]));
    }
    expect(scanner.collected(/^cli .* stderr$/).filter((t) => t !== '')).toHaveLength(14);
    scanner.value('emu.wire', emu.wire.entries());
    scanner.expectNoLeaks();
  });

  it('from token transfers: prover down, ledger down, insufficient balance, unknown receiver, invalid amounts', async () => {
    const scanner = new LeakScanner();
    scanner.apiKey('bot API key', BOT_KEY);
    const keys = watchPrivateKeys(scanner);
    const emu = await emulator(scanner);
    const bot = emu.createBot({ username: 'payer', token: BOT_KEY });
    const alice = emu.createUser({ username: 'alice', token: ALICE_KEY });
    const clan = emu.createClan({ name: 'Pay', ownerId: alice.id });
    emu.addClanMember(clan.id, bot.botId);
    emu.fund(bot.botId, 1);
    const logger = recordingLogger(scanner, 'payer');
    const client = track(clientFor(emu, { botId: bot.botId, token: BOT_KEY }, { ...FAST, logger }));
    const errorsSeen: AnyClanstreamError[] = [];
    client.errors$.subscribe((e) => errorsSeen.push(e));
    emu.setServiceDown('prover', true);
    await client.login();
    watchSessions(client, scanner);
    const outcomes: unknown[] = [];
    const outcome = async (label: string, send: () => Promise<unknown>): Promise<unknown> => {
      let result: unknown;
      try {
        result = await send();
      } catch (error) {
        result = error;
      }
      scanner.value(label, result);
      outcomes.push(result);
      return result;
    };

    expect(await outcome('prover down', () => client.sendToken({ receiver_id: alice.id, amount: '0.1' }))).toMatchObject({ ok: false });
    scanner.value('wallet status after a failed preparation', client.wallet.status);
    emu.setServiceDown('prover', false);
    emu.setServiceDown('ledger', true);
    expect(await outcome('ledger down', () => client.sendToken({ receiver_id: alice.id, amount: '0.1' }))).toMatchObject({ ok: false });
    emu.setServiceDown('ledger', false);
    expect(await outcome('insufficient balance', () => client.sendToken({ receiver_id: alice.id, amount: '5' }))).toMatchObject({ ok: false });
    expect(await outcome('unknown receiver', () => client.sendToken({ receiver_id: '1999999999999999997', amount: '0.1' }))).toMatchObject({ ok: false });
    for (const amount of ['0', '-1', '0.0000001', 'NaN', '1e400', 'x']) {
      expect(await outcome(`invalid amount ${amount}`, () => client.sendToken({ receiver_id: alice.id, amount }))).toBeInstanceOf(ValidationError);
    }
    expect(await outcome('another sender', () => client.sendToken({ sender_id: alice.id, receiver_id: alice.id, amount: '0.1' }))).toBeInstanceOf(ValidationError);
    expect(await outcome('accepted transfer', () => client.sendToken({ receiver_id: alice.id, amount: '0.25' }))).toMatchObject({ ok: true });
    // The proof request carries the session JWT; an expired one is refused and renewed.
    emu.expireTokens();
    expect(await outcome('transfer after expiry', () => client.sendToken({ receiver_id: alice.id, amount: '0.25' }))).toMatchObject({ ok: true });
    expect(await outcome('raw proof request with a forged jwt', () => client.getZkProofs({ user_id: bot.botId, jwt: 'eyJhbGciOiJub25lIn0.eyJ1aWQiOiIxIn0.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', address: 'x', ephemeral_public_key: 'y' }))).toBeInstanceOf(ApiError);

    expect(keys.count()).toBeGreaterThan(0);
    for (const [i, error] of errorsSeen.entries()) scanner.value(`errors$[${i}]`, error);
    scanClient(scanner, 'payer', client);
    scanner.value('emu.transactions', emu.transactions());
    scanner.value('emu.wire', emu.wire.entries());
    expect(logger.count()).toBeGreaterThan(0);
    scanner.expectNoLeaks();
  });

  it('from the emulator: wire log entries and log lines, whatever position a secret was sent in', async () => {
    const scanner = new LeakScanner();
    scanner.apiKey('alice API key', ALICE_KEY);
    const emu = await emulator(scanner, { gatewayRateLimit: null });
    const alice = emu.createUser({ username: 'alice', token: ALICE_KEY });
    const clan = emu.createClan({ name: 'Wire', ownerId: alice.id });
    const channelHook = emu.createChannelWebhook(clan.welcome_channel_id);
    const clanHook = emu.createClanWebhook(clan.id);
    for (const hook of [channelHook, clanHook]) scanner.secret('webhook token', hook.token);
    const session = await authenticate(emu.url, { id: alice.id, token: ALICE_KEY });
    scanner.secret('session token', session.token);
    scanner.secret('refresh token', session.refresh_token);

    // Every route that carries a secret, with the secret where it belongs and where it does not.
    await http(emu.url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: session.refresh_token } });
    await http(emu.url, 'GET', `/v2/clans?token=${session.token}`, { token: session.token });
    await http(emu.url, 'GET', `/v2/users/${encodeURIComponent(session.token)}`, { token: session.token });
    await http(emu.url, 'POST', '/zk/prove', { body: { user_id: alice.id, jwt: session.token, address: 'a', ephemeral_pk: 'b' } });
    await http(emu.url, 'POST', `/webhooks/${clan.welcome_channel_id}/${channelHook.token}`, { body: { type: 'hook', message: { t: 'ok' } } });
    await http(emu.url, 'POST', `/webhooks/${channelHook.token}`, { body: {} });
    await http(emu.url, 'POST', `/webhooks/${channelHook.token}/${clan.welcome_channel_id}`, { body: {} });
    await http(emu.url, 'POST', `/prefix/webhooks/${clan.welcome_channel_id}/${channelHook.token}`, { body: {} });
    await http(emu.url, 'POST', `/clanwebhooks/${clanHook.token}/${alice.id}`, { body: { content: '{"t":"hi"}' } });
    await http(emu.url, 'POST', `/api/clanwebhooks/${clanHook.token}/${alice.id}`, { body: {} });
    // A failure inside a handler is logged with the path, which holds the token.
    const stop = emu.onEvent(() => {
      throw new Error('a tap failed');
    });
    await http(emu.url, 'POST', `/webhooks/${clan.welcome_channel_id}/${channelHook.token}`, { body: { type: 'hook', message: { t: 'boom' } } });
    const gateway = await RawGateway.start(session, [clan.id]);
    gateway.send({ cid: 'send', channel_message_send: { clan_id: clan.id, channel_id: clan.welcome_channel_id, content: { t: 'boom' } } });
    await gateway.next((f) => f.cid === 'send');
    stop();
    gateway.send({ cid: 'refresh', token_refresh: { token: session.token } });
    await gateway.next((f) => f.cid === 'refresh');
    await gateway.close();

    expect(scanner.collected(/^emulator log$/).length).toBeGreaterThanOrEqual(2);
    scanner.value('emu.wire', emu.wire.entries());
    scanner.value('emu.wire requests', emu.wire.requests('/'));
    scanner.expectNoLeaks();
  });
});
