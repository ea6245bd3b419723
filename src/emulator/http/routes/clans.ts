import type {
  ApiChannelList,
  ApiClanList,
  ApiClanMember,
  ApiClanMemberList,
  ApiOk,
  ApiRoleListEventResponse,
  ApiVoiceChannelUserList,
} from '../../../model/api.js';
import { ChannelType } from '../../../model/enums.js';
import { EmulatorError } from '../../errors.js';
import { checkRoleBody, updateRole } from '../../platform/roles.js';
import { apiChannel, apiClan, apiMember, apiRole } from '../../world/views.js';
import { paginate, readPage } from '../pagination.js';
import { route, type Route } from '../router.js';

const byId = <T>(key: (item: T) => string) => (a: T, b: T) => (BigInt(key(a)) < BigInt(key(b)) ? -1 : 1);

export const clanRoutes: Route[] = [
  route('GET', '/v2/clans', ({ services, user, query }): ApiClanList => {
    const { world } = services.platform;
    const clans = [...(world.clansOfUser.get(user.id) ?? [])].map((id) => world.clan(id)).sort(byId((c) => c.id));
    const page = paginate(clans, readPage(query));
    return { clans: page.items.map(apiClan), ...(page.cursor ? { cursor: page.cursor } : {}) };
  }),
  route('GET', '/v2/clans/{clanId}', ({ services, user, params }) => apiClan(services.platform.world.memberClan(params.clanId!, user.id))),
  route('GET', '/v2/clans/{clanId}/channels', ({ services, user, params, query }): ApiChannelList => {
    const { world } = services.platform;
    world.memberClan(params.clanId!, user.id);
    const channels = world
      .channelsOfClan(params.clanId!)
      .filter((c) => world.canAccess(c, user.id))
      .sort(byId((c) => c.channel_id));
    const page = paginate(channels, readPage(query));
    return { channels: page.items.map(apiChannel), ...(page.cursor ? { cursor: page.cursor } : {}) };
  }),
  route('GET', '/v2/clans/{clanId}/members', ({ services, user, params, query }): ApiClanMemberList => {
    const { world } = services.platform;
    world.memberClan(params.clanId!, user.id);
    const members = [...(world.members.get(params.clanId!)?.values() ?? [])].sort(byId((m) => m.user_id));
    const page = paginate(members, readPage(query));
    return {
      clan_id: params.clanId!,
      members: page.items.map((m) => apiMember(world.user(m.user_id), m)),
      ...(page.cursor ? { cursor: page.cursor } : {}),
    };
  }),
  route('GET', '/v2/clans/{clanId}/members/{userId}', ({ services, user, params }): ApiClanMember => {
    const { world } = services.platform;
    world.memberClan(params.clanId!, user.id);
    const member = world.member(params.clanId!, params.userId!);
    if (!member) throw EmulatorError.notFound(`member ${params.userId!} of clan ${params.clanId!}`);
    return apiMember(world.user(member.user_id), member);
  }),
  route('GET', '/v2/clans/{clanId}/voice/users', ({ services, user, params, query }): ApiVoiceChannelUserList => {
    const { world } = services.platform;
    world.memberClan(params.clanId!, user.id);
    const channelId = query.get('channel_id') ?? '';
    const typeText = query.get('channel_type');
    const channelType: ChannelType = typeText === null || typeText === '' ? ChannelType.CHANNEL_TYPE_GMEET_VOICE : Number(typeText);
    if (!Number.isInteger(channelType)) throw EmulatorError.badRequest('channel_type must be an integer', { channel_type: 'invalid' });
    const page = readPage(query, { default: 500, max: 500 });
    if (channelId) {
      const channel = world.channels.get(channelId);
      if (!channel || channel.clan_id !== params.clanId) throw EmulatorError.notFound(`channel ${channelId} in clan ${params.clanId!}`);
      world.accessibleChannel(channelId, user.id);
    }
    const rooms = channelType === ChannelType.CHANNEL_TYPE_STREAMING ? world.streaming : world.voice;
    const presences = [];
    for (const channel of world.channelsOfClan(params.clanId!)) {
      if (channel.type !== channelType || (channelId && channel.channel_id !== channelId)) continue;
      if (!world.canAccess(channel, user.id)) continue;
      for (const presence of rooms.get(channel.channel_id)?.values() ?? []) presences.push(presence);
    }
    const result = paginate(presences, page);
    return { voice_channel_users: result.items.map((p) => ({ ...p })), ...(result.cursor ? { cursor: result.cursor } : {}) };
  }),
  route('GET', '/v2/clans/{clanId}/roles', ({ services, user, params, query }): ApiRoleListEventResponse => {
    const { world } = services.platform;
    world.memberClan(params.clanId!, user.id);
    const stateText = query.get('state');
    const state = stateText ? Number(stateText) : undefined;
    if (state !== undefined && !Number.isInteger(state)) throw EmulatorError.badRequest('state must be an integer', { state: 'invalid' });
    const page = readPage(query);
    const roles = [...(world.roles.get(params.clanId!)?.values() ?? [])]
      .filter((r) => state === undefined || r.active === state)
      .sort(byId((r) => r.id));
    const result = paginate(roles, page);
    return {
      clan_id: params.clanId!,
      limit: page.limit,
      ...(state !== undefined ? { state } : {}),
      ...(query.get('cursor') ? { cursor: query.get('cursor')! } : {}),
      roles: { roles: result.items.map(apiRole), ...(result.cursor ? { next_cursor: result.cursor } : {}) },
    };
  }),
  route('PUT', '/v2/roles/{roleId}', ({ services, user, params, body }): ApiOk => {
    const { world } = services.platform;
    const role = world.role(params.roleId!);
    const clan = world.memberClan(role.clan_id, user.id);
    if (clan.creator_id !== user.id && !user.is_bot) throw EmulatorError.forbidden('only the clan owner and bots may change roles');
    updateRole(services.platform, role.id, checkRoleBody(body), user.id);
    return { ok: true };
  }),
];
