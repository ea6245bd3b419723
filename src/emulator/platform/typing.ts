import { Events } from '../../events/names.js';
import type { ChannelMessage } from '../../events/payloads.js';
import { TypeMessage } from '../../model/enums.js';
import { nowSeconds, type PlatformContext } from './context.js';
import { channelMessageOf } from './messages.js';

/**
 * Tells everyone who can see a channel that `userId` is typing in it: a `channel_message` of code 3
 * (Typing) with empty content, as the platform's clients show "… is typing". Nothing is stored:
 * clients keep no typing notice in their caches either.
 */
export function announceTyping(ctx: PlatformContext, userId: string, channelId: string): ChannelMessage {
  const sender = ctx.world.user(userId);
  const channel = ctx.world.accessibleChannel(channelId, userId);
  const event = channelMessageOf(ctx, sender, channel, { id: ctx.ids.id(), code: TypeMessage.Typing, content: { t: '' }, now: nowSeconds() });
  ctx.hub.emit(Events.ChannelMessage, event, { channel });
  return event;
}
