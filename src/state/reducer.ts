import { Events } from '../events/names.js';
import type { ReduceContext, StoreAction } from './actions.js';
import type { ClientState } from './client-state.js';
import { reduceChannelMessage } from './reducers/channel-message.js';
import { reduceChannels } from './reducers/channels.js';
import { reduceClans } from './reducers/clans.js';
import { reduceDmChannels } from './reducers/dm-channels.js';
import { reduceMembers } from './reducers/members.js';
import { evictWindows, reduceMessages } from './reducers/messages.js';
import { reducePresence } from './reducers/presence.js';
import { reduceRoles } from './reducers/roles.js';
import { reduceUsers } from './reducers/users.js';

/** Reduces any action; the same state comes back when nothing changed. A channel message takes its own path. */
export function reduce(state: ClientState, action: StoreAction, context: ReduceContext): ClientState {
  return action.type === Events.ChannelMessage ? reduceChannelMessage(state, action.data, context) : reduceEach(state, action, context);
}

/** One reducer per resource, combined; the same state comes back when nothing changed. */
export function reduceEach(state: ClientState, action: StoreAction, context: ReduceContext): ClientState {
  const clans = reduceClans(state.clans, action, context);
  const channelsSlice = reduceChannels(state, action, context);
  const users = reduceUsers(state.users, action, context);
  const members = reduceMembers(state.members, action, context, clans);
  let messagesSlice = reduceMessages(state, action, context);
  let presenceAfter = reducePresence(state.presence, action);
  // A channel the cache forgot (deleted, left, no longer listed) takes its messages and room presence along.
  for (const id of channelsSlice.removed ?? []) {
    if (channelsSlice.channels.has(id)) continue;
    messagesSlice = evictWindows(messagesSlice, [id], context.token);
    presenceAfter = presenceAfter.delete(id);
  }
  const dmChannels = reduceDmChannels(state.dmChannels, action, context);
  const roles = reduceRoles(state.roles, action, context);
  const presence = presenceAfter;
  if (
    clans === state.clans &&
    channelsSlice.channels === state.channels &&
    channelsSlice.clanChannels === state.clanChannels &&
    users === state.users &&
    members === state.members &&
    messagesSlice.messages === state.messages &&
    dmChannels === state.dmChannels &&
    roles === state.roles &&
    presence === state.presence
  ) {
    return state;
  }
  return {
    clans,
    channels: channelsSlice.channels,
    clanChannels: channelsSlice.clanChannels,
    users,
    members,
    messages: messagesSlice.messages,
    messageCount: messagesSlice.messageCount,
    dmChannels,
    roles,
    presence,
  };
}
