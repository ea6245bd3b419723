import { Events } from '../../events/names.js';
import type { MessageTypingEvent } from '../../events/payloads.js';
import { streamModeOf } from '../../model/enums.js';
import type { PlatformContext } from './context.js';
import { targetChannel } from './messages.js';

/** Who types where, as any surface (the test API, the console, the production socket) asks for it. */
export interface TypingInput {
  userId: string;
  channelId: string;
  /** When given (and not empty), must be the channel's clan. */
  clanId?: string;
  /** The topic (thread) typed in; default none. */
  topicId?: string;
}

/**
 * Tells everyone who can see a channel that a user is typing in it: `message_typing_event`, which
 * the platform's clients show as "… is typing". A notice, not a message: it has no id and nothing
 * stores it, so nothing can reply to it.
 */
export function announceTyping(ctx: PlatformContext, input: TypingInput): MessageTypingEvent {
  const sender = ctx.world.user(input.userId);
  const channel = targetChannel(ctx, { channelId: input.channelId, senderId: input.userId, ...(input.clanId ? { clanId: input.clanId } : {}) });
  const event: MessageTypingEvent = {
    clan_id: channel.clan_id,
    channel_id: channel.channel_id,
    sender_id: sender.id,
    mode: streamModeOf(channel.type),
    is_public: ctx.world.isPublic(channel),
    sender_username: sender.username,
    sender_display_name: sender.display_name,
    topic_id: input.topicId ?? '',
  };
  ctx.hub.emit(Events.MessageTyping, event, { channel });
  return event;
}
