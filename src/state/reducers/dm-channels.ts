import { Events } from '../../events/names.js';
import type { ChannelMessage } from '../../events/payloads.js';
import { ChannelStreamMode, ChannelType, DM_CLAN_ID } from '../../model/enums.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import { PersistentMap } from '../persistent-map.js';

/** A direct message from someone else names the DM channel with them. */
export function dmChannelsOnMessage(dms: PersistentMap<string>, message: ChannelMessage, selfId: string | undefined): PersistentMap<string> {
  if (message.clan_id !== DM_CLAN_ID || message.mode !== ChannelStreamMode.STREAM_MODE_DM || message.sender_id === selfId) return dms;
  return dms.set(message.sender_id, message.channel_id);
}

/** User id → DM channel id, from DM listings and from direct messages seen. */
export function reduceDmChannels(dms: PersistentMap<string>, action: StoreAction, context: ReduceContext): PersistentMap<string> {
  switch (action.type) {
    case 'sync/dm-channels': {
      const entries: Array<readonly [string, string]> = [];
      for (const channel of action.channels) {
        if (channel.type !== ChannelType.CHANNEL_TYPE_DM || !channel.channel_id) continue;
        const other = (channel.user_ids ?? []).find((id) => id !== context.selfId);
        if (other) entries.push([other, channel.channel_id]);
      }
      if (!action.replace) return dms.setMany(entries);
      // A listing that says what the cache already holds changes nothing.
      const same = entries.length === dms.size && entries.every(([userId, channelId]) => dms.get(userId) === channelId);
      return same ? dms : PersistentMap.from(entries);
    }
    case Events.ChannelMessage:
      return dmChannelsOnMessage(dms, action.data, context.selfId);
    case Events.ChannelDeleted: {
      let next = dms;
      for (const [userId, channelId] of dms) if (channelId === action.data.channel_id) next = next.delete(userId);
      return next;
    }
    case 'local/reset':
      return PersistentMap.empty();
    default:
      return dms;
  }
}
