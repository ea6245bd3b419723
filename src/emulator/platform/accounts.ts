import { randomBytes } from 'node:crypto';
import { Events } from '../../events/names.js';
import { ChannelStatus, ChannelType, DM_CLAN_ID } from '../../model/enums.js';
import { addressOf } from '../../wallet/address.js';
import { EmulatorError } from '../errors.js';
import type { ChannelRecord, ClanRecord, UserRecord } from '../world/records.js';
import { apiChannel, channelCreated, channelUpdated, eventUser } from '../world/views.js';
import { nowSeconds, type PlatformContext } from './context.js';

const USERNAME = /^[A-Za-z0-9_.-]{1,64}$/;

export interface CreateUserInput {
  username: string;
  display_name?: string;
  avatar?: string;
  /** Keep a known id (seeded worlds). */
  id?: string;
  /** Keep a known API key (seeded worlds). */
  token?: string;
}

/** Creates an account that can log in with its API key (`token`). */
export function createAccount(ctx: PlatformContext, input: CreateUserInput, isBot: boolean): UserRecord {
  const { world } = ctx;
  if (typeof input.username !== 'string' || !USERNAME.test(input.username)) {
    throw EmulatorError.badRequest('username must be 1-64 letters, digits, "_", "." or "-"', { username: 'invalid' });
  }
  if (world.usersByName.has(input.username)) throw new EmulatorError(409, 'conflict', `username ${input.username} is taken`);
  // An API key names one account: a second holder would silently take it over at login.
  const keyHolder = input.token === undefined ? undefined : world.usersByToken.get(input.token);
  if (keyHolder) throw new EmulatorError(409, 'conflict', `the API key given for ${input.username} is the API key of ${keyHolder.username}; give each account its own`, { token: 'taken by another account' });
  if (input.id !== undefined) {
    if (world.users.has(input.id)) throw new EmulatorError(409, 'conflict', `user id ${input.id} is taken`);
    ctx.ids.reserve(input.id);
  }
  const user: UserRecord = {
    id: input.id ?? ctx.ids.id(),
    username: input.username,
    display_name: input.display_name ?? input.username,
    avatar: input.avatar ?? `https://avatars.clanstream.test/${input.username}.png`,
    is_bot: isBot,
    token: input.token ?? randomBytes(24).toString('base64url'),
    create_time_seconds: nowSeconds(),
  };
  world.indexUser(user);
  ctx.ledger.register(user.id, addressOf(user.id));
  return user;
}

export interface CreateChannelInput {
  clanId: string;
  name: string;
  type?: ChannelType;
  private?: boolean;
  parentId?: string;
  categoryId?: string;
  categoryName?: string;
  creatorId?: string;
  /** Members of a DM or group channel, or of a private channel. */
  memberIds?: string[];
  id?: string;
}

const VOICE_TYPES = new Set<number>([
  ChannelType.CHANNEL_TYPE_GMEET_VOICE,
  ChannelType.CHANNEL_TYPE_SERVICE_VOICE,
  ChannelType.CHANNEL_TYPE_STREAMING,
]);

export function isVoiceType(type: number): boolean {
  return VOICE_TYPES.has(type);
}

/** Builds and stores a channel record without announcing it. */
function storeChannel(ctx: PlatformContext, input: CreateChannelInput): ChannelRecord {
  const type = input.type ?? ChannelType.CHANNEL_TYPE_CHANNEL;
  if (!Object.values(ChannelType).includes(type)) throw EmulatorError.badRequest(`unknown channel type ${type}`, { type: 'not a ChannelType' });
  const direct = type === ChannelType.CHANNEL_TYPE_DM || type === ChannelType.CHANNEL_TYPE_GROUP;
  if (direct && input.clanId !== DM_CLAN_ID) throw EmulatorError.badRequest('DM and group channels live in clan "0"', { clanId: 'must be "0"' });
  if (!direct) ctx.world.clan(input.clanId);
  if (type === ChannelType.CHANNEL_TYPE_THREAD) {
    const parent = input.parentId ? ctx.world.channel(input.parentId) : undefined;
    if (!parent || parent.clan_id !== input.clanId) throw EmulatorError.badRequest('a thread needs a parent channel in the same clan', { parentId: 'invalid' });
  }
  if (input.id !== undefined) ctx.ids.reserve(input.id);
  const now = nowSeconds();
  const id = input.id ?? ctx.ids.id();
  const channel: ChannelRecord = {
    channel_id: id,
    clan_id: input.clanId,
    channel_label: input.name,
    type,
    channel_private: input.private || direct ? 1 : 0,
    // A clan's default category shares the clan's id: a number, as the int64 ids of the production wire's later dialects need.
    category_id: input.categoryId ?? (direct ? '' : input.clanId),
    category_name: input.categoryName ?? (direct ? '' : 'Text Channels'),
    parent_id: input.parentId ?? '',
    meeting_code: isVoiceType(type) ? `meet-${id.slice(-8)}` : '',
    creator_id: input.creatorId ?? '',
    create_time_seconds: now,
    update_time_seconds: now,
    topic: '',
    status: ChannelStatus.Active,
    active: 1,
    app_url: type === ChannelType.CHANNEL_TYPE_APP ? `https://apps.clanstream.test/${id}` : '',
    members: new Set(input.memberIds ?? []),
  };
  if (input.creatorId) channel.members.add(input.creatorId);
  ctx.world.channels.set(id, channel);
  return channel;
}

/** Creates a channel of any type and announces it with `channel_created_event`. */
export function createChannel(ctx: PlatformContext, input: CreateChannelInput): ChannelRecord {
  const channel = storeChannel(ctx, input);
  if (!ctx.world.isDirect(channel)) ctx.hub.emit(Events.ChannelCreated, channelCreated(channel), { channel });
  return channel;
}

/** Creates a clan with its welcome channel; the owner becomes a member. */
export function createClan(ctx: PlatformContext, input: { name: string; ownerId?: string; id?: string; welcomeChannelName?: string }): ClanRecord {
  if (typeof input.name !== 'string' || input.name.trim() === '') throw EmulatorError.badRequest('a clan needs a name', { name: 'is required' });
  if (input.ownerId !== undefined) ctx.world.user(input.ownerId);
  if (input.id !== undefined) ctx.ids.reserve(input.id);
  const clan: ClanRecord = {
    id: input.id ?? ctx.ids.id(),
    name: input.name,
    welcome_channel_id: '',
    creator_id: input.ownerId ?? '',
    logo: '',
    banner: '',
  };
  ctx.world.clans.set(clan.id, clan);
  ctx.world.members.set(clan.id, new Map());
  ctx.world.roles.set(clan.id, new Map());
  const welcome = storeChannel(ctx, { clanId: clan.id, name: input.welcomeChannelName ?? 'general', ...(input.ownerId ? { creatorId: input.ownerId } : {}) });
  clan.welcome_channel_id = welcome.channel_id;
  if (input.ownerId) addClanMember(ctx, clan.id, input.ownerId);
  return clan;
}

/** Adds a user to a clan and announces it to the clan and to the user. Adding a member twice changes nothing. */
export function addClanMember(ctx: PlatformContext, clanId: string, userId: string, invitorId = ''): boolean {
  ctx.world.clan(clanId);
  const user = ctx.world.user(userId);
  if (ctx.world.isMember(clanId, userId)) return false;
  ctx.world.addMembership(clanId, { user_id: userId, clan_nick: '', clan_avatar: '', role_ids: new Set() });
  ctx.hub.emit(Events.AddClanUser, { clan_id: clanId, user: eventUser(user), invitor: invitorId }, { clanId, also: [userId] });
  return true;
}

/** Removes users from a clan; they hear of it too. */
export function removeClanMembers(ctx: PlatformContext, clanId: string, userIds: string[]): string[] {
  ctx.world.clan(clanId);
  const removed = userIds.filter((id) => ctx.world.isMember(clanId, id));
  if (removed.length === 0) return removed;
  // Announce first, while the removed users are still members and can be reached as such.
  ctx.hub.emit(Events.UserClanRemoved, { clan_id: clanId, user_ids: removed }, { clanId, also: removed });
  for (const id of removed) {
    ctx.world.removeMembership(clanId, id);
    for (const channel of ctx.world.channelsOfClan(clanId)) channel.members.delete(id);
  }
  return removed;
}

/** Adds users to a channel's member list (private channels and threads need it to be read). */
export function addChannelMembers(ctx: PlatformContext, channelId: string, userIds: string[], callerId = ''): string[] {
  const channel = ctx.world.channel(channelId);
  const users = userIds.map((id) => ctx.world.user(id));
  for (const user of users) {
    if (!ctx.world.isDirect(channel) && !ctx.world.isMember(channel.clan_id, user.id)) {
      throw EmulatorError.badRequest(`user ${user.id} is not a member of the channel's clan`, { userIds: 'not clan members' });
    }
  }
  const added = users.filter((u) => !channel.members.has(u.id));
  if (added.length === 0) return [];
  for (const user of added) channel.members.add(user.id);
  ctx.hub.emit(
    Events.UserChannelAdded,
    { channel_desc: apiChannel(channel), users: added.map(eventUser), status: channel.status, clan_id: channel.clan_id, caller: callerId },
    { channel, also: added.map((u) => u.id) },
  );
  return added.map((u) => u.id);
}

export function removeChannelMembers(ctx: PlatformContext, channelId: string, userIds: string[]): string[] {
  const channel = ctx.world.channel(channelId);
  const removed = userIds.filter((id) => channel.members.has(id));
  if (removed.length === 0) return [];
  ctx.hub.emit(
    Events.UserChannelRemoved,
    { channel_id: channel.channel_id, user_ids: removed, channel_type: channel.type, clan_id: channel.clan_id },
    { channel, also: removed },
  );
  for (const id of removed) channel.members.delete(id);
  return removed;
}

/** What `emu.updateChannel` changes; omitted fields stay as they are. */
export interface ChannelPatch {
  name?: string;
  topic?: string;
  private?: boolean;
  active?: boolean;
  categoryId?: string;
  categoryName?: string;
}

/** Changes a channel and announces `channel_updated_event`. */
export function updateChannel(ctx: PlatformContext, channelId: string, patch: ChannelPatch): ChannelRecord {
  const channel = ctx.world.channel(channelId);
  if (patch.name !== undefined) channel.channel_label = patch.name;
  if (patch.topic !== undefined) channel.topic = patch.topic;
  if (patch.private !== undefined) channel.channel_private = patch.private ? 1 : 0;
  if (patch.active !== undefined) channel.active = patch.active ? 1 : 0;
  if (patch.categoryId !== undefined) channel.category_id = patch.categoryId;
  if (patch.categoryName !== undefined) channel.category_name = patch.categoryName;
  channel.update_time_seconds = nowSeconds();
  ctx.hub.emit(Events.ChannelUpdated, channelUpdated(channel), { channel });
  return channel;
}

/**
 * Deletes a channel with its threads (each announced by its own
 * `channel_deleted_event`, threads first), and with them their messages,
 * voice and streaming rooms and quick-menu entries.
 */
export function deleteChannel(ctx: PlatformContext, channelId: string, deletorId = ''): ChannelRecord {
  const channel = ctx.world.channel(channelId);
  if (ctx.world.clans.get(channel.clan_id)?.welcome_channel_id === channelId) {
    throw EmulatorError.badRequest('the welcome channel cannot be deleted');
  }
  // A thread left behind would point at a parent that no longer exists.
  const threads = [...ctx.world.channels.values()].filter((c) => c.parent_id === channelId && c.channel_id !== channelId);
  for (const thread of threads) deleteChannel(ctx, thread.channel_id, deletorId);
  for (const [id, entry] of ctx.world.quickMenus) if (entry.channel_id === channelId) ctx.world.quickMenus.delete(id);
  ctx.hub.emit(
    Events.ChannelDeleted,
    { clan_id: channel.clan_id, category_id: channel.category_id, parent_id: channel.parent_id, channel_id: channelId, deletor: deletorId },
    { channel },
  );
  ctx.world.channels.delete(channelId);
  ctx.world.messages.delete(channelId);
  ctx.world.voice.delete(channelId);
  ctx.world.streaming.delete(channelId);
  return channel;
}

/** The DM channel between two users, created on first use (creating one is silent). */
export function ensureDm(ctx: PlatformContext, userId: string, otherId: string): ChannelRecord {
  const other = ctx.world.user(otherId);
  ctx.world.user(userId);
  if (userId === otherId) throw EmulatorError.badRequest('cannot open a DM with yourself', { user_ids: 'is the caller' });
  return (
    ctx.world.findDm(userId, otherId) ??
    storeChannel(ctx, {
      clanId: DM_CLAN_ID,
      name: other.display_name,
      type: ChannelType.CHANNEL_TYPE_DM,
      memberIds: [userId, otherId],
      creatorId: userId,
    })
  );
}
