/**
 * A logged-in client against a hostile platform (test/support/hostile-platform.ts):
 * malformed acknowledgements, absurd waits, repeated handshakes, endless
 * pagination and secrets echoed back. Each test asserts what went over the
 * wire, what the caller received and what errors$ said.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ProtocolError,
  RateLimitError,
  ServiceClient,
  type ClanstreamError,
  type ClientConfigDto,
  type LifecycleEvent,
} from '../../src/index.js';
import { PAGINATION_LIMITS } from '../../src/client/pagination.js';
import { until } from '../helpers/client.js';
import { rejection } from '../helpers/outcomes.js';
import { LeakScanner, recordingLogger } from '../security/leak-scan.js';
import { HOSTILE_BOT, HostilePlatform, opOf, type HostilePlatformOptions, type RestAnswer } from '../support/hostile-platform.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const FAST: Partial<ClientConfigDto> = { reconnect: { baseMs: 10, capMs: 50 }, apiRetry: { retries: 2, baseMs: 5, capMs: 20 } };

async function platform(options: HostilePlatformOptions = {}): Promise<HostilePlatform> {
  const p = await HostilePlatform.start(options);
  cleanups.push(() => p.close());
  return p;
}

/** A client for the platform, with its errors and lifecycle recorded. */
function clientOf(p: HostilePlatform, overrides: Partial<ClientConfigDto> = {}) {
  const client = new ServiceClient({ ...p.config, ...FAST, ...overrides });
  const errors: ClanstreamError[] = [];
  const lifecycle: LifecycleEvent[] = [];
  client.errors$.subscribe((error) => errors.push(error));
  client.lifecycle$.subscribe((event) => lifecycle.push(event));
  cleanups.push(() => client.destroy());
  return { client, errors, lifecycle };
}

const sends = (p: HostilePlatform) => p.sockets.flatMap((s) => s.received).filter((f) => opOf(f) === 'channel_message_send');
const CHANNEL = '1860000000000000001';

describe('a malformed acknowledgement', () => {
  it.each([
    ['without message_id', { channel_id: CHANNEL }],
    ['with a numeric message_id', { message_id: 42, channel_id: CHANNEL }],
    ['that is an array', []],
  ])('%s fails the send with a ProtocolError on errors$, and the send is not counted as delivered', async (_name, ack) => {
    const p = await platform({
      gateway: {
        onFrame: (socket, frame, op) => {
          if (op !== 'channel_message_send') return false;
          socket.reply(frame, 'channel_message_ack', ack);
          return true;
        },
      },
    });
    const { client, errors } = clientOf(p);
    await client.login();
    const error = await rejection(client.sendMessage(CHANNEL, 'hello'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(/^channel_message_send was answered with a malformed channel_message_ack: /);
    expect(errors).toContain(error);
    expect(sends(p)).toHaveLength(1);
    expect(client.outbox.current).toMatchObject({ sent: 0, failed: 1, queued: 0, inFlight: 0 });
    expect(client.channels.get(CHANNEL)?.messages.size ?? 0).toBe(0);
  });
});

describe('waits the server asks for', () => {
  /** A gateway that answers the first send with rate_limited and the given retry_after_ms, then acknowledges. */
  function rateLimitedOnce(retryAfter: unknown) {
    let limited = false;
    return platform({
      gateway: {
        onFrame: (socket, frame, op) => {
          if (op !== 'channel_message_send' || limited) return false;
          limited = true;
          socket.send({ cid: frame.cid, error: { code: 'rate_limited', message: 'slow down', retry_after_ms: retryAfter } });
          return true;
        },
      },
    });
  }

  it('a retry_after_ms longer than the cap fails the send with a RateLimitError at once; the outbox keeps sending', async () => {
    const p = await rateLimitedOnce(1e12);
    const { client } = clientOf(p);
    await client.login();
    const error = await rejection(client.sendMessage(CHANNEL, 'first'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 1e12, route: 'channel_message_send' });
    const second = await client.sendMessage(CHANNEL, 'second');
    expect(second.content.t).toBe('second');
    // The refused send was not tried again: one frame for each send.
    expect(sends(p).map((f) => (f.channel_message_send as { content: { t: string } }).content.t)).toEqual(['first', 'second']);
  });

  it.each([
    ['0', 0, /retry_after_ms of a rate_limited reply of 0 ms is below 1 ms/],
    ['1e-9', 1e-9, /retry_after_ms of a rate_limited reply of 1e-9 ms is below 1 ms/],
    ['negative', -5000, /of -5000 ms is below 1 ms/],
    ['a string', 'soon', /is not a number \(got "soon"\)/],
    ['null', null, /is not a number \(got null\)/],
  ])('a retry_after_ms that is %s is a ProtocolError on errors$, replaced by the bound, and the send goes through', async (_name, value, message) => {
    const p = await rateLimitedOnce(value);
    const { client, errors } = clientOf(p);
    await client.login();
    const sent = await client.sendMessage(CHANNEL, 'again');
    expect(sent.content.t).toBe('again');
    expect(sends(p)).toHaveLength(2);
    expect(errors.filter((e) => e instanceof ProtocolError).map((e) => e.message)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ['0', 0, /is below 1000 ms; waiting 1000 ms instead/],
    ['1e-9', 1e-9, /is below 1000 ms/],
    ['negative', -1, /is below 1000 ms/],
    ['999', 999, /of 999 ms is below 1000 ms/],
    ['1e12', 1e12, /is above 3600000 ms; waiting 3600000 ms at most/],
    ['a string', 'fast', /is not a number \(got "fast"\); waiting 15000 ms instead/],
    ['null', null, /is not a number \(got null\); waiting 15000 ms instead/],
  ])('a hello heartbeat interval of %s is a ProtocolError on errors$ and the connection still becomes ready', async (_name, interval, message) => {
    const p = await platform({
      gateway: { onOpen: (socket) => socket.send({ hello: { protocol: 1, heartbeat_interval_ms: interval, heartbeat_timeout_ms: 45_000, max_frame_bytes: 262_144, server_time_ms: 0 } }) },
    });
    const { client, errors } = clientOf(p);
    await client.login();
    expect(client.status).toBe('ready');
    expect(errors.filter((e) => e instanceof ProtocolError).map((e) => e.message)).toEqual([expect.stringMatching(message)]);
  });

  it('an unreadable Retry-After on a 429 is a ProtocolError on errors$, and the request backs off and succeeds', async () => {
    let limited = 0;
    const p = await platform({
      rest: (request) => {
        if (request.path !== '/v2/clans' || limited > 0) return undefined;
        limited += 1;
        return { status: 429, body: { code: 'rate_limited', message: 'slow down' }, headers: { 'retry-after': 'whenever' } };
      },
    });
    const { client, errors } = clientOf(p);
    await client.login();
    expect(p.requestsTo('GET', '/v2/clans')).toHaveLength(2);
    expect(errors.map((e) => [e.name, e.message])).toEqual([['ProtocolError', 'GET /v2/clans answered 429 with an unreadable Retry-After; backing off instead']]);
  });
});

describe('handshake frames sent again', () => {
  it('a ready sent again (with an unknown cid, and without one) starts nothing and joins nothing again', async () => {
    const p = await platform({
      gateway: {
        onFrame: (socket, frame, op) => {
          if (op !== 'start') return false;
          p.answer(socket, frame, op);
          socket.send({ cid: '999', ready: { session_id: 'S9', user_id: 'intruder', seq: 0, resume_window_ms: 1 } });
          socket.send({ ready: { session_id: 'S9', user_id: 'intruder', seq: 0, resume_window_ms: 1 } });
          socket.send({ hello: { protocol: 1, heartbeat_interval_ms: 60_000 } });
          return true;
        },
      },
      rest: (request) => (request.path === '/v2/clans' ? { status: 200, body: { clans: [{ clan_id: 'K1', clan_name: 'one', welcome_channel_id: 'C1', creator_id: 'U1' }] } } : undefined),
    });
    const { client, errors } = clientOf(p);
    await client.login();
    await until(() => errors.length >= 2, 'the repeated handshake frames to be reported');
    const ops = p.sockets.flatMap((s) => s.received.map(opOf));
    expect(ops.filter((op) => op === 'start')).toHaveLength(1);
    expect(ops.filter((op) => op === 'clan_join')).toHaveLength(1);
    expect(p.sockets).toHaveLength(1);
    expect(client.status).toBe('ready');
    expect(client.gateway.currentSessionId).toBe('S0');
    expect(errors.map((e) => e.message)).toEqual(['a ready frame has neither seq nor cid', 'the server sent hello again on the same connection (ignored)']);
  });
});

describe('pagination that does not end', () => {
  it('a cursor given twice ends login with a ProtocolError after two pages', async () => {
    const p = await platform({
      rest: (request) => (request.path === '/v2/clans' ? { status: 200, body: { clans: [{ clan_id: 'K1', clan_name: 'one', welcome_channel_id: 'C1', creator_id: 'U1' }], cursor: 'again' } } : undefined),
    });
    const { client } = clientOf(p);
    const error = await rejection(client.login());
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toBe('listing the clans did not end: the server gave the same cursor twice after 2 pages');
    expect(p.requestsTo('GET', '/v2/clans')).toHaveLength(2);
    expect(client.clans.size).toBe(0);
    expect(client.status).toBe('closed');
  });

  it(`a cursor that is new every time stops after ${PAGINATION_LIMITS.maxPages} pages with a ProtocolError`, async () => {
    let page = 0;
    const p = await platform({
      rest: (request) => (request.path === '/v2/clans' ? { status: 200, body: { clans: [], cursor: `c${(page += 1)}` } } : undefined),
    });
    const { client } = clientOf(p);
    const error = await rejection(client.login());
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toBe(`listing the clans did not end after ${PAGINATION_LIMITS.maxPages} pages; stopped`);
    expect(p.requestsTo('GET', '/v2/clans')).toHaveLength(PAGINATION_LIMITS.maxPages);
  });

  it(`pages that together hold more than ${PAGINATION_LIMITS.maxItems} items stop the listing before it holds more`, async () => {
    const perPage = 5_000;
    let page = 0;
    const answer = (): RestAnswer => {
      page += 1;
      return { status: 200, body: { clans: Array.from({ length: perPage }, (_, i) => ({ clan_id: `K${page}-${i}`, clan_name: 'x', welcome_channel_id: 'C1', creator_id: 'U1' })), cursor: `c${page}` } };
    };
    const p = await platform({ rest: (request) => (request.path === '/v2/clans' ? answer() : undefined) });
    const { client } = clientOf(p);
    const error = await rejection(client.login());
    expect((error as Error).message).toBe(`listing the clans ran past ${PAGINATION_LIMITS.maxItems} items; stopped`);
    expect(p.requestsTo('GET', '/v2/clans')).toHaveLength(PAGINATION_LIMITS.maxItems / perPage + 1);
    expect(client.clans.size).toBe(0);
  });

  it('a page without its item list is a ProtocolError, not a TypeError', async () => {
    const p = await platform({ rest: (request) => (request.path === '/v2/dm' ? { status: 200, body: { channels: 'none' } } : undefined) });
    const { client } = clientOf(p);
    const error = await rejection(client.login());
    expect(error).toBeInstanceOf(ProtocolError);
    // The answer's check names the route and the field before the listing ever sees the page.
    expect((error as Error).message).toBe("GET /v2/dm: the answer's channels is a string, not a list");
  });
});

describe('secrets the server echoes', () => {
  it('never reach a caller’s error, sendToken’s result.error, lifecycle$, errors$ or the logger', async () => {
    const scanner = new LeakScanner();
    scanner.apiKey('API key', HOSTILE_BOT.token);
    let sessionToken = '';
    let closed = false;
    const p = await platform({
      gateway: {
        onFrame: (socket, frame, op) => {
          if (op === 'channel_message_send') {
            socket.send({ cid: frame.cid, error: { code: 'forbidden', message: `key ${HOSTILE_BOT.token} and token ${sessionToken} may not`, fields: { [HOSTILE_BOT.token]: sessionToken } } });
            return true;
          }
          if (op === 'ping' && !closed) {
            closed = true;
            socket.close(4000, `bye ${HOSTILE_BOT.token}`);
            return true;
          }
          return false;
        },
      },
      rest: (request) => {
        if (request.path === '/v2/friends') return { status: 400, body: { code: 'bad_request', message: `the key ${HOSTILE_BOT.token} is wrong; Basic ${btoa(`${HOSTILE_BOT.token}:`)}`, fields: { key: encodeURIComponent(HOSTILE_BOT.token) } } };
        if (request.path === '/mmn') return { status: 200, body: p.rpc(request.body, { ok: false, tx_hash: '', error: `refused for ${HOSTILE_BOT.token} (session ${sessionToken})` }) };
        return undefined;
      },
    });
    const logger = recordingLogger(scanner, 'client');
    const { client, errors, lifecycle } = clientOf(p, { logger, heartbeatTimeoutMs: 2_000 });
    await client.login();
    sessionToken = client.sessionManager.getSession()?.token ?? '';
    scanner.secret('session token', sessionToken);
    scanner.secret('refresh token', client.sessionManager.getSession()?.refresh_token);

    scanner.value('send rejection', await rejection(client.sendMessage(CHANNEL, 'hi')));
    scanner.value('REST rejection', await rejection(client.getListFriends()));
    const transfer = await client.sendToken({ receiver_id: '1840000000000000002', amount: 1 });
    expect(transfer.ok).toBe(false);
    expect(transfer.error).toMatch(/^refused for \[redacted\] \(session \[redacted\]\)$/);
    scanner.value('sendToken result', transfer);
    // The server closes the socket with the key as its reason when the first ping comes (a fast heartbeat).
    p.sockets[0]?.send({ hello: { protocol: 1, heartbeat_interval_ms: 10 } });
    p.sockets[0]?.close(4000, `bye ${HOSTILE_BOT.token}`);
    await until(() => lifecycle.some((e) => e.type === 'disconnected'), 'the disconnection');
    scanner.value('lifecycle$', lifecycle);
    scanner.value('errors$', errors);
    expect(errors.length).toBeGreaterThan(0);
    expect(lifecycle.find((e) => e.type === 'disconnected')).toMatchObject({ code: 4000, reason: 'bye [redacted]' });
    expect(logger.count()).toBeGreaterThan(0);
    scanner.expectNoLeaks();
  });
});

describe('a prover that echoes the session JWT', () => {
  it('never hands it to the caller: sendToken’s error, its cause (message, fields, chain) and getZkProofs’ rejection are redacted', async () => {
    const scanner = new LeakScanner();
    scanner.apiKey('API key', HOSTILE_BOT.token);
    const p = await platform({
      rest: (request) => {
        if (request.path !== '/zk/prove') return undefined;
        const sent = (request.body as { jwt?: unknown }).jwt;
        const jwt = typeof sent === 'string' ? sent : '';
        const signature = jwt.split('.')[2] ?? '';
        // Every form a confused prover might quote it in: raw after an escape, the signature alone, base64, and a field.
        return {
          status: 400,
          body: {
            code: 'bad_request',
            message: `refused Bearer%20${jwt} (signature ${signature}; base64 ${Buffer.from(jwt).toString('base64')})`,
            fields: { jwt: `Bearer%20${jwt}`, [signature]: 'unknown signature' },
          },
        };
      },
    });
    const logger = recordingLogger(scanner, 'client');
    const { client } = clientOf(p, { logger });
    await client.login();
    const session = client.sessionManager.getSession();
    scanner.secret('session token', session?.token);
    scanner.secret('refresh token', session?.refresh_token);

    const transfer = await client.sendToken({ receiver_id: '1840000000000000002', amount: 1 });
    expect(transfer.ok).toBe(false);
    expect(transfer.cause).toMatchObject({ kind: 'api', status: 400, route: 'POST {zkApiUrl}/prove' });
    expect(transfer.error).toContain('[redacted]');
    scanner.value('sendToken result', transfer);
    scanner.value('sendToken cause', transfer.cause);
    scanner.value('getZkProofs rejection', await rejection(client.getZkProofs({ user_id: HOSTILE_BOT.botId, jwt: session?.token ?? '', address: 'a', ephemeral_public_key: 'b' })));
    scanner.value('wallet status', client.wallet.status);
    expect(p.requestsTo('POST', '/zk/prove').length).toBeGreaterThanOrEqual(3);
    scanner.expectNoLeaks();
  });
});
