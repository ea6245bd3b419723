import type { ApiChannelDescription, EventUser } from '../core.js';
import type { ChannelDescription, UserProfileRedis } from '../schema/sdk-2.8.37_pb.js';
import { fields } from './fields.js';
import { idList, idText } from './ids.js';

/**
 * Shapes production shares between events and REST answers, as clanstream
 * names them. Empty fields are left out of a channel description, as
 * clanstream's REST leaves out what it does not know.
 */

export function eventUser(profile: UserProfileRedis | undefined): EventUser {
  return { user_id: '', username: '', avatar: '', display_name: '', ...(profile ? (fields(profile, 'user_id* username avatar display_name') as unknown as EventUser) : {}) };
}

export function channelDescription(desc: ChannelDescription | undefined): ApiChannelDescription {
  if (desc === undefined) return {};
  const out: ApiChannelDescription = { channel_id: idText(desc.channelId), clan_id: desc.clanId, type: desc.type, channel_private: desc.channelPrivate };
  const text = (key: 'channel_label' | 'category_id' | 'category_name' | 'parent_id' | 'meeting_code' | 'creator_id' | 'topic', value: string) => {
    if (value !== '') out[key] = value;
  };
  text('channel_label', desc.channelLabel);
  text('category_id', idText(desc.categoryId));
  text('category_name', desc.categoryName);
  text('parent_id', idText(desc.parentId));
  text('meeting_code', desc.meetingCode);
  text('creator_id', idText(desc.creatorId));
  text('topic', desc.topic);
  if (desc.createTimeSeconds) out.create_time_seconds = desc.createTimeSeconds;
  if (desc.updateTimeSeconds) out.update_time_seconds = desc.updateTimeSeconds;
  const users = idList(desc.userIds);
  if (users.length > 0) out.user_ids = users;
  out.active = desc.active;
  return out;
}
