import type {
  ApiChannelDescription,
  ApiChannelList,
  ApiClanList,
  ApiFriendList,
  ApiFriendRequest,
  ApiOk,
  ApiRoleListEventResponse,
  ApiSession,
  ApiTransactionDetail,
  ApiVoiceChannelUserList,
  HttpMethod,
  PageQuery,
  PlatformApi,
  RequestSpec,
  ServiceUpdateRoleBody,
} from '../core.js';
import { ProductionRest, type HistoryAsk } from './production-rest.js';
import type { QuickMenuEntry } from './quick-menus.js';
import { channelOf, clanOf, friendOf, friendStateNumber, get, num, roleOf, rowOf, rowsOf, text, voiceUsersOf, type Row } from './reshape.js';

const enc = encodeURIComponent;
const OK: ApiOk = { ok: true };
const JSON_BODY = { 'content-type': 'application/json' };

/** Channel types production numbers: a DM and a group. */
const DM_TYPE = 3;
const GROUP_TYPE = 2;

/**
 * sdk-2.8.33's REST side: JSON on the `/v2/*` routes of the official SDK
 * 2.8.33 (docs/guides/connecting-to-the-platform.md, "REST"), reshaped into
 * clanstream's answers. Lists production pages by cursor where it has one.
 */
export class JsonRestApi extends ProductionRest implements PlatformApi {
  private json<T = unknown>(method: HttpMethod, route: string, path: string, extra: Partial<RequestSpec> = {}): Promise<T> {
    return this.authed<T>({ method, route: `${method} ${route}`, path, idempotent: method !== 'POST', ...extra }, extra.body === undefined ? {} : JSON_BODY);
  }

  authenticate(apiKey: string, appId?: string): Promise<ApiSession> {
    const account = appId ? { appid: appId, token: apiKey } : { token: apiKey };
    return this.plain<ApiSession>(
      { method: 'POST', route: 'POST /v2/apps/authenticate/token', path: '/v2/apps/authenticate/token', body: { account }, idempotent: true },
      { authorization: `Basic ${btoa(`${apiKey}:`)}`, ...JSON_BODY },
    );
  }

  refreshSession(refreshToken: string): Promise<ApiSession> {
    return this.plain<ApiSession>(
      { method: 'POST', route: 'POST /v2/apps/authenticate/refresh', path: '/v2/apps/authenticate/refresh', body: { refresh_token: refreshToken }, idempotent: true },
      JSON_BODY,
      this.baseUrl,
      [refreshToken],
    );
  }

  async logout(): Promise<ApiOk> {
    await this.json('POST', '/v2/apps/authenticate/logout', '/v2/apps/authenticate/logout', { body: {}, idempotent: true });
    return OK;
  }

  async listClans(page: PageQuery = {}): Promise<ApiClanList> {
    const route = 'GET /v2/clandesc';
    const answer = await this.json('GET', '/v2/clandesc', '/v2/clandesc', { query: { limit: page.limit, cursor: page.cursor } });
    const cursor = text(rowOf(answer, route), 'cursor');
    return { clans: rowsOf(answer, 'clandesc', route).map(clanOf), ...(cursor ? { cursor } : {}) };
  }

  private async channels(query: Record<string, string | number | undefined>): Promise<ApiChannelList> {
    const route = 'GET /v2/channeldesc';
    const answer = await this.json('GET', '/v2/channeldesc', '/v2/channeldesc', { query });
    const row = rowOf(answer, route);
    const cursor = text(row, 'next_cursor') || text(row, 'cursor');
    return { channels: rowsOf(answer, 'channeldesc', route).map(channelOf), ...(cursor ? { cursor } : {}) };
  }

  async listClanChannels(clanId: string, page: PageQuery = {}): Promise<ApiChannelList> {
    return this.noteClan(clanId, await this.channels({ clan_id: clanId, limit: page.limit, cursor: page.cursor }));
  }

  listDmChannels(page: PageQuery = {}): Promise<ApiChannelList> {
    return this.channels({ channel_type: DM_TYPE, limit: page.limit, cursor: page.cursor });
  }

  async getChannel(channelId: string): Promise<ApiChannelDescription> {
    return channelOf(rowOf(await this.json('GET', '/v2/channeldesc/{channelId}', `/v2/channeldesc/${enc(channelId)}`), 'GET /v2/channeldesc/{channelId}'));
  }

  async createDmChannel(userIds: string[]): Promise<ApiChannelDescription> {
    const body = { type: userIds.length === 1 ? DM_TYPE : GROUP_TYPE, user_ids: userIds, channel_private: 1, clan_id: '0' };
    return channelOf(rowOf(await this.json('POST', '/v2/channeldesc', '/v2/channeldesc', { body, idempotent: userIds.length === 1 }), 'POST /v2/channeldesc'));
  }

  protected async memberRows(clanId: string): Promise<Row[]> {
    return rowsOf(await this.json('GET', '/v2/clandesc/{clanId}/user', `/v2/clandesc/${enc(clanId)}/user`), 'clan_users', 'GET /v2/clandesc/{clanId}/user');
  }

  protected async historyRows(channelId: string, page: HistoryAsk): Promise<Row[]> {
    const query = { clan_id: this.clanOfChannel.get(channelId), message_id: page.messageId, limit: page.limit, direction: page.direction };
    return rowsOf(await this.json('GET', '/v2/channel/{channelId}', `/v2/channel/${enc(channelId)}`, { query }), 'messages', 'GET /v2/channel/{channelId}');
  }

  async listVoiceUsers(clanId: string, query: { channel_id?: string; channel_type?: number; limit?: number; state?: number; cursor?: string }): Promise<ApiVoiceChannelUserList> {
    const route = 'GET /v2/channelvoice';
    const answer = await this.json('GET', '/v2/channelvoice', '/v2/channelvoice', { query: { clan_id: clanId, ...query } });
    const cursor = text(rowOf(answer, route), 'cursor');
    return { voice_channel_users: voiceUsersOf(rowsOf(answer, 'voice_channel_users', route)), ...(cursor ? { cursor } : {}) };
  }

  async listRoles(clanId: string, query: { limit?: string | number; state?: string | number; cursor?: string }): Promise<ApiRoleListEventResponse> {
    const route = 'GET /v2/roles';
    const answer = rowOf(await this.json('GET', '/v2/roles', '/v2/roles', { query: { clan_id: clanId, ...query } }), route);
    const list = get(answer, 'roles');
    const roles = (typeof list === 'object' && list !== null && !Array.isArray(list) ? rowsOf(list, 'roles', route) : rowsOf(answer, 'roles', route)).map((r) => roleOf(r, clanId));
    const cursor = text(answer, 'cursor');
    return { clan_id: clanId, roles: { roles, ...(cursor ? { next_cursor: cursor } : {}) }, ...(cursor ? { cursor } : {}), ...(get(answer, 'limit') !== undefined ? { limit: num(answer, 'limit') } : {}) };
  }

  async updateRole(roleId: string, body: ServiceUpdateRoleBody): Promise<ApiOk> {
    await this.json('PUT', '/v2/roles/{roleId}', `/v2/roles/${enc(roleId)}`, { body: { role_id: roleId, ...body } });
    return OK;
  }

  protected async quickMenuRows(channelId: string, botId?: string): Promise<Row[]> {
    const answer = await this.json('GET', '/v2/quickmenuaccess', '/v2/quickmenuaccess', { query: { channel_id: channelId, bot_id: botId } });
    return rowsOf(answer, 'list_menus', 'GET /v2/quickmenuaccess');
  }

  protected async addQuickMenuRow(entry: QuickMenuEntry): Promise<Row> {
    const answer = await this.json('POST', '/v2/quickmenuaccess', '/v2/quickmenuaccess', { body: entry });
    return typeof answer === 'object' && answer !== null ? (answer as Row) : {};
  }

  protected async deleteQuickMenuRow(entry: { id: string; clan_id: string; bot_id: string }): Promise<void> {
    await this.json('DELETE', '/v2/quickmenuaccess', '/v2/quickmenuaccess', { query: entry, idempotent: true });
  }

  async listFriends(query: { limit?: number; state?: string; cursor?: string } = {}): Promise<ApiFriendList> {
    const route = 'GET /v2/friend';
    const answer = await this.json('GET', '/v2/friend', '/v2/friend', { query: { limit: query.limit, state: friendStateNumber(query.state), cursor: query.cursor } });
    const cursor = text(rowOf(answer, route), 'cursor');
    return { friends: rowsOf(answer, 'friends', route).map(friendOf), ...(cursor ? { cursor } : {}) };
  }

  async addFriends(body: ApiFriendRequest): Promise<ApiOk> {
    // Production takes the targets in the query; asking someone who asked you accepts them.
    const query = new URLSearchParams();
    for (const id of body.ids ?? []) query.append('ids', id);
    for (const name of body.usernames ?? []) query.append('usernames', name);
    const qs = query.toString();
    await this.json('POST', '/v2/friend', `/v2/friend${qs ? `?${qs}` : ''}`, { body: {}, idempotent: true });
    return OK;
  }

  acceptFriends(body: ApiFriendRequest): Promise<ApiOk> {
    return this.addFriends(body);
  }

  async getTransaction(txHash: string): Promise<ApiTransactionDetail> {
    const route = 'GET /v2/transaction/{transId}';
    const row = rowOf(await this.json('GET', '/v2/transaction/{transId}', `/v2/transaction/${enc(txHash)}`), route);
    return transactionOf(row, txHash);
  }
}

function transactionOf(row: Row, txHash: string): ApiTransactionDetail {
  // The emulator's answer is clanstream's own shape; production's names it the same where it says.
  return {
    tx_hash: text(row, 'tx_hash') || text(row, 'trans_id') || txHash,
    type: num(row, 'type'),
    sender: text(row, 'sender'),
    recipient: text(row, 'recipient'),
    ...(text(row, 'sender_id') ? { sender_id: text(row, 'sender_id') } : {}),
    ...(text(row, 'receiver_id') ? { receiver_id: text(row, 'receiver_id') } : {}),
    amount: text(row, 'amount'),
    nonce: num(row, 'nonce'),
    timestamp: num(row, 'timestamp'),
    text_data: text(row, 'text_data'),
    extra_info: text(row, 'extra_info'),
    status: 'confirmed',
  };
}
