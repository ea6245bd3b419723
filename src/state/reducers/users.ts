import { Events } from '../../events/names.js';
import type { ChannelMessage, EventUser } from '../../events/payloads.js';
import type { ApiUser } from '../../model/api.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import type { EditToken } from '../edit-token.js';
import { frozenRecord } from '../immer.js';
import { PersistentMap } from '../persistent-map.js';
import type { UserState } from '../records.js';

export function userFromApi(user: ApiUser): UserState {
  return frozenRecord({
    id: user.id,
    username: user.username,
    display_name: user.display_name ?? user.username,
    avatar: user.avatar_url ?? '',
    ...(user.is_bot !== undefined ? { is_bot: user.is_bot } : {}),
  });
}

function userFromEvent(user: EventUser): UserState {
  return frozenRecord({ id: user.user_id, username: user.username, display_name: user.display_name || user.username, avatar: user.avatar });
}

/**
 * What a message says about its sender (`existing`: the sender as cached): inserted or refreshed, the map
 * unchanged when nothing differs (the hot path of every message).
 */
export function usersOnMessage(users: PersistentMap<UserState>, message: ChannelMessage, existing: UserState | undefined, token: EditToken | undefined): PersistentMap<UserState> {
  const { sender_id: id, username, avatar } = message;
  if (!id || !username) return users;
  const displayName = message.display_name || username;
  if (existing && existing.username === username && existing.display_name === displayName && existing.avatar === avatar) return users;
  return users.set(id, frozenRecord({ ...existing, id, username, display_name: displayName, avatar }), token);
}

/** Users: learned from members, channel events and the senders of messages. */
export function reduceUsers(users: PersistentMap<UserState>, action: StoreAction, context: Pick<ReduceContext, 'token'> = {}): PersistentMap<UserState> {
  switch (action.type) {
    case Events.ChannelMessage:
      return usersOnMessage(users, action.data, users.get(action.data.sender_id), context.token);
    case Events.AddClanUser:
      return users.set(action.data.user.user_id, userFromEvent(action.data.user));
    case Events.UserChannelAdded:
      return users.setMany(action.data.users.map((u) => [u.user_id, userFromEvent(u)] as const));
    case 'sync/users':
      return users.setMany(action.users.map((u) => [u.id, userFromApi(u)] as const));
    case 'sync/members':
      return users.setMany(action.members.map((m) => [m.user.id, userFromApi(m.user)] as const));
    case 'local/reset':
      return PersistentMap.empty();
    default:
      return users;
  }
}
