/**
 * Every REST route whose answer the client reads goes through one check
 * (src/api/answer-check.ts): `{}`, `[]`, a string, or fields of the wrong
 * type fail the call with a ProtocolError naming the route and the field,
 * never a TypeError, and nothing wrong reaches the caches. The client talks
 * to a fake platform (test/support/hostile-platform.ts) that answers one
 * route with the hostile body and every other route well.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ProtocolError, ServiceClient, type ClanstreamError, type ClientConfigDto } from '../../src/index.js';
import { rejection } from '../helpers/outcomes.js';
import { HOSTILE_BOT, HostilePlatform, type RestAnswer, type RestRequest } from '../support/hostile-platform.js';

const CLAN = '1850000000000000001';
const GENERAL = '1860000000000000001';
const VOICE = '1860000000000000002';
const ALICE = '1840000000000000002';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The answer of one route, replaced while `hostile` is set. */
interface Hostile {
  method: string;
  path: RegExp;
  answer: RestAnswer;
}

/** Well-formed answers for the routes the default fake platform does not know. */
function worldAnswer(request: RestRequest): RestAnswer | undefined {
  const { method, path } = request;
  if (method === 'GET' && path === '/v2/clans') return { status: 200, body: { clans: [{ clan_id: CLAN, clan_name: 'Clan', welcome_channel_id: GENERAL, creator_id: ALICE }] } };
  if (method === 'GET' && path === `/v2/clans/${CLAN}/channels`) {
    return {
      status: 200,
      body: {
        channels: [
          { channel_id: GENERAL, clan_id: CLAN, channel_label: 'general', type: 1, channel_private: 0 },
          { channel_id: VOICE, clan_id: CLAN, channel_label: 'voice', type: 10, channel_private: 0, meeting_code: 'meet' },
        ],
      },
    };
  }
  return undefined;
}

async function loggedIn(): Promise<{ client: ServiceClient; platform: HostilePlatform; hostile: { now?: Hostile }; errors: ClanstreamError[] }> {
  const hostile: { now?: Hostile } = {};
  const platform = await HostilePlatform.start({
    rest: (request) => {
      const now = hostile.now;
      if (now && now.method === request.method && now.path.test(request.path)) return now.answer;
      return worldAnswer(request);
    },
  });
  cleanups.push(() => platform.close());
  const config: ClientConfigDto = { ...platform.config, apiRetry: { retries: 0 }, unhandledErrors: 'silent' };
  const client = new ServiceClient(config);
  cleanups.push(() => client.destroy());
  const errors: ClanstreamError[] = [];
  client.errors$.subscribe((error) => errors.push(error));
  await client.login();
  return { client, platform, hostile, errors };
}

/** A route, how the client reaches it, and an answer of the right outline whose named field has the wrong type. */
interface RouteCase {
  route: string;
  method: string;
  path: RegExp;
  call: (client: ServiceClient) => Promise<unknown>;
  wrongType: { body: unknown; field: string };
}

const ROUTES: RouteCase[] = [
  { route: 'GET /v2/clans/{clanId}', method: 'GET', path: /^\/v2\/clans\/[^/]+$/, call: (c) => c.clans.fetch(CLAN, { force: true }), wrongType: { body: { clan_id: CLAN, clan_name: 7, welcome_channel_id: GENERAL, creator_id: ALICE }, field: 'clan_name' } },
  { route: 'GET /v2/channels/{channelId}', method: 'GET', path: /^\/v2\/channels\/[^/]+$/, call: (c) => c.channels.fetch('1860000000000000099'), wrongType: { body: { channel_id: 1860 }, field: 'channel_id' } },
  { route: 'GET /v2/users/{userId}', method: 'GET', path: /^\/v2\/users\/[^/]+$/, call: (c) => c.users.fetch(ALICE), wrongType: { body: { id: ALICE, username: ['alice'] }, field: 'username' } },
  {
    route: 'GET /v2/clans/{clanId}/members/{userId}',
    method: 'GET',
    path: /^\/v2\/clans\/[^/]+\/members\/[^/]+$/,
    call: (c) => c.clans.get(CLAN)!.users.fetch(ALICE),
    wrongType: { body: { user: { id: ALICE, username: 'alice' }, role_ids: 'admin' }, field: 'role_ids' },
  },
  { route: 'GET /v2/clans/{clanId}/members', method: 'GET', path: /^\/v2\/clans\/[^/]+\/members$/, call: (c) => c.clans.get(CLAN)!.loadMembers(), wrongType: { body: { clan_id: CLAN, members: [{ user: null, role_ids: [] }] }, field: 'members[0].user' } },
  {
    route: 'GET /v2/channels/{channelId}/messages/{messageId}',
    method: 'GET',
    path: /^\/v2\/channels\/[^/]+\/messages\/[^/]+$/,
    call: (c) => c.channels.get(GENERAL)!.messages.fetch('M1'),
    wrongType: { body: { message_id: 'M1', channel_id: GENERAL, content: 'hello' }, field: 'content' },
  },
  { route: 'GET /v2/channels/{channelId}/messages', method: 'GET', path: /^\/v2\/channels\/[^/]+\/messages$/, call: (c) => c.api.listMessages(GENERAL), wrongType: { body: { messages: [{ message_id: 5, channel_id: GENERAL }] }, field: 'messages[0].message_id' } },
  { route: 'GET /v2/clans/{clanId}/roles', method: 'GET', path: /^\/v2\/clans\/[^/]+\/roles$/, call: (c) => c.clans.get(CLAN)!.listRoles(), wrongType: { body: { clan_id: CLAN, roles: { roles: [{ id: 'R', clan_id: CLAN, title: 'T', user_ids: [1], permission_ids: [] }] } }, field: 'roles.roles[0].user_ids[0]' } },
  { route: 'GET /v2/clans/{clanId}/voice/users', method: 'GET', path: /^\/v2\/clans\/[^/]+\/voice\/users$/, call: (c) => c.clans.get(CLAN)!.listChannelVoiceUsers(), wrongType: { body: { voice_channel_users: {} }, field: 'voice_channel_users' } },
  { route: 'PUT /v2/roles/{roleId}', method: 'PUT', path: /^\/v2\/roles\/[^/]+$/, call: (c) => c.clans.get(CLAN)!.updateRole('R1', { title: 'x' }), wrongType: { body: { ok: 'yes' }, field: 'ok' } },
  { route: 'GET /v2/channels/{channelId}/quickmenu', method: 'GET', path: /^\/v2\/channels\/[^/]+\/quickmenu$/, call: (c) => c.api.listQuickMenuAccess(GENERAL), wrongType: { body: { list_menus: [{ id: 'Q', bot_id: HOSTILE_BOT.botId, channel_id: GENERAL, menu_name: 5 }] }, field: 'list_menus[0].menu_name' } },
  { route: 'POST /v2/channels/{channelId}/quickmenu', method: 'POST', path: /^\/v2\/channels\/[^/]+\/quickmenu$/, call: (c) => c.channels.get(GENERAL)!.addQuickMenuAccess({ menu_name: 'help' }), wrongType: { body: { id: 1, bot_id: HOSTILE_BOT.botId, channel_id: GENERAL, menu_name: 'help' }, field: 'id' } },
  { route: 'DELETE /v2/channels/{channelId}/quickmenu/{botId}', method: 'DELETE', path: /^\/v2\/channels\/[^/]+\/quickmenu\/[^/]+$/, call: (c) => c.channels.get(GENERAL)!.deleteQuickMenuAccess(), wrongType: { body: { ok: true, removed: '1' }, field: 'removed' } },
  { route: 'POST /v2/channels/{channelId}/media', method: 'POST', path: /^\/v2\/channels\/[^/]+\/media$/, call: (c) => c.channels.get(VOICE)!.playMedia('https://x.test/a.mp3', 'p', 'P', 'a'), wrongType: { body: { channel_id: VOICE, meeting_code: 'meet', url: 'u', status: false }, field: 'status' } },
  { route: 'GET /v2/friends', method: 'GET', path: /^\/v2\/friends$/, call: (c) => c.getListFriends(), wrongType: { body: { friends: [{ user: { id: ALICE, username: 'alice' }, state: 'accepted', update_time_seconds: '1' }] }, field: 'friends[0].update_time_seconds' } },
  { route: 'POST /v2/friends', method: 'POST', path: /^\/v2\/friends$/, call: (c) => c.addFriend('alice'), wrongType: { body: { ok: 1 }, field: 'ok' } },
  { route: 'POST /v2/friends/accept', method: 'POST', path: /^\/v2\/friends\/accept$/, call: (c) => c.acceptFriend(ALICE, 'alice'), wrongType: { body: { ok: null }, field: 'ok' } },
  { route: 'POST /v2/dm', method: 'POST', path: /^\/v2\/dm$/, call: (c) => c.createDMchannel(ALICE), wrongType: { body: { channel_id: GENERAL, user_ids: 'alice' }, field: 'user_ids' } },
  {
    route: 'GET /v2/transactions/{txHash}',
    method: 'GET',
    path: /^\/v2\/transactions\/[^/]+$/,
    call: async (c) => (await c.users.fetch(ALICE)).listTransactionDetail('tx1'),
    wrongType: { body: { tx_hash: 'tx1', type: 0, sender: 's', recipient: 'r', amount: 1000000, nonce: 1, timestamp: 1, text_data: '', extra_info: '', status: 'confirmed' }, field: 'amount' },
  },
  { route: 'GET /v2/clans', method: 'GET', path: /^\/v2\/clans$/, call: (c) => c.syncNow(), wrongType: { body: { clans: [{ clan_id: CLAN, clan_name: 'Clan', welcome_channel_id: 1, creator_id: ALICE }] }, field: 'clans[0].welcome_channel_id' } },
  { route: 'GET /v2/clans/{clanId}/channels', method: 'GET', path: /^\/v2\/clans\/[^/]+\/channels$/, call: (c) => c.syncNow(), wrongType: { body: { channels: [{ channel_id: GENERAL, type: '1' }] }, field: 'channels[0].type' } },
  { route: 'GET /v2/dm', method: 'GET', path: /^\/v2\/dm$/, call: (c) => c.syncNow(), wrongType: { body: { channels: [], cursor: 5 }, field: 'cursor' } },
  { route: 'POST /v2/account/session/refresh', method: 'POST', path: /^\/v2\/account\/session\/refresh$/, call: (c) => c.sessionManager.refresh(), wrongType: { body: { token: 'x', refresh_token: 12 }, field: 'refresh_token' } },
  { route: 'POST /v2/session/logout', method: 'POST', path: /^\/v2\/session\/logout$/, call: (c) => c.sessionManager.logout(), wrongType: { body: { ok: 'true' }, field: 'ok' } },
];

/** The hostile bodies every route gets, with what the message says about the answer. */
const OUTLINES: Array<[string, RestAnswer, RegExp]> = [
  ['{}', { status: 200, body: {} }, / has no /],
  ['[]', { status: 200, body: [] }, / is a list, not an object$/],
  ['a string', { status: 200, raw: 'not json at all' }, / is a string, not an object$/],
  ['an empty body', { status: 200, raw: '' }, / is empty, not an object$/],
];

/** The error a call ends with: it must be a rejection, never a synchronous throw. */
async function failureOf(call: () => Promise<unknown>): Promise<unknown> {
  let promise: Promise<unknown>;
  try {
    promise = call();
  } catch (error) {
    throw new Error(`threw synchronously: ${String(error)}`, { cause: error });
  }
  return rejection(promise);
}

describe('hostile answers to every route the client reads', () => {
  it.each(ROUTES.map((c) => [c.route, c] as const))('%s: {}, [], a string, an empty body and a wrong type are ProtocolErrors naming the route and the field', async (_name, routeCase) => {
    const { client, hostile } = await loggedIn();
    for (const [outline, answer, says] of OUTLINES) {
      // `POST /v2/dm` answered with `{}` is "no channel description": null, as the platform's SDK says.
      if (routeCase.route === 'POST /v2/dm' && outline === '{}') continue;
      hostile.now = { method: routeCase.method, path: routeCase.path, answer };
      const error = await failureOf(() => routeCase.call(client));
      expect(error, outline).toBeInstanceOf(ProtocolError);
      expect((error as Error).message, outline).toMatch(new RegExp(`^${routeCase.route.replace(/[{}/]/g, '\\$&')}: the answer`));
      expect((error as Error).message, outline).toMatch(says);
    }
    hostile.now = { method: routeCase.method, path: routeCase.path, answer: { status: 200, body: routeCase.wrongType.body } };
    const error = await failureOf(() => routeCase.call(client));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toMatch(new RegExp(`^${routeCase.route.replace(/[{}/]/g, '\\$&')}: the answer's ${routeCase.wrongType.field.replace(/[[\].]/g, '\\$&')} is `));
  });

  it('authentication: an answer without tokens, or with tokens that are not JWTs, fails login with a ProtocolError', async () => {
    for (const [body, says] of [
      [{}, "POST /v2/apps/authenticate/token: the answer has no token"],
      [{ token: 'not-a-jwt', refresh_token: 'not-a-jwt-either' }, "POST /v2/apps/authenticate/token: the answer's token is not a JWT"],
    ] as const) {
      const platform = await HostilePlatform.start({ rest: (request) => (request.path === '/v2/apps/authenticate/token' ? { status: 200, body } : undefined) });
      cleanups.push(() => platform.close());
      const client = new ServiceClient({ ...platform.config, unhandledErrors: 'silent' });
      cleanups.push(() => client.destroy());
      const error = await rejection(client.login());
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as Error).message).toBe(says);
      expect(client.status).toBe('closed');
    }
  });

  it('channels.fetch of one id answered with another channel is a ProtocolError, and nothing is cached under either id', async () => {
    const { client, hostile } = await loggedIn();
    hostile.now = { method: 'GET', path: /^\/v2\/channels\/[^/]+$/, answer: { status: 200, body: { channel_id: '1860000000000000077', clan_id: CLAN } } };
    const error = await rejection(client.channels.fetch('1860000000000000099'));
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toBe('GET /v2/channels/{channelId}: the answer does not describe channel 1860000000000000099');
    expect(client.channels.get('1860000000000000099')).toBeUndefined();
  });
});

describe('a fetch that finds nothing', () => {
  it('names the call and the id, not the route template: channels.fetch("123"): no such channel', async () => {
    const { client, hostile } = await loggedIn();
    hostile.now = { method: 'GET', path: /^\/v2\/channels\/123$/, answer: { status: 404, body: { code: 'not_found', message: 'channel 123 not found' } } };
    const error = await rejection(client.channels.fetch('123'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', route: 'GET /v2/channels/{channelId}', operation: 'channels.fetch("123")' });
    expect((error as Error).message).toBe('channels.fetch("123"): no such channel; GET /v2/channels/{channelId} failed (404 not_found): channel 123 not found');
    expect((error as ApiError).isNotFound).toBe(true);
    hostile.now = { method: 'GET', path: /^\/v2\/clans\/[^/]+\/members\/[^/]+$/, answer: { status: 404, body: { code: 'not_found', message: 'not a member' } } };
    await expect(client.clans.get(CLAN)!.users.fetch('42')).rejects.toThrow(/^clan\.users\.fetch\("42"\): no such member; /);
  });
});
