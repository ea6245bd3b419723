import { Events } from '../../events/names.js';
import { ChannelStreamMode, ChannelType, DM_CLAN_ID } from '../../model/enums.js';
import type { ReduceContext, StoreAction } from '../actions.js';
import { PersistentMap } from '../persistent-map.js';

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
    case Events.ChannelMessage: {
      const m = action.data;
      if (m.clan_id !== DM_CLAN_ID || m.mode !== ChannelStreamMode.STREAM_MODE_DM || m.sender_id === context.selfId) return dms;
      return dms.set(m.sender_id, m.channel_id);
    }
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
