import type { ChannelMessage } from '../../events/payloads.js';
import type { ReduceContext } from '../actions.js';
import type { ClientState } from '../client-state.js';
import { channelsOnMessage } from './channels.js';
import { dmChannelsOnMessage } from './dm-channels.js';
import { membersOnMessage } from './members.js';
import { messagesOnMessage } from './messages.js';
import { usersOnMessage } from './users.js';

/**
 * A `channel_message`, the event nearly all traffic is made of, reduced in
 * one pass over the slices it can change (channels, users, members, DM
 * channels, message windows), each looked up once; the same state comes back
 * when nothing changed. The generic path (reducer.ts) gives the same result.
 */
export function reduceChannelMessage(state: ClientState, message: ChannelMessage, context: ReduceContext): ClientState {
  const channel = state.channels.get(message.channel_id);
  const sender = state.users.get(message.sender_id);
  const channelsSlice = channelsOnMessage(state, message, channel);
  const users = usersOnMessage(state.users, message, sender, context.token);
  const members = membersOnMessage(state.members, message, state.clans, context);
  const dmChannels = dmChannelsOnMessage(state.dmChannels, message, context.selfId);
  const messagesSlice = messagesOnMessage(state, message, context, { channel, sender });
  if (
    channelsSlice.channels === state.channels &&
    channelsSlice.clanChannels === state.clanChannels &&
    users === state.users &&
    members === state.members &&
    dmChannels === state.dmChannels &&
    messagesSlice.messages === state.messages
  ) {
    return state;
  }
  return {
    clans: state.clans,
    channels: channelsSlice.channels,
    clanChannels: channelsSlice.clanChannels,
    users,
    members,
    messages: messagesSlice.messages,
    messageCount: messagesSlice.messageCount,
    dmChannels,
    roles: state.roles,
    presence: state.presence,
  };
}
