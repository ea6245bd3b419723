import { ProtocolError, type ApiChannelDescription, type ApiClanDesc, type ApiClanMember, type ChannelMessage, type ApiFriend, type ApiQuickMenuAccess, type ApiRole, type ApiUser, type ApiVoiceChannelUser, type FriendState } from '../core.js';
import { field, isRecord, picked } from '../events/fields.js';
import { idList, idText } from '../events/ids.js';
import { channelMessage } from '../events/translate.js';
import type * as B from '../schema/sdk-2.8.37_pb.js';

/**
 * Production REST answers in clanstream's shapes. sdk-2.8.33 answers JSON
 * whose ids may come as numbers; later dialects answer protobuf messages,
 * decoded with camelCase names and ids as text. Each reader takes either
 * spelling, so both sides share them.
 */

export type Row = Record<string, unknown>;


/** A field under its snake_case or camelCase name. */
export const get = field;

export const text = (row: Row, key: string): string => {
  const v = get(row, key);
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'bigint' ? String(v) : '';
};
export const id = (row: Row, key: string): string => idText(text(row, key));
export const num = (row: Row, key: string): number => {
  const v = get(row, key);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : typeof v === 'bigint' ? Number(v) : 0;
  return Number.isFinite(n) ? n : 0;
};
export const ids = (row: Row, key: string): string[] => {
  const v = get(row, key);
  return Array.isArray(v) ? idList(v.map((x) => (typeof x === 'number' || typeof x === 'bigint' ? String(x) : typeof x === 'string' ? x : ''))) : [];
};

/** The list under `key` (rows only), or a ProtocolError naming the route when the answer is not an object. */
export function rowsOf(answer: unknown, key: string, route: string): Row[] {
  if (!isRecord(answer)) throw new ProtocolError(`${route} answered with something that is not an object`, typeof answer === 'string' ? answer.slice(0, 64) : undefined);
  const list = get(answer, key);
  return Array.isArray(list) ? list.filter(isRecord) : [];
}

export function rowOf(answer: unknown, route: string): Row {
  if (!isRecord(answer)) throw new ProtocolError(`${route} answered with something that is not an object`, typeof answer === 'string' ? answer.slice(0, 64) : undefined);
  return answer;
}

export function clanOf(row: Row): ApiClanDesc {
  return { clan_id: id(row, 'clan_id'), clan_name: text(row, 'clan_name'), welcome_channel_id: id(row, 'welcome_channel_id'), creator_id: id(row, 'creator_id'), ...picked(row, 'logo banner') };
}

export function channelOf(row: Row): ApiChannelDescription {
  const users = ids(row, 'user_ids');
  return {
    channel_id: id(row, 'channel_id'),
    clan_id: text(row, 'clan_id'),
    type: num(row, 'type'),
    channel_private: num(row, 'channel_private'),
    ...picked(row, 'channel_label category_name meeting_code topic category_id parent_id creator_id create_time_seconds update_time_seconds app_url'),
    ...(get(row, 'status') !== undefined ? { status: num(row, 'status') } : {}),
    ...(get(row, 'active') !== undefined ? { active: num(row, 'active') } : {}),
    ...(users.length > 0 ? { user_ids: users } : {}),
  };
}

export function userOf(row: Row): ApiUser {
  return { id: id(row, 'id') || id(row, 'user_id'), username: text(row, 'username'), ...picked(row, 'display_name avatar_url create_time_seconds') };
}

/** A clan member: `ClanUser` of ListClanUsers, or era A's JSON row of it. */
export function memberOf(row: Row): ApiClanMember {
  const user = get(row, 'user');
  return { user: userOf(isRecord(user) ? user : {}), clan_nick: text(row, 'clan_nick'), clan_avatar: text(row, 'clan_avatar'), role_ids: ids(row, 'role_id') };
}

/**
 * A message of a page of history, read as a `channel_message` push is:
 * era A's JSON rows (snake_case) are named as the decoded messages are.
 */
export function messageOf(row: Row, problems: string[]): ChannelMessage | string {
  const named: Row = {};
  for (const key in row) named[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = row[key];
  return channelMessage(named as unknown as B.ChannelMessage, problems);
}

/** Friend states as production numbers them. */
const FRIEND_STATES: readonly FriendState[] = ['accepted', 'invite_sent', 'invite_received', 'blocked'];

export function friendOf(row: Row): ApiFriend {
  const user = get(row, 'user');
  return { user: userOf(isRecord(user) ? user : {}), state: FRIEND_STATES[num(row, 'state')] ?? 'accepted', update_time_seconds: num(row, 'update_time_seconds') };
}

/**
 * Production's friend state number of a state clanstream names (the list
 * filter). An unknown state is passed on as it is, for the request's encoding
 * to refuse as a ValidationError naming the field, never dropped.
 */
export function friendStateNumber(state: string | undefined): number | string | undefined {
  if (!state) return undefined;
  const index = (FRIEND_STATES as readonly string[]).indexOf(state);
  return index >= 0 ? index : Number.isInteger(Number(state)) ? Number(state) : state;
}

/**
 * Voice users: clanstream's rows (one per user) from production's, which
 * since SDK 2.8.40 group a room's users (`user_ids`, `channel_id`,
 * `room_name`); rows already per user (sdk-2.8.33's JSON) are kept.
 */
export function voiceUsersOf(rows: readonly Row[]): ApiVoiceChannelUser[] {
  return rows.flatMap((row) => {
    const grouped = get(row, 'user_ids');
    const channelId = id(row, 'channel_id');
    if (Array.isArray(grouped)) return ids(row, 'user_ids').map((userId) => ({ id: `${channelId}:${userId}`, user_id: userId, channel_id: channelId, participant: text(row, 'room_name') }));
    return [{ id: text(row, 'id'), user_id: id(row, 'user_id'), channel_id: channelId, participant: text(row, 'participant') }];
  });
}

export function roleOf(row: Row, clanId: string): ApiRole {
  const listed = (holder: unknown, key: string): string[] => (holder && typeof holder === 'object' ? rowsOf(holder, key, 'a role').map((r) => id(r, 'id')).filter((x) => x !== '') : []);
  return {
    id: id(row, 'id'),
    clan_id: text(row, 'clan_id') || clanId,
    title: text(row, 'title'),
    ...picked(row, 'color role_icon description creator_id active# display_online# allow_mention#'),
    user_ids: Array.isArray(get(row, 'user_ids')) ? ids(row, 'user_ids') : listed(get(row, 'role_user_list'), 'role_users'),
    permission_ids: Array.isArray(get(row, 'permission_ids')) ? ids(row, 'permission_ids') : listed(get(row, 'permission_list'), 'permissions'),
  };
}

export function quickMenuOf(row: Row): ApiQuickMenuAccess {
  return picked(row, 'id! bot_id! channel_id! menu_name! clan_id action_msg background') as unknown as ApiQuickMenuAccess;
}
