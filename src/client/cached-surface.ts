import { ValidationError } from '../errors/validation-error.js';
import type { ChannelMessageAck, MessageReactionAck } from '../gateway/protocol.js';
import type { ChannelMessage } from '../events/payloads.js';
import type { CacheManager } from '../state/cache-manager.js';
import type { Clan } from '../structures/clan.js';
import type { Message, ReactMessagePayload } from '../structures/message.js';
import type { TextChannel } from '../structures/text-channel.js';
import type { User } from '../structures/user.js';
import type { ContentInput, SendOptions } from '../structures/send-options.js';
import type { EditOptions, MessageTarget } from './bot-surface.js';
import { EventSurface } from './event-surface.js';
import type { ClientRuntime } from './runtime.js';

/**
 * An event surface with caches and the structures over them: `clans`,
 * `channels`, `users`, and the by-id message operations a bot uses
 * (`sendMessage`, `replyTo`, `editMessage`, `reactTo`, `deleteMessage`).
 * Whatever carries the operations out (the socket's outbox, or a scale-out
 * gateway) sits behind the runtime.
 */
export abstract class CachedSurface extends EventSurface {
  /**
   * The caches and the structures made from them.
   * @internal
   */
  protected abstract readonly runtime: ClientRuntime;

  /** All clans the client can access. */
  get clans(): CacheManager<string, Clan> {
    return this.runtime.clans;
  }

  /** All channels the client can access, DM channels included. */
  get channels(): CacheManager<string, TextChannel> {
    return this.runtime.channels;
  }

  /** Users the client has seen or fetched. */
  get users(): CacheManager<string, User> {
    return this.runtime.users;
  }

  /** Sends a message into a channel by id, fetching the channel when it is not cached. */
  async sendMessage(channelId: string, content: ContentInput, options: SendOptions = {}): Promise<Message> {
    const channel = this.channels.get(channelId) ?? (await this.channels.fetch(channelId));
    return channel.send(content, options);
  }

  /**
   * The Message for a target: the cached one, or one made from a full event
   * payload (so a message deleted meanwhile can still be answered), or one
   * fetched over REST.
   */
  async messageOf(target: MessageTarget | ChannelMessage): Promise<Message> {
    // A target without a message id (a typing notice passed by mistake) names no message.
    if (typeof target?.message_id !== 'string' || target.message_id === '') {
      throw new ValidationError([{ path: 'message.message_id', message: 'is required: the message to act on (a typing notice is not one)', code: 'invalid' }], 'message target');
    }
    const channel = this.channels.get(target.channel_id) ?? (await this.channels.fetch(target.channel_id));
    const cached = channel.messages.get(target.message_id);
    if (cached) return cached;
    if (isFullMessage(target)) return this.runtime.message(target);
    return channel.messages.fetch(target.message_id);
  }

  /** Replies to a message (an event payload or a cached Message), referencing it, in its channel. */
  async replyTo(message: MessageTarget, content: ContentInput, options: SendOptions = {}): Promise<Message> {
    return (await this.messageOf(message)).reply(content, options);
  }

  /** Replaces the content of one of the bot's messages (see {@link Message.update}). */
  async editMessage(message: MessageTarget, content: ContentInput, options: EditOptions = {}): Promise<Message> {
    return (await this.messageOf(message)).update(content, options);
  }

  /** Adds (or with `action_delete`, removes) the bot's reaction to a message (see {@link Message.react}). */
  async reactTo(message: MessageTarget, reaction: ReactMessagePayload): Promise<MessageReactionAck> {
    return (await this.messageOf(message)).react(reaction);
  }

  /** Deletes a message; it also leaves the caches (see {@link Message.delete}). */
  async deleteMessage(message: MessageTarget): Promise<ChannelMessageAck> {
    return (await this.messageOf(message)).delete();
  }
}

/** Whether a target carries a whole message (an event payload), not just its ids. */
function isFullMessage(target: MessageTarget | ChannelMessage): target is ChannelMessage {
  const candidate = target as Partial<ChannelMessage>;
  return typeof candidate.sender_id === 'string' && typeof candidate.content === 'object' && candidate.content !== null && Array.isArray(candidate.references);
}
