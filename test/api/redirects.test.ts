/**
 * Credentials never follow a redirect to another origin: not the API key
 * (authentication), not the session JWT (the prover), not a signed
 * transaction (the money network). One policy, in the shared request layer;
 * same-origin redirects are followed within EXCHANGE_LIMITS.maxRedirects.
 * Real node:http servers on 127.0.0.1: two ports are two origins.
 */
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ServiceApi, ServiceClient } from '../../src/index.js';
import { EXCHANGE_LIMITS } from '../../src/api/exchange-limits.js';
import { Wallet } from '../../src/wallet/wallet.js';
import { fakeJwt } from '../client/support.js';
import { rejection } from '../helpers/outcomes.js';
import { TestHttpServer, type SeenRequest } from '../support/raw-http.js';

const servers: TestHttpServer[] = [];
const clients: ServiceClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const server of servers.splice(0)) await server.close();
});

async function serve(handle: (request: SeenRequest) => { status: number; headers?: Record<string, string>; body?: unknown }): Promise<TestHttpServer> {
  const server = await TestHttpServer.start((request, res) => {
    const answer = handle(request);
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  servers.push(server);
  return server;
}

/** A server that takes whatever it is sent, to see whether credentials reached it. */
const elsewhere = () => serve(() => ({ status: 200, body: { ok: true } }));

const API_KEY = 'redirect-test-api-key-0123456789';
const JWT = fakeJwt({ uid: '1840000000000000001', exp: Math.floor(Date.now() / 1000) + 3600 });

function walletFor(zk: string, mmn: string): Wallet {
  return new Wallet({ userId: () => '1840000000000000001', username: () => 'bot', sessionToken: () => JWT, zkApiUrl: zk, mmnApiUrl: mmn, apiRetry: { retries: 0 } });
}

describe('a redirect to another origin', () => {
  it('from authentication is refused: the API key (Basic header and body) never reaches the other origin', async () => {
    const other = await elsewhere();
    const server = await serve(() => ({ status: 307, headers: { location: `${other.origin}/v2/apps/authenticate/token` } }));
    const client = new ServiceClient({ botId: '1840000000000000001', token: API_KEY, host: '127.0.0.1', port: new URL(server.origin).port, useSSL: false, unhandledErrors: 'silent', apiRetry: { retries: 2, baseMs: 1, capMs: 2 } });
    clients.push(client);
    const error = await rejection(client.login());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 307, code: 'redirect_refused', route: 'POST /v2/apps/authenticate/token' });
    expect((error as ApiError).message).toBe(
      `POST /v2/apps/authenticate/token failed (307 redirect_refused): the server redirected to another origin (${other.origin}); credentials never follow a redirect there`,
    );
    expect(other.requests).toEqual([]);
    // Not retried: the same answer would come again.
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toContain(API_KEY);
  });

  it('from the prover is refused: the session JWT in the body never reaches the other origin', async () => {
    const other = await elsewhere();
    const prover = await serve(() => ({ status: 307, headers: { location: `${other.origin}/prove` } }));
    const error = await rejection(walletFor(prover.origin, prover.origin).getZkProofs({ user_id: '1840000000000000001', jwt: JWT, address: 'addr', ephemeral_public_key: 'pk' }));
    expect(error).toMatchObject({ status: 307, code: 'redirect_refused', route: 'POST {zkApiUrl}/prove' });
    expect(other.requests).toEqual([]);
    expect(prover.requests.map((r) => r.body.includes(JWT))).toEqual([true]);
  });

  it('from the money network is refused: a transfer goes nowhere else', async () => {
    const other = await elsewhere();
    const mmn = await serve(() => ({ status: 308, headers: { location: `${other.origin}/mmn` } }));
    const error = await rejection(walletFor(mmn.origin, mmn.origin).getCurrentNonce('1840000000000000001'));
    expect(error).toMatchObject({ status: 308, code: 'redirect_refused', route: 'JSON-RPC account.getcurrentnonce' });
    expect(other.requests).toEqual([]);
  });

  it('to https on the same host and port is another origin too (and so is an unreadable Location)', async () => {
    let location = '';
    const server = await serve(() => ({ status: 302, headers: { location } }));
    const api = new ServiceApi({ basePath: server.origin, timeoutMs: 5000, retries: 0, baseMs: 1, capMs: 2, maxRetryAfterMs: 10, scheduler: asyncScheduler, random: Math.random });
    location = server.origin.replace('http:', 'https:') + '/v2/clans';
    await expect(api.listClans()).rejects.toMatchObject({ code: 'redirect_refused', message: expect.stringContaining(`another origin (${location.replace('/v2/clans', '')})`) });
    location = 'http://[not a host/';
    await expect(api.listClans()).rejects.toMatchObject({ code: 'redirect_refused', message: expect.stringContaining('an unreadable address') });
  });
});

describe('a redirect within the origin', () => {
  it('is followed: a 307 keeps the method and the body, a 303 goes on as a GET without it', async () => {
    const session = { token: JWT, refresh_token: JWT, user_id: '1840000000000000001', username: 'bot', api_url: '', ws_url: '', created_at: 1 };
    const server = await serve((request) => {
      if (request.path === '/v2/apps/authenticate/token') return { status: 307, headers: { location: '/v2/moved/authenticate' } };
      if (request.path === '/v2/moved/authenticate') return { status: 303, headers: { location: '/v2/moved/session' } };
      return { status: 200, body: { ...session, api_url: server.origin } };
    });
    const api = new ServiceApi({ basePath: server.origin, timeoutMs: 5000, retries: 0, baseMs: 1, capMs: 2, maxRetryAfterMs: 10, scheduler: asyncScheduler, random: Math.random });
    await expect(api.authenticate(API_KEY)).resolves.toMatchObject({ user_id: '1840000000000000001' });
    expect(server.requests.map((r) => [r.method, r.path, r.body.includes(API_KEY)])).toEqual([
      ['POST', '/v2/apps/authenticate/token', true],
      ['POST', '/v2/moved/authenticate', true],
      ['GET', '/v2/moved/session', false],
    ]);
  });

  it(`stops after ${EXCHANGE_LIMITS.maxRedirects} redirects with redirect_refused`, async () => {
    let hops = 0;
    const server = await serve(() => ({ status: 302, headers: { location: `/v2/clans?hop=${(hops += 1)}` } }));
    const api = new ServiceApi({ basePath: server.origin, timeoutMs: 5000, retries: 0, baseMs: 1, capMs: 2, maxRetryAfterMs: 10, scheduler: asyncScheduler, random: Math.random });
    const error = await rejection(api.listClans());
    expect(error).toMatchObject({ status: 302, code: 'redirect_refused', message: expect.stringContaining(`more than ${EXCHANGE_LIMITS.maxRedirects} redirects`) });
    expect(server.requests).toHaveLength(EXCHANGE_LIMITS.maxRedirects + 1);
  });
});
