import type { DescMessage } from '@bufbuild/protobuf';
import {
  ProtocolError,
  ValidationError,
  type ApiChannelDescription,
  type ApiChannelList,
  type ApiClanList,
  type ApiFriendList,
  type ApiFriendRequest,
  type ApiOk,
  type ApiRoleListEventResponse,
  type ApiSession,
  type ApiTransactionDetail,
  type ApiVoiceChannelUserList,
  type PageQuery,
  type PlatformApi,
  type ServiceUpdateRoleBody,
} from '../core.js';
import { wire } from '../events/fields.js';
import { sessionAnswer } from '../session-format.js';
import { SessionSchema as SessionB } from '../schema/sdk-2.8.37_pb.js';
import { SessionSchema as SessionC } from '../schema/sdk-2.8.44_pb.js';
import { decodeMessage, encodeMessage } from '../wire/envelope-codec.js';
import { RPC_METHODS, type RpcDialectName, type RpcMethod } from '../wire/rpc-methods.js';
import { ProductionRest, type HistoryAsk, type ProductionRestOptions } from './production-rest.js';
import { BOT_MENU, type QuickMenuEntry } from './quick-menus.js';
import { channelOf, clanOf, friendOf, friendStateNumber, get, roleOf, rowsOf, text, voiceUsersOf, type Row } from './reshape.js';

const OK: ApiOk = { ok: true };
/** Connect-style unary RPC: protobuf both ways. */
const PROTO = { 'content-type': 'application/proto', accept: 'application/proto' };
const DM_TYPE = 3;
const GROUP_TYPE = 2;
/** `ListChannelDescs` pages by number, not cursor: the cursor clanstream hands back is the next page's number. */
const FIRST_PAGE = 1;
const DEFAULT_PAGE_SIZE = 100;

type MethodName = keyof (typeof RPC_METHODS)['sdk-2.8.37'];

/**
 * The REST side of sdk-2.8.37 and sdk-2.8.44: `POST /mezon.api.Mezon/<Method>`
 * with protobuf bodies (Connect-style unary), the login on
 * `/v2/apps/authenticate/token` answering a protobuf `Session`. Answers are
 * reshaped into clanstream's.
 */
export class RpcRestApi extends ProductionRest implements PlatformApi {
  constructor(
    options: ProductionRestOptions,
    private readonly dialect: RpcDialectName,
  ) {
    super(options);
  }

  /** Calls one method (with the session's token unless `plain`); resolves with its decoded answer (camelCase), or an empty row. */
  private async rpc(method: MethodName, request: Record<string, unknown>, plain = false, idempotent = method.startsWith('List') || plain): Promise<Row> {
    const spec = (RPC_METHODS[this.dialect] as Record<string, RpcMethod>)[method]!;
    const body = encodeMessage(spec.request, request as never, `${method} request`);
    if (body instanceof ValidationError) throw body;
    const path = `/mezon.api.Mezon/${method}`;
    const call = { method: 'POST' as const, route: `POST ${path}`, path, body, idempotent };
    const answer = await (plain ? this.plain<unknown>(call, PROTO, this.baseUrl, [String(request.token)]) : this.authed<unknown>(call, PROTO));
    return this.read(call.route, method === 'SessionRefresh' ? this.sessionSchema : spec.answer, answer);
  }

  private get sessionSchema(): DescMessage {
    return this.dialect === 'sdk-2.8.44' ? SessionC : SessionB;
  }

  private read(route: string, schema: DescMessage | undefined, answer: unknown): Row {
    if (schema === undefined) return {};
    if (answer instanceof Uint8Array) {
      const decoded = decodeMessage(schema, answer, `the answer of ${route}`);
      if (decoded instanceof ProtocolError) throw decoded;
      return decoded;
    }
    // A server answering JSON (its names snake_case) is read as well.
    if (typeof answer === 'object' && answer !== null) return answer as Row;
    throw new ProtocolError(`${route} answered with neither protobuf nor JSON`, typeof answer === 'string' ? answer.slice(0, 64) : undefined);
  }


  async authenticate(apiKey: string, appId?: string): Promise<ApiSession> {
    const route = 'POST /v2/apps/authenticate/token';
    const account = appId ? { appid: appId, token: apiKey } : { token: apiKey };
    const answer = await this.plain<unknown>(
      { method: 'POST', route, path: '/v2/apps/authenticate/token', body: { account }, idempotent: true },
      { authorization: `Basic ${btoa(`${apiKey}:`)}`, 'content-type': 'application/json', accept: 'application/x-protobuf' },
    );
    return sessionAnswer(this.read(route, this.sessionSchema, answer)) as unknown as ApiSession;
  }

  async refreshSession(refreshToken: string): Promise<ApiSession> {
    return sessionAnswer(await this.rpc('SessionRefresh', { token: refreshToken }, true)) as unknown as ApiSession;
  }

  async logout(): Promise<ApiOk> {
    await this.rpc('SessionLogout', {});
    return OK;
  }

  async listClans(page: PageQuery = {}): Promise<ApiClanList> {
    const answer = await this.rpc('ListClanDescs', wire(page, 'limit cursor'));
    return { clans: rowsOf(answer, 'clandesc', 'ListClanDescs').map(clanOf) };
  }

  private async channels(request: Record<string, unknown>, page: PageQuery): Promise<ApiChannelList> {
    const limit = page.limit ?? DEFAULT_PAGE_SIZE;
    const number = page.cursor ? Number(page.cursor) : FIRST_PAGE;
    const answer = await this.rpc('ListChannelDescs', { ...request, limit, page: Number.isInteger(number) && number > 0 ? number : FIRST_PAGE });
    const channels = rowsOf(answer, 'channeldesc', 'ListChannelDescs').map(channelOf);
    // A full page may have a next one.
    return { channels, ...(channels.length >= limit ? { cursor: String(number + 1) } : {}) };
  }

  async listClanChannels(clanId: string, page: PageQuery = {}): Promise<ApiChannelList> {
    return this.noteClan(clanId, await this.channels({ clanId }, page));
  }

  listDmChannels(page: PageQuery = {}): Promise<ApiChannelList> {
    return this.channels({ channelType: DM_TYPE }, page);
  }

  async getChannel(channelId: string): Promise<ApiChannelDescription> {
    return channelOf(await this.rpc('ListChannelDetail', { channelId }));
  }

  async createDmChannel(userIds: string[]): Promise<ApiChannelDescription> {
    // A DM with one user is the same DM however often it is asked for: safe to repeat; every group call makes a new group.
    const dm = userIds.length === 1;
    return channelOf(await this.rpc('CreateChannelDesc', { type: dm ? DM_TYPE : GROUP_TYPE, userIds, channelPrivate: 1 }, false, dm));
  }

  protected async memberRows(clanId: string): Promise<Row[]> {
    return rowsOf(await this.rpc('ListClanUsers', { clanId }), 'clan_users', 'ListClanUsers');
  }

  protected async historyRows(channelId: string, page: HistoryAsk): Promise<Row[]> {
    return rowsOf(await this.rpc('ListChannelMessages', { channelId, clanId: this.clanOfChannel.get(channelId), ...page }), 'messages', 'ListChannelMessages');
  }

  async listVoiceUsers(clanId: string, query: { channel_id?: string; channel_type?: number; limit?: number; state?: number; cursor?: string }): Promise<ApiVoiceChannelUserList> {
    const answer = await this.rpc('ListChannelVoiceUsers', { clanId, ...wire(query, 'channel_id channel_type limit state cursor') });
    return { voice_channel_users: voiceUsersOf(rowsOf(answer, 'voice_channel_users', 'ListChannelVoiceUsers')) };
  }

  async listRoles(clanId: string, query: { limit?: string | number; state?: string | number; cursor?: string }): Promise<ApiRoleListEventResponse> {
    const answer = await this.rpc('ListRoles', { clanId, limit: Number(query.limit) || 0, state: Number(query.state) || 0, cursor: query.cursor });
    const list = get(answer, 'roles');
    const roles = list && typeof list === 'object' ? rowsOf(list, 'roles', 'ListRoles').map((r) => roleOf(r, clanId)) : [];
    const cursor = text(answer, 'cursor');
    // Production's answer names the next page in its cursor: clanstream's list calls that next_cursor.
    return { clan_id: clanId, roles: { roles, ...(cursor ? { next_cursor: cursor } : {}) } };
  }

  async updateRole(roleId: string, body: ServiceUpdateRoleBody): Promise<ApiOk> {
    await this.rpc('UpdateRole', { roleId, ...wire(body, 'clan_id title color role_icon description display_online allow_mention add_user_ids remove_user_ids active_permission_ids remove_permission_ids') });
    return OK;
  }

  protected async quickMenuRows(channelId: string, botId?: string): Promise<Row[]> {
    return rowsOf(await this.rpc('ListQuickMenuAccess', { channelId, botId, menuType: BOT_MENU }), 'list_menus', 'ListQuickMenuAccess');
  }

  protected addQuickMenuRow(entry: QuickMenuEntry): Promise<Row> {
    return this.rpc('AddQuickMenuAccess', wire(entry, 'id bot_id clan_id channel_id menu_name action_msg background menu_type'));
  }

  protected async deleteQuickMenuRow(entry: { id: string; clan_id: string; bot_id: string }): Promise<void> {
    // The platform's own client names the entry by id and clan; the bot is said too.
    await this.rpc('DeleteQuickMenuAccess', wire(entry, 'id clan_id bot_id'));
  }

  async listFriends(query: { limit?: number; state?: string; cursor?: string } = {}): Promise<ApiFriendList> {
    const answer = await this.rpc('ListFriends', { ...wire(query, 'limit cursor'), state: friendStateNumber(query.state) });
    const cursor = typeof answer.cursor === 'string' && answer.cursor !== '' ? answer.cursor : undefined;
    // An int32 state of 0 (accepted) cannot be told from "any state": the rows are filtered here too.
    const friends = rowsOf(answer, 'friends', 'ListFriends').map(friendOf).filter((f) => query.state === undefined || f.state === query.state);
    return { friends, ...(cursor ? { cursor } : {}) };
  }

  async addFriends(body: ApiFriendRequest): Promise<ApiOk> {
    await this.rpc('AddFriends', wire(body, 'ids usernames'));
    return OK;
  }

  acceptFriends(body: ApiFriendRequest): Promise<ApiOk> {
    return this.addFriends(body);
  }

  getTransaction(_txHash: string): Promise<ApiTransactionDetail> {
    return this.unsupported('getTransaction', 'production has no RPC for a transaction (its SDK answers with a stub)');
  }
}
