import { Events } from '../../events/names.js';
import type { StoreAction } from '../actions.js';
import { frozen, produce } from '../immer.js';
import { PersistentMap } from '../persistent-map.js';
import { isRecordKey, ownEntry } from '../record-keys.js';
import type { PresenceState } from '../records.js';

type Presence = PersistentMap<Readonly<Record<string, PresenceState>>>;

function join(presence: Presence, entry: PresenceState): Presence {
  if (!isRecordKey(entry.user_id)) return presence;
  const room = presence.get(entry.channel_id) ?? {};
  return presence.set(entry.channel_id, produce(room, (draft) => {
    draft[entry.user_id] = entry;
  }));
}

function leave(presence: Presence, channelId: string, userId: string): Presence {
  const room = presence.get(channelId);
  if (!room || !ownEntry(room, userId)) return presence;
  const next = produce(room, (draft) => {
    delete draft[userId];
  });
  return Object.keys(next).length === 0 ? presence.delete(channelId) : presence.set(channelId, next);
}

/** Who is in which voice or streaming room. */
export function reducePresence(presence: Presence, action: StoreAction): Presence {
  switch (action.type) {
    case Events.VoiceJoinedEvent: {
      const e = action.data;
      return join(presence, frozen({ id: e.id, user_id: e.user_id, channel_id: e.voice_channel_id, clan_id: e.clan_id, participant: e.participant, kind: 'voice' }));
    }
    case Events.VoiceLeavedEvent:
      return leave(presence, action.data.voice_channel_id, action.data.voice_user_id);
    case Events.VoiceEndedEvent:
      return presence.delete(action.data.voice_channel_id);
    case Events.StreamingJoinedEvent: {
      const e = action.data;
      return join(presence, frozen({ id: e.id, user_id: e.user_id, channel_id: e.streaming_channel_id, clan_id: e.clan_id, participant: e.participant, kind: 'streaming' }));
    }
    case Events.StreamingLeavedEvent:
      return leave(presence, action.data.streaming_channel_id, action.data.streaming_user_id);
    case 'sync/presence': {
      let next = presence;
      for (const u of action.users) next = join(next, frozen({ id: u.id, user_id: u.user_id, channel_id: u.channel_id, clan_id: action.clanId, participant: u.participant, kind: action.kind }));
      return next;
    }
    case Events.ChannelDeleted:
      return presence.delete(action.data.channel_id);
    case 'local/reset':
      return PersistentMap.empty();
    default:
      return presence;
  }
}
