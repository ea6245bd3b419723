/**
 * The REST side of sdk-2.8.37 and sdk-2.8.44 over the shared request layer:
 * `POST /mezon.api.Mezon/<Method>` with protobuf bodies both ways, the login
 * answering a protobuf `Session`, answers reshaped into clanstream's, a 401
 * renewed once, errors naming the route. No emulator serves these dialects
 * yet: a raw HTTP server on 127.0.0.1 plays the platform, decoding every
 * request with the dialect's schema.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { create, fromBinary, toBinary, toJson, type DescMessage } from '@bufbuild/protobuf';
import { asyncScheduler } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, UnsupportedError } from '../../src/index.js';
import * as B from '../../src/production/schema/sdk-2.8.37_pb.js';
import * as C from '../../src/production/schema/sdk-2.8.44_pb.js';
import { RpcRestApi } from '../../src/production/rest/rpc-api.js';
import { PRODUCTION_SESSION_FORMAT } from '../../src/production/session-format.js';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: Uint8Array;
}

type Handler = (seen: Seen, res: ServerResponse) => void;

const proto = (res: ServerResponse, schema: DescMessage, value: Record<string, unknown>, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/proto' });
  res.end(Buffer.from(toBinary(schema, create(schema, value))));
};

describe('REST of the later dialects (protobuf RPC)', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let handler: Handler = (_s, res) => res.end();

  beforeEach(async () => {
    seen.length = 0;
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const entry = { path: req.url ?? '', headers: req.headers, body: new Uint8Array(Buffer.concat(chunks)) };
        seen.push(entry);
        handler(entry, res);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const api = (dialect: 'sdk-2.8.37' | 'sdk-2.8.44' = 'sdk-2.8.44') =>
    new RpcRestApi({ basePath: base, timeoutMs: 5000, retries: 0, baseMs: 1, capMs: 1, maxRetryAfterMs: 0, scheduler: asyncScheduler, random: () => 0, protocolName: `production:${dialect}`, mediaUrl: `${base}/api/playmedia` }, dialect);

  it('logs in on /v2/apps/authenticate/token asking for a protobuf Session, and reads it with ids as text and id_token kept', async () => {
    handler = (_s, res) => proto(res, C.SessionSchema, { token: 'a.b.c', refreshToken: 'd.e.f', userId: '1840000000000000001', apiUrl: base, idToken: 'id.jwt', wsUrl: 'wss://gw.example' });
    const answer = PRODUCTION_SESSION_FORMAT.normalise(await api().authenticate('key-123456', 'bot-1'));
    expect(answer).toMatchObject({ token: 'a.b.c', refresh_token: 'd.e.f', user_id: '1840000000000000001', api_url: base, ws_url: 'wss://gw.example', id_token: 'id.jwt' });
    expect(seen[0]).toMatchObject({ path: '/v2/apps/authenticate/token', headers: { accept: 'application/x-protobuf', authorization: `Basic ${btoa('key-123456:')}` } });
    expect(JSON.parse(Buffer.from(seen[0]!.body).toString())).toEqual({ account: { appid: 'bot-1', token: 'key-123456' } });
  });

  it('calls ListClanDescs as a Connect unary RPC with the bearer token, and reshapes the answer', async () => {
    handler = (_s, res) => proto(res, B.ClanDescListSchema, { clandesc: [{ clanId: '1840000000000000100', clanName: 'Clan', creatorId: '7', welcomeChannelId: '0' }] });
    const rest = api();
    rest.useSession({ token: 'access.tok.en', api_url: base });
    expect(await rest.listClans({ limit: 50 })).toEqual({ clans: [{ clan_id: '1840000000000000100', clan_name: 'Clan', creator_id: '7', welcome_channel_id: '' }] });
    expect(seen[0]).toMatchObject({ path: '/mezon.api.Mezon/ListClanDescs', headers: { 'content-type': 'application/proto', accept: 'application/proto', authorization: 'Bearer access.tok.en' } });
    expect(toJson(B.ListClanDescRequestSchema, fromBinary(B.ListClanDescRequestSchema, seen[0]!.body))).toEqual({ limit: 50 });
  });

  it('pages ListChannelDescs by number: a full page hands back the next page as the cursor', async () => {
    handler = (s, res) => {
      const page = fromBinary(B.ListChannelDescsRequestSchema, s.body).page;
      proto(res, B.ChannelDescListSchema, { channeldesc: page === 1 ? [{ channelId: '1', clanId: '9', channelLabel: 'a', type: 1 }, { channelId: '2', clanId: '9', channelLabel: 'b', type: 1 }] : [] });
    };
    const rest = api();
    const first = await rest.listClanChannels('9', { limit: 2 });
    expect(first).toMatchObject({ channels: [{ channel_id: '1', channel_label: 'a', clan_id: '9', type: 1 }, { channel_id: '2' }], cursor: '2' });
    expect(await rest.listClanChannels('9', { limit: 2, cursor: first.cursor! })).toEqual({ channels: [] });
    expect(fromBinary(B.ListChannelDescsRequestSchema, seen[1]!.body)).toMatchObject({ clanId: '9', limit: 2, page: 2 });
  });

  it('a 401 renews the session once and the call goes again with the new token', async () => {
    let calls = 0;
    handler = (s, res) => {
      calls += 1;
      if (s.headers.authorization === 'Bearer old.tok.en') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ code: 'unauthenticated', message: 'token expired' }));
        return;
      }
      proto(res, B.ClanDescListSchema, { clandesc: [] });
    };
    const rest = api();
    rest.useSession({ token: 'old.tok.en', api_url: base });
    rest.onTokenExpired(() => {
      rest.useSession({ token: 'new.tok.en', api_url: base });
      return Promise.resolve(true);
    });
    expect(await rest.listClans()).toEqual({ clans: [] });
    expect(calls).toBe(2);
    expect(seen[1]!.headers.authorization).toBe('Bearer new.tok.en');
  });

  it('a refusal is an ApiError naming the RPC, with the server’s message', async () => {
    handler = (_s, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'not_found', message: 'no such channel' }));
    };
    const error = await api().getChannel('5').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', message: expect.stringContaining('no such channel'), route: 'POST /mezon.api.Mezon/ListChannelDetail' });
  });

  it('a 501 is not retried: the server does not implement the call, reported as the ApiError the JSON path gives', async () => {
    handler = (_s, res) => {
      res.writeHead(501, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'unimplemented', message: 'ListClanDescs is not implemented' }));
    };
    const rest = new RpcRestApi({ basePath: base, timeoutMs: 5000, retries: 3, baseMs: 1, capMs: 1, maxRetryAfterMs: 0, scheduler: asyncScheduler, random: () => 0, protocolName: 'production:sdk-2.8.44', mediaUrl: `${base}/api/playmedia` }, 'sdk-2.8.44');
    const error = await rest.listClans().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 501, route: 'POST /mezon.api.Mezon/ListClanDescs', message: expect.stringContaining('ListClanDescs is not implemented') });
    expect(seen).toHaveLength(1);
    // Not a refusal remembered: the next call is asked.
    await rest.listClans().catch(() => undefined);
    expect(seen).toHaveLength(2);
  });

  it('pages the member list production answers whole: limit and cursor applied in id order, one request per paging', async () => {
    const user = (id: string) => ({ user: { id, username: `u${id}` } });
    handler = (_s, res) => proto(res, B.ClanUserListSchema, { clanUsers: ['30', '4', '100', '2', '7'].map(user) });
    const rest = api();
    const first = await rest.listClanMembers('9', { limit: 2 });
    expect(first).toMatchObject({ clan_id: '9', cursor: '4' });
    expect(first.members.map((m) => m.user.id)).toEqual(['2', '4']);
    const second = await rest.listClanMembers('9', { limit: 2, cursor: first.cursor! });
    expect(second.members.map((m) => m.user.id)).toEqual(['7', '30']);
    const last = await rest.listClanMembers('9', { limit: 2, cursor: second.cursor! });
    expect(last.members.map((m) => m.user.id)).toEqual(['100']);
    expect(last.cursor).toBeUndefined();
    expect(seen).toHaveLength(1);
    // A cursor this client holds nothing for (another client's, or an old one) asks again and goes on after that member.
    const again = await api().listClanMembers('9', { limit: 2, cursor: '4' });
    expect(again).toMatchObject({ cursor: '30' });
    expect(again.members.map((m) => m.user.id)).toEqual(['7', '30']);
    expect(seen).toHaveLength(2);
    expect((await rest.listClanMembers('9')).members).toHaveLength(5);
  });

  it('registers a quick-menu entry as the platform\'s SDK does: its own id, the session\'s bot, the channel\'s clan, channel 0, menu type 1', async () => {
    handler = (s, res) => {
      if (s.path.endsWith('/ListChannelDetail')) proto(res, B.ChannelDescriptionSchema, { channelId: '5', clanId: '9', type: 1 });
      else res.end();
    };
    const rest = api();
    rest.useSession({ token: 'access.tok.en', api_url: base, user_id: '77' });
    const entry = await rest.addQuickMenuAccess('5', { menu_name: 'help', action_msg: '/help' });
    expect(entry).toEqual({ id: expect.stringMatching(/^[1-9]\d{15,18}$/), bot_id: '77', clan_id: '9', channel_id: '5', menu_name: 'help', action_msg: '/help', background: '' });
    expect(seen.map((r) => r.path)).toEqual(['/mezon.api.Mezon/ListChannelDetail', '/mezon.api.Mezon/AddQuickMenuAccess']);
    const sent = fromBinary(B.QuickMenuAccessSchema, seen[1]!.body);
    expect(sent).toMatchObject({ id: entry.id, botId: '77', clanId: '9', channelId: '0', menuName: 'help', actionMsg: '/help', menuType: 1 });
    // The clan is known from then on.
    await rest.addQuickMenuAccess('5', { menu_name: 'other' });
    expect(seen.map((r) => r.path).filter((p) => p.endsWith('/ListChannelDetail'))).toHaveLength(1);
  });

  it('what production has no RPC for rejects with UnsupportedError naming the operation and the dialect', async () => {
    await expect(api().getTransaction('tx')).rejects.toBeInstanceOf(UnsupportedError);
    await expect(api('sdk-2.8.37').getUser()).rejects.toMatchObject({ message: expect.stringContaining('getUser') });
    expect(seen).toEqual([]);
  });
});
