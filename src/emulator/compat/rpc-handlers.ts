import type { MessageShape } from '@bufbuild/protobuf';
import type { ApiRoleListEventResponse, ApiSession, ApiVoiceChannelUserList } from '../../model/api.js';
import type { RPC_METHODS, RpcMethodName } from '../../production/wire/index.js';
import { EmulatorError } from '../errors.js';
import { paginate, readPage } from '../http/pagination.js';
import type { RequestContext } from '../http/router.js';
import { addClanQuickMenu, deleteClanQuickMenus, listQuickMenus, WHOLE_CLAN } from '../platform/clan-quick-menus.js';
import { publicMessage } from '../platform/messages.js';
import type { QuickMenuRecord } from '../world/records.js';
import type { BotRefusals } from './bot-refusals.js';
import { call, type EmulatorHandlers } from './emulator-routes.js';
import { addFriends, channelDescs, clanUsers, friendEntries, FRIEND_STATE_NUMBERS, historyPage } from './listings.js';
import { channelMessageInit } from './pushes.js';
import { removeFromWire, updateFromWire } from './requests.js';
import { DIRECT_TYPES } from './rest.js';
import type { ServedDialect } from './served-dialects.js';
import type { SessionRefreshes } from './session-refreshes.js';
import { sessionInit } from './session-answer.js';
import { productionChannel } from './views.js';
import { channelDescription, contentText, givenId, type Init } from './wire-values.js';

/** The RPCs served: every one clanstream calls, in era C's superset (era B's bodies are the same but for era C's additions). */
export type RpcName = RpcMethodName<'sdk-2.8.44'>;

type RequestOf<M extends RpcName> = MessageShape<(typeof RPC_METHODS)['sdk-2.8.44'][M]['request']>;

/** What an RPC runs with, over HTTP or over era C's socket alike. */
export interface RpcCall {
  /** The caller, authenticated, and the services the emulator's own handlers take. */
  readonly http: RequestContext;
  /** How answers encode what changed between eras (message parts). */
  readonly dialect: ServedDialect;
}

/** An RPC's answer: its message's fields, or nothing (an empty message). */
type Handler<M extends RpcName> = (call: RpcCall, request: RequestOf<M>) => Init | undefined | Promise<Init | undefined>;
export type RpcHandlers = { readonly [M in RpcName]: Handler<M> };

/** The methods that authenticate by their body (a refresh token), not by a bearer token. */
export const UNAUTHENTICATED_RPCS: ReadonlySet<RpcName> = new Set<RpcName>(['SessionRefresh']);

/** Ids the int64 fields of later eras can carry: decimal, up to 19 digits. */
const int64Ids = (ids: Iterable<string>): string[] => [...ids].filter((id) => /^\d{1,19}$/.test(id));

/** A page by `page` (1 first) and `limit`, as ListChannelDescs asks. */
function byPage<T>(items: readonly T[], page: number, limit: number): T[] {
  if (limit <= 0) return [...items];
  const start = Math.max(0, page - 1) * limit;
  return items.slice(start, start + limit);
}

function quickMenuInit(record: QuickMenuRecord): Init {
  return {
    id: record.id,
    botId: record.bot_id,
    clanId: record.clan_id,
    channelId: record.channel_id,
    menuName: record.menu_name,
    background: record.background,
    actionMsg: record.action_msg,
    menuType: record.menu_type ?? 1,
  };
}

/**
 * Every RPC of eras B and C the front end serves, each answered by the
 * emulator's operations over the same world. Over HTTP they are
 * `POST /mezon.api.Mezon/<Method>`; in era C the socket carries some of
 * them as `api_request_event` (edits and deletes since SDK 2.8.50).
 */
export function rpcHandlers(emulator: EmulatorHandlers, refreshes: SessionRefreshes, refusals: BotRefusals): RpcHandlers {
  return {
    ListClanDescs: ({ http }) => {
      const { world } = http.services.platform;
      const clans = [...(world.clansOfUser.get(http.user.id) ?? [])].map((id) => world.clan(id)).sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      return {
        clandesc: clans.map((clan) => ({ clanId: clan.id, clanName: clan.name, logo: clan.logo, banner: clan.banner, creatorId: clan.creator_id, welcomeChannelId: clan.welcome_channel_id })),
      };
    },
    ListChannelDescs: ({ http }, request) => {
      const { world } = http.services.platform;
      const channels = channelDescs(world, http.user.id, givenId(request.clanId), request.channelType || undefined);
      return { channeldesc: byPage(channels, request.page, request.limit).map((c) => channelDescription(world, productionChannel(world, c, http.user.id))) };
    },
    ListChannelDetail: ({ http }, request) => {
      const { world } = http.services.platform;
      return channelDescription(world, productionChannel(world, world.accessibleChannel(request.channelId, http.user.id), http.user.id));
    },
    CreateChannelDesc: ({ http }, request) => {
      if (!DIRECT_TYPES.has(request.type)) throw new EmulatorError(501, 'unavailable', `creating channels of type ${request.type} is not served by the emulator; DMs (3) and groups (2) are`);
      const created = call(emulator.openDm, http, { body: { user_ids: request.userIds } }) as { channel_id: string };
      const { world } = http.services.platform;
      return channelDescription(world, productionChannel(world, world.channel(created.channel_id), http.user.id));
    },
    ListClanUsers: ({ http }, request) => {
      refusals.check('ListClanUsers', http.user);
      const clanId = request.clanId;
      return {
        clanId,
        clanUsers: clanUsers(http.services.platform.world, clanId, http.user.id).map(({ user, member }) => ({
          user: { id: user.id, username: user.username, displayName: user.display_name, avatarUrl: user.avatar, createTimeSeconds: user.create_time_seconds },
          roleId: int64Ids(member.role_ids),
          clanNick: member.clan_nick ?? '',
          clanAvatar: member.clan_avatar ?? '',
          clanId,
        })),
      };
    },
    ListChannelMessages: ({ http, dialect }, request) => {
      refusals.check('ListChannelMessages', http.user);
      const { platform } = http.services;
      const channel = platform.world.accessibleChannel(request.channelId, http.user.id);
      const clanId = givenId(request.clanId);
      if (clanId !== undefined && clanId !== channel.clan_id) throw EmulatorError.badRequest(`channel ${channel.channel_id} is not in clan ${clanId}`, { clan_id: 'does not match the channel' });
      const page = historyPage(platform, http.user.id, channel.channel_id, {
        messageId: givenId(request.messageId),
        direction: request.direction,
        limit: request.limit,
        topicId: givenId(request.topicId),
      });
      return { messages: page.map((m) => channelMessageInit(publicMessage(m), platform.world, dialect)) };
    },
    ListChannelVoiceUsers: ({ http }, request) => {
      const query = new URLSearchParams({ limit: '500', ...(givenId(request.channelId) ? { channel_id: request.channelId } : {}), ...(request.channelType ? { channel_type: String(request.channelType) } : {}) });
      const { voice_channel_users: users } = call(emulator.voiceUsers, http, { params: { clanId: request.clanId }, query }) as ApiVoiceChannelUserList;
      // One entry per room with its users (the shape of SDK 2.8.40 on).
      const rooms = new Map<string, string[]>();
      for (const u of users) rooms.set(u.channel_id, [...(rooms.get(u.channel_id) ?? []), u.user_id]);
      const { world } = http.services.platform;
      return { voiceChannelUsers: [...rooms].map(([channelId, userIds]) => ({ channelId, userIds, roomName: world.channels.get(channelId)?.meeting_code ?? '' })) };
    },
    ListRoles: ({ http }, request) => {
      const query = new URLSearchParams({ limit: String(request.limit || 500), ...(request.state ? { state: String(request.state) } : {}), ...(request.cursor ? { cursor: request.cursor } : {}) });
      const answer = call(emulator.roles, http, { params: { clanId: request.clanId }, query }) as ApiRoleListEventResponse;
      return {
        limit: answer.limit ?? 0,
        state: answer.state ?? 0,
        cursor: answer.roles.next_cursor ?? '',
        clanId: answer.clan_id,
        roles: {
          roles: answer.roles.roles.map((r) => ({
            id: r.id,
            title: r.title,
            color: r.color,
            roleIcon: r.role_icon,
            description: r.description,
            creatorId: r.creator_id,
            clanId: r.clan_id,
            active: r.active,
            displayOnline: r.display_online,
            allowMention: r.allow_mention,
            roleUserList: { roleUsers: int64Ids(r.user_ids ?? []).map((id) => ({ id })) },
            permissionList: { permissions: int64Ids(r.permission_ids ?? []).map((id) => ({ id })) },
          })),
        },
      };
    },
    UpdateRole: ({ http }, request) => {
      const clanId = givenId(request.clanId);
      const maxPermission = givenId(request.maxPermissionId);
      const body = {
        ...(request.title !== undefined ? { title: request.title } : {}),
        ...(request.color !== undefined ? { color: request.color } : {}),
        ...(request.roleIcon !== undefined ? { role_icon: request.roleIcon } : {}),
        ...(request.description !== undefined ? { description: request.description } : {}),
        // An int32 cannot say "unset": 0 leaves these as they are.
        ...(request.displayOnline ? { display_online: request.displayOnline } : {}),
        ...(request.allowMention ? { allow_mention: request.allowMention } : {}),
        add_user_ids: request.addUserIds,
        remove_user_ids: request.removeUserIds,
        active_permission_ids: request.activePermissionIds,
        remove_permission_ids: request.removePermissionIds,
        ...(clanId ? { clan_id: clanId } : {}),
        ...(maxPermission ? { max_permission_id: maxPermission } : {}),
      };
      call(emulator.updateRole, http, { params: { roleId: request.roleId }, body });
      return undefined;
    },
    ListQuickMenuAccess: ({ http }, request) => {
      const botId = givenId(request.botId);
      const channelId = givenId(request.channelId);
      const records = listQuickMenus(http.services.platform, http.user.id, { ...(botId ? { botId } : {}), ...(channelId ? { channelId } : {}), ...(request.menuType ? { menuType: request.menuType } : {}) });
      return { listMenus: records.map(quickMenuInit) };
    },
    AddQuickMenuAccess: ({ http }, request) => {
      if (givenId(request.channelId) !== undefined && request.channelId !== WHOLE_CLAN) {
        throw EmulatorError.badRequest('production keeps quick-menu entries for a whole clan: channel_id must be 0', { channel_id: 'must be 0' });
      }
      const id = givenId(request.id);
      const botId = givenId(request.botId);
      const clanId = givenId(request.clanId);
      addClanQuickMenu(http.services.platform, http.user.id, {
        menu_name: request.menuName,
        action_msg: request.actionMsg,
        background: request.background,
        ...(id ? { id } : {}),
        ...(botId ? { bot_id: botId } : {}),
        ...(clanId ? { clan_id: clanId } : {}),
        ...(request.menuType ? { menu_type: request.menuType } : {}),
      });
      return undefined;
    },
    DeleteQuickMenuAccess: ({ http }, request) => {
      const id = givenId(request.id);
      const botId = givenId(request.botId);
      const clanId = givenId(request.clanId);
      deleteClanQuickMenus(http.services.platform, http.user.id, {
        ...(id ? { id } : {}),
        ...(botId ? { bot_id: botId } : {}),
        ...(clanId ? { clan_id: clanId } : {}),
        ...(request.menuName ? { menu_name: request.menuName } : {}),
      });
      return undefined;
    },
    SessionRefresh: async ({ http }, request) => {
      const session = (await call(emulator.refresh, http, { body: { refresh_token: request.token } })) as ApiSession;
      refreshes.announce(session);
      return sessionInit(session, http.services.tokens);
    },
    SessionLogout: ({ http }) => {
      http.services.revokeSession(http.claims.sid);
      return undefined;
    },
    ListFriends: ({ http }, request) => {
      const { world } = http.services.platform;
      // An int32 cannot say "unset": 0 lists every entry, as a client that names no state wants.
      const asked = new URLSearchParams({ ...(request.limit ? { limit: String(request.limit) } : {}), ...(request.cursor ? { cursor: request.cursor } : {}) });
      const page = paginate(friendEntries(world, http.user.id, request.state || undefined), readPage(asked));
      return {
        ...(page.cursor ? { cursor: page.cursor } : {}),
        friends: page.items.map(([id, f]) => {
          const user = world.user(id);
          return {
            user: { id: user.id, username: user.username, displayName: user.display_name, avatarUrl: user.avatar, createTimeSeconds: user.create_time_seconds },
            state: FRIEND_STATE_NUMBERS[f.state],
            updateTimeSeconds: f.update_time_seconds,
          };
        }),
      };
    },
    AddFriends: ({ http }, request) => {
      addFriends(http.services.platform, http.user.id, request.ids, request.usernames);
      return { ids: request.ids, usernames: request.usernames };
    },
    UpdateChannelMessage: ({ http, dialect }, request) => {
      const record = updateFromWire({ platform: http.services.platform, userId: http.user.id, dialect }, request);
      return {
        clanId: record.clan_id,
        channelId: record.channel_id,
        messageId: record.message_id,
        content: contentText(dialect, record.content),
        mode: record.mode,
        isPublic: record.is_public,
        topicId: record.topic_id,
        createTimeSeconds: record.create_time_seconds,
      };
    },
    DeleteChannelMessage: ({ http, dialect }, request) => {
      const record = removeFromWire({ platform: http.services.platform, userId: http.user.id, dialect }, request);
      return { clanId: record.clan_id, channelId: record.channel_id, messageId: record.message_id, mode: record.mode, isPublic: record.is_public };
    },
  };
}
