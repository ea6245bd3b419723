import { Events } from '../../events/names.js';
import type { ChannelMessage } from '../../events/payloads.js';
import { TypeMessage, streamModeOf } from '../../model/enums.js';
import { nowSeconds, type PlatformContext } from './context.js';
import { senderFields } from './messages.js';

/**
 * Tells everyone who can see a channel that `userId` is typing in it: a `channel_message` of code 3
 * (Typing) with empty content, as the platform's clients show "… is typing". Nothing is stored:
 * clients keep no typing notice in their caches either.
 */
export function announceTyping(ctx: PlatformContext, userId: string, channelId: string): ChannelMessage {
  const sender = ctx.world.user(userId);
  const channel = ctx.world.accessibleChannel(channelId, userId);
  const now = nowSeconds();
  const id = ctx.ids.id();
  const event: ChannelMessage = {
    id,
    message_id: id,
    channel_id: channel.channel_id,
    clan_id: channel.clan_id,
    channel_label: channel.channel_label,
    mode: streamModeOf(channel.type),
    code: TypeMessage.Typing,
    ...senderFields(ctx, sender, channel.clan_id),
    content: { t: '' },
    mentions: [],
    attachments: [],
    reactions: [],
    references: [],
    is_public: ctx.world.isPublic(channel),
    create_time_seconds: now,
    update_time_seconds: now,
    topic_id: '',
    category_name: channel.category_name,
  };
  ctx.hub.emit(Events.ChannelMessage, event, { channel });
  return event;
}
