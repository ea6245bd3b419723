import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount } from '../../src/emulator/index.js';
import type { ApiErrorBody, ApiSession } from '../../src/model/api.js';
import { api, authenticate, authenticateRaw, http, RawGateway } from '../helpers/raw.js';

const AUTH_PATH = '/v2/apps/authenticate/token';
const REFRESH_PATH = '/v2/account/session/refresh';
const LOGOUT_PATH = '/v2/session/logout';

interface Claims {
  uid: string;
  usn: string;
  sid: string;
  typ: string;
  iat: number;
  exp: number;
  vars: Record<string, string>;
}

function partsOf(token: string): [string, string, string] {
  const parts = token.split('.');
  expect(parts).toHaveLength(3);
  return parts as [string, string, string];
}

function claimsOf(token: string): Claims {
  return JSON.parse(Buffer.from(partsOf(token)[1], 'base64url').toString('utf8')) as Claims;
}

const basic = (key: string): string => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

function refresh(emu: Emulator, refreshToken: unknown) {
  return http<ApiSession & ApiErrorBody>(emu.url, 'POST', REFRESH_PATH, { body: { refresh_token: refreshToken } });
}

describe('emulator authentication', () => {
  let emu: Emulator;
  let bot: BotCredentials;
  let alice: EmulatorAccount;

  beforeAll(async () => {
    emu = await startEmulator();
    bot = emu.createBot({ username: 'authbot' });
    alice = emu.createUser({ username: 'alice' });
  });
  afterAll(async () => {
    await emu.close();
  });

  describe('POST /v2/apps/authenticate/token', () => {
    it('returns a session whose tokens carry the account in their claims', async () => {
      const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
      expect(session).toMatchObject({
        user_id: bot.botId,
        username: 'authbot',
        api_url: emu.url,
        ws_url: emu.url.replace(/^http:/, 'ws:'),
      });
      expect(session.ws_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
      expect(typeof session.created_at).toBe('number');
      expect(Number.isInteger(session.created_at)).toBe(true);
      expect(session.token).not.toBe(session.refresh_token);

      const access = claimsOf(session.token);
      expect(access).toMatchObject({ uid: bot.botId, usn: 'authbot', typ: 'access', vars: {} });
      expect(typeof access.sid).toBe('string');
      expect(access.sid.length).toBeGreaterThan(0);
      expect(access.exp).toBeGreaterThan(access.iat);
      // Default session token lifetime is an hour.
      expect(access.exp - access.iat).toBeCloseTo(3600, 3);
      expect(Math.abs(access.iat - session.created_at)).toBeLessThan(2);

      const refreshClaims = claimsOf(session.refresh_token);
      expect(refreshClaims).toMatchObject({ uid: bot.botId, usn: 'authbot', typ: 'refresh', sid: access.sid, vars: {} });
      expect(refreshClaims.exp).toBeGreaterThan(access.exp);

      // The token works for REST calls.
      const clans = await api(session, 'GET', '/v2/clans');
      expect(clans).toMatchObject({ status: 200, body: { clans: [] } });
    });

    it('gives every authentication a session of its own', async () => {
      const a = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const b = await authenticate(emu.url, { id: alice.id, token: alice.token });
      expect(claimsOf(a.token).sid).not.toBe(claimsOf(b.token).sid);
      expect(a.token).not.toBe(b.token);
      expect(a).toMatchObject({ user_id: alice.id, username: 'alice' });
    });

    it('accepts the username as the app id', async () => {
      const res = await authenticateRaw(emu.url, { id: 'authbot', token: bot.token });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user_id: bot.botId });
    });

    it('refuses a request without HTTP Basic authentication (401 unauthenticated)', async () => {
      const res = await http<ApiErrorBody>(emu.url, 'POST', AUTH_PATH, { body: { account: { appid: bot.botId, token: bot.token } } });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');

      const bearer = await http<ApiErrorBody>(emu.url, 'POST', AUTH_PATH, {
        body: { account: { appid: bot.botId, token: bot.token } },
        headers: { authorization: `Bearer ${bot.token}` },
      });
      expect(bearer.status).toBe(401);
      expect(bearer.body.code).toBe('unauthenticated');
    });

    it('refuses a wrong API key (401 unauthenticated)', async () => {
      const wrongBasic = await authenticateRaw(emu.url, { id: bot.botId, token: bot.token }, 'not-the-key');
      expect(wrongBasic.status).toBe(401);
      expect((wrongBasic.body as ApiErrorBody).code).toBe('unauthenticated');

      const wrongEverywhere = await authenticateRaw(emu.url, { id: bot.botId, token: 'not-the-key' });
      expect(wrongEverywhere.status).toBe(401);
      expect((wrongEverywhere.body as ApiErrorBody).code).toBe('unauthenticated');

      // Basic header and body disagree.
      const mismatch = await authenticateRaw(emu.url, { id: bot.botId, token: 'other' }, bot.token);
      expect(mismatch.status).toBe(401);
      expect((mismatch.body as ApiErrorBody).code).toBe('unauthenticated');

      // Another account's key.
      const other = await authenticateRaw(emu.url, { id: bot.botId, token: alice.token });
      expect(other.status).toBe(401);
      expect((other.body as ApiErrorBody).code).toBe('unauthenticated');
    });

    it('refuses an app id that does not match the key (401 unauthenticated)', async () => {
      const res = await authenticateRaw(emu.url, { id: alice.id, token: bot.token });
      expect(res.status).toBe(401);
      expect((res.body as ApiErrorBody).code).toBe('unauthenticated');
      const unknown = await authenticateRaw(emu.url, { id: '12345', token: bot.token });
      expect(unknown.status).toBe(401);
      expect((unknown.body as ApiErrorBody).code).toBe('unauthenticated');
    });

    it('refuses a malformed body (400 bad_request)', async () => {
      const notJson = await http<ApiErrorBody>(emu.url, 'POST', AUTH_PATH, { rawBody: '{"account": ', headers: { authorization: basic(bot.token) } });
      expect(notJson.status).toBe(400);
      expect(notJson.body.code).toBe('bad_request');

      const notObject = await http<ApiErrorBody>(emu.url, 'POST', AUTH_PATH, { body: [1, 2], headers: { authorization: basic(bot.token) } });
      expect(notObject.status).toBe(400);
      expect(notObject.body.code).toBe('bad_request');

      const noBody = await http<ApiErrorBody>(emu.url, 'POST', AUTH_PATH, { headers: { authorization: basic(bot.token) } });
      expect(noBody.status).toBe(400);
      expect(noBody.body.code).toBe('bad_request');
    });

    it('refuses missing account fields (400 bad_request naming them)', async () => {
      const noAccount = await http<ApiErrorBody>(emu.url, 'POST', AUTH_PATH, { body: {}, headers: { authorization: basic(bot.token) } });
      expect(noAccount.status).toBe(400);
      expect(noAccount.body.code).toBe('bad_request');
      // The app id is optional (the key identifies the account); the token is not.
      expect(Object.keys(noAccount.body.fields ?? {})).toEqual(['token']);

      const noToken = await http<ApiErrorBody>(emu.url, 'POST', AUTH_PATH, { body: { account: { appid: bot.botId } }, headers: { authorization: basic(bot.token) } });
      expect(noToken.status).toBe(400);
      expect(noToken.body.code).toBe('bad_request');
      expect(Object.keys(noToken.body.fields ?? {})).toEqual(['token']);

      const wrongType = await http<ApiErrorBody>(emu.url, 'POST', AUTH_PATH, {
        body: { account: { appid: 42, token: bot.token } },
        headers: { authorization: basic(bot.token) },
      });
      expect(wrongType.status).toBe(400);
      expect(Object.keys(wrongType.body.fields ?? {})).toEqual(['appid']);
    });
  });

  describe('POST /v2/account/session/refresh', () => {
    it('issues new working tokens in the same authentication session', async () => {
      const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
      const res = await refresh(emu, session.refresh_token);
      expect(res.status).toBe(200);
      const renewed = res.body;
      expect(renewed).toMatchObject({ user_id: bot.botId, username: 'authbot', api_url: emu.url });
      expect(renewed.token).not.toBe(session.token);
      expect(renewed.refresh_token).not.toBe(session.refresh_token);
      expect(claimsOf(renewed.token)).toMatchObject({ uid: bot.botId, typ: 'access', sid: claimsOf(session.token).sid });
      expect(claimsOf(renewed.refresh_token)).toMatchObject({ typ: 'refresh', sid: claimsOf(session.token).sid });
      const call = await api(renewed, 'GET', '/v2/clans');
      expect(call.status).toBe(200);
    });

    it('requires a refresh token, not a session token (401 unauthenticated)', async () => {
      const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
      const res = await refresh(emu, session.token);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    });

    it('refuses garbage (401 unauthenticated) and a missing field (400)', async () => {
      const garbage = await refresh(emu, 'not.a.jwt');
      expect(garbage.status).toBe(401);
      expect(garbage.body.code).toBe('unauthenticated');

      const noDots = await refresh(emu, 'garbage');
      expect(noDots.status).toBe(401);
      expect(noDots.body.code).toBe('unauthenticated');

      const missing = await http<ApiErrorBody>(emu.url, 'POST', REFRESH_PATH, { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.code).toBe('bad_request');
      expect(missing.body.fields).toHaveProperty('refresh_token');
    });

    it('refuses a session token used as a bearer for REST with a refresh token (401)', async () => {
      const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
      const res = await http<ApiErrorBody>(emu.url, 'GET', '/v2/clans', { token: session.refresh_token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    });
  });

  describe('POST /v2/session/logout', () => {
    it('revokes both tokens of the session and leaves other sessions alone', async () => {
      const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const other = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const res = await api(session, 'POST', LOGOUT_PATH);
      expect(res).toMatchObject({ status: 200, body: { ok: true } });

      const call = await api<ApiErrorBody>(session, 'GET', '/v2/clans');
      expect(call.status).toBe(401);
      expect(call.body.code).toBe('unauthenticated');

      const renewed = await refresh(emu, session.refresh_token);
      expect(renewed.status).toBe(401);
      expect(renewed.body.code).toBe('unauthenticated');

      const again = await api<ApiErrorBody>(session, 'POST', LOGOUT_PATH);
      expect(again.status).toBe(401);

      // Another authentication session of the same user still works.
      expect((await api(other, 'GET', '/v2/clans')).status).toBe(200);
      expect((await refresh(emu, other.refresh_token)).status).toBe(200);
    });

    it('also revokes tokens obtained by refreshing within the session', async () => {
      const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const renewed = (await refresh(emu, session.refresh_token)).body;
      expect((await api(session, 'POST', LOGOUT_PATH)).status).toBe(200);
      const call = await api<ApiErrorBody>(renewed, 'GET', '/v2/clans');
      expect(call.status).toBe(401);
      expect(call.body.code).toBe('unauthenticated');
    });

    it('closes the gateway sockets of that session with 4005, and only those', async () => {
      const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const other = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const gateway = await RawGateway.start(session);
      const otherGateway = await RawGateway.start(other);
      try {
        expect((await api(session, 'POST', LOGOUT_PATH)).status).toBe(200);
        const closed = await gateway.closed;
        expect(closed.code).toBe(4005);
        // The other session's socket still answers.
        const pong = await otherGateway.request('ping', {});
        expect(pong.cid).toBeDefined();
        expect(otherGateway.ws.readyState).toBe(otherGateway.ws.OPEN);
        // A new socket with the revoked token is refused as logged out (4005, fatal for a client).
        const retry = await RawGateway.connect(session.ws_url, session.token);
        const refused = await retry.closed;
        expect(refused.code).toBe(4005);
      } finally {
        await gateway.close();
        await otherGateway.close();
      }
    });

    it('requires a bearer token (401)', async () => {
      const res = await http<ApiErrorBody>(emu.url, 'POST', LOGOUT_PATH);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    });
  });

  it('refuses a forged token whose payload was altered (401 unauthenticated)', async () => {
    const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    const [header, payload, signature] = partsOf(session.token);
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, uid: alice.id, usn: 'alice' })).toString('base64url');
    const forged = `${header}.${forgedPayload}.${signature}`;
    const res = await http<ApiErrorBody>(emu.url, 'GET', '/v2/clans', { token: forged });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');

    const longer = `${header}.${Buffer.from(JSON.stringify({ ...claims, exp: claims.exp as number + 1e6 })).toString('base64url')}.${signature}`;
    const res2 = await http<ApiErrorBody>(emu.url, 'GET', '/v2/clans', { token: longer });
    expect(res2.status).toBe(401);
    expect(res2.body.code).toBe('unauthenticated');

    const unsigned = `${header}.${payload}.`;
    const res3 = await http<ApiErrorBody>(emu.url, 'GET', '/v2/clans', { token: unsigned });
    expect(res3.status).toBe(401);
    expect(res3.body.code).toBe('unauthenticated');

    // The forged refresh token is refused too.
    const [rh, rp, rs] = partsOf(session.refresh_token);
    const rclaims = JSON.parse(Buffer.from(rp, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forgedRefresh = `${rh}.${Buffer.from(JSON.stringify({ ...rclaims, uid: alice.id })).toString('base64url')}.${rs}`;
    const res4 = await refresh(emu, forgedRefresh);
    expect(res4.status).toBe(401);
    expect(res4.body.code).toBe('unauthenticated');
  });
});

describe('emulator token expiry', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('expireTokens() fails REST calls with 401 token_expired while refresh still works', async () => {
    emu = await startEmulator();
    const bot = emu.createBot();
    const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    const gateway = await RawGateway.start(session);
    expect((await api(session, 'GET', '/v2/clans')).status).toBe(200);

    emu.expireTokens();
    const call = await api<ApiErrorBody>(session, 'GET', '/v2/clans');
    expect(call.status).toBe(401);
    expect(call.body.code).toBe('token_expired');
    expect((await gateway.closed).code).toBe(4004);

    const renewed = await refresh(emu, session.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await api(renewed.body, 'GET', '/v2/clans')).status).toBe(200);
    // The old session token stays expired.
    expect((await api<ApiErrorBody>(session, 'GET', '/v2/clans')).body.code).toBe('token_expired');
    // New logins are not affected.
    const fresh = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    expect((await api(fresh, 'GET', '/v2/clans')).status).toBe(200);
  });

  it('expireTokens({ refresh: true }) makes refresh fail with 401 token_expired', async () => {
    emu = await startEmulator();
    const bot = emu.createBot();
    const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    emu.expireTokens({ refresh: true });
    const renewed = await refresh(emu, session.refresh_token);
    expect(renewed.status).toBe(401);
    expect(renewed.body.code).toBe('token_expired');
    const call = await api<ApiErrorBody>(session, 'GET', '/v2/clans');
    expect(call.status).toBe(401);
    expect(call.body.code).toBe('token_expired');
    // Authenticating again gives a working session.
    const fresh = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    expect((await api(fresh, 'GET', '/v2/clans')).status).toBe(200);
    expect((await refresh(emu, fresh.refresh_token)).status).toBe(200);
  });

  it('a short token lifetime expires session tokens in real time', async () => {
    emu = await startEmulator({ tokenTtlSeconds: 1 });
    const bot = emu.createBot();
    const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    const claims = claimsOf(session.token);
    expect(claims.exp - claims.iat).toBeCloseTo(1, 3);
    expect((await api(session, 'GET', '/v2/clans')).status).toBe(200);

    await sleep(1200);
    const call = await api<ApiErrorBody>(session, 'GET', '/v2/clans');
    expect(call.status).toBe(401);
    expect(call.body.code).toBe('token_expired');

    const renewed = await refresh(emu, session.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await api(renewed.body, 'GET', '/v2/clans')).status).toBe(200);
  });
});
