import type { ChannelMessage } from '../events/payloads.js';
import type { ChannelMessageAck, ChannelMessageSendRequest, MessageReactionAck } from '../gateway/protocol.js';
import type { ApiMessageAttachment, ApiMessageMention, ApiMessageReaction, ApiMessageRef, ChannelMessageContent } from '../model/content.js';
import { TypeMessage, type ChannelStreamMode } from '../model/enums.js';
import { isNoticeCode } from '../model/notice-codes.js';
import { Events } from '../events/names.js';
import { ValidationError } from '../errors/validation-error.js';
import type { MessageState } from '../state/records.js';
import { INSPECT } from '../util/inspect.js';
import { isStructureOf, STRUCTURE_BRAND } from './brand.js';
import type { ClientContext } from './context.js';
import { deliveredMessage } from './delivery.js';
import { checkMessage, contentOf, defined, optionsOf, type ContentInput, type SendOptions } from './send-options.js';
import type { TextChannel } from './text-channel.js';
import { promised } from '../util/promised.js';

/** A reaction to add or remove. */
export interface ReactMessagePayload {
  id?: string;
  emoji_id: string;
  emoji: string;
  /** Managed by the server; accepted for compatibility. */
  count?: number;
  /** true removes the reaction; false (default) adds it. */
  action_delete?: boolean;
}

/**
 * A message: the cached record's fields, and what a bot does with it (reply, edit, react, delete).
 * A snapshot: fetch it again (`channel.messages.get`) to see later edits. `instanceof Message`
 * holds for a message from either build of the library (ES module or CommonJS).
 *
 * @example
 * ```ts
 * import type { ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * client.onChannelMessage(async (event) => {
 *   const message = await client.channels.get(event.channel_id)?.messages.fetch(event.message_id);
 *   if (message?.content.t === '!ping') await message.reply({ t: 'pong' });
 * });
 * ```
 */
export class Message {
  // Declared, not defined: the constructor assigns each in this order (the order of the keys), so the
  // fields are not first defined as undefined, which every build would write out once more.
  declare readonly id: string;
  /** Same as `id` (what most bots read). */
  declare readonly message_id: string;
  declare readonly clan_id: string;
  declare readonly channel_id: string;
  declare readonly sender_id: string;
  declare readonly username: string;
  declare readonly display_name: string;
  declare readonly clan_nick: string;
  declare readonly clan_avatar: string;
  declare readonly avatar: string;
  declare readonly content: ChannelMessageContent;
  declare readonly mentions: readonly ApiMessageMention[];
  declare readonly attachments: readonly ApiMessageAttachment[];
  declare readonly reactions: readonly ApiMessageReaction[];
  declare readonly references: readonly ApiMessageRef[];
  declare readonly topic_id: string;
  declare readonly code: TypeMessage;
  declare readonly mode: ChannelStreamMode;
  declare readonly create_time_seconds: number;
  declare readonly update_time_seconds: number;
  readonly #ctx: ClientContext;
  /** The cached record this message was made from. */
  declare readonly record: MessageState;

  /** True for a message the client made, from any copy of the library. */
  static [Symbol.hasInstance](value: unknown): value is Message {
    return isStructureOf(this, Message, 'message', value);
  }

  /** @internal */
  constructor(ctx: ClientContext, record: MessageState) {
    this.#ctx = ctx;
    this.id = record.message_id;
    this.message_id = record.message_id;
    this.clan_id = record.clan_id;
    this.channel_id = record.channel_id;
    this.sender_id = record.sender_id;
    this.username = record.username;
    this.display_name = record.display_name;
    this.clan_nick = record.clan_nick;
    this.clan_avatar = record.clan_avatar;
    this.avatar = record.avatar;
    this.content = record.content;
    this.mentions = record.mentions;
    this.attachments = record.attachments;
    this.reactions = record.reactions;
    this.references = record.references;
    this.topic_id = record.topic_id;
    this.code = record.code;
    this.mode = record.mode;
    this.create_time_seconds = record.create_time_seconds;
    this.update_time_seconds = record.update_time_seconds;
    this.record = record;
  }

  /** The channel the message is in (when cached). */
  get channel(): TextChannel | undefined {
    return this.#ctx.channels.get(this.channel_id);
  }

  private channelState() {
    const channel = this.#ctx.store.current.channels.get(this.channel_id);
    if (!channel) throw new ValidationError([{ path: 'channel_id', message: `channel ${this.channel_id} is not cached; fetch it first`, code: 'invalid' }], 'message');
    return channel;
  }

  /**
   * Sends a message in the same channel that references this one. `topic_id`
   * defaults to this message's topic. Resolves with the new message.
   */
  reply(
    content: ContentInput,
    mentions?: ApiMessageMention[] | SendOptions,
    attachments?: ApiMessageAttachment[],
    mention_everyone?: boolean,
    anonymous_message?: boolean,
    topic_id?: string,
    code?: number,
  ): Promise<Message> {
    return promised(() => {
      // A typing or read notice was never stored: a reference to it would name nothing.
      if (isNoticeCode(this.code)) throw new ValidationError([{ path: 'code', message: `is ${this.code}, a typing or read notice, not a message: nothing to reply to`, code: 'invalid' }], 'reply');
      const options = optionsOf(mentions, attachments, mention_everyone, anonymous_message, topic_id, code);
      const body = contentOf(content);
      const reference: ApiMessageRef = {
        message_ref_id: this.message_id,
        ref_type: 0,
        message_sender_id: this.sender_id,
        message_sender_username: this.username,
        message_sender_display_name: this.display_name,
        message_sender_clan_nick: this.clan_nick,
        message_sender_avatar: this.avatar,
        content: JSON.stringify(this.content),
        has_attachment: this.attachments.length > 0,
        channel_id: this.channel_id,
      };
      const full: SendOptions = { ...options, references: [reference, ...(options.references ?? [])], topic_id: options.topic_id ?? this.topic_id };
      checkMessage(body, full);
      const channel = this.channelState();
      const request: ChannelMessageSendRequest = defined({ clan_id: channel.clan_id, channel_id: channel.channel_id, mode: this.mode, content: body, ...full });
      return this.#ctx.outbox.enqueue('channel_message_send', request).then((ack) => deliveredMessage(this.#ctx, channel, request, ack));
    });
  }

  /** Replaces this message's content (positional parts, or one options object). Resolves with the updated message. */
  update(content: ContentInput, mentionsOrOptions?: ApiMessageMention[] | Pick<SendOptions, 'mentions' | 'attachments' | 'topic_id' | 'idempotency_key'>, attachments?: ApiMessageAttachment[], topic_id?: string): Promise<Message> {
    return promised(() => {
      const byObject = mentionsOrOptions !== undefined && !Array.isArray(mentionsOrOptions) ? mentionsOrOptions : undefined;
      const mentions = byObject ? byObject.mentions : (mentionsOrOptions as ApiMessageMention[] | undefined);
      const newAttachments = byObject ? byObject.attachments : attachments;
      const newTopic = byObject ? byObject.topic_id : topic_id;
      const body = contentOf(content);
      const options = defined({ mentions, attachments: newAttachments, topic_id: newTopic });
      checkMessage(body, { ...options, attachments: newAttachments ?? [...this.attachments] });
      const request = defined({ clan_id: this.clan_id, channel_id: this.channel_id, message_id: this.message_id, mode: this.mode, content: body, ...options, idempotency_key: byObject?.idempotency_key });
      return this.#ctx.outbox.enqueue('channel_message_update', request).then((ack) => {
        const cached = this.#ctx.store.current.messages.get(this.channel_id)?.get(this.message_id);
        // The edit's own event normally arrived first; if not, apply the edit as that event would.
        if (!cached || cached.update_time_seconds < ack.update_time_seconds || cached.content.t !== body.t) {
          const base = cached ?? this.record;
          const edit: ChannelMessage = { ...base, code: TypeMessage.ChatUpdate, content: body, mentions: mentions ?? [...base.mentions], attachments: newAttachments ?? [...base.attachments], topic_id: newTopic ?? base.topic_id, update_time_seconds: ack.update_time_seconds };
          this.#ctx.store.dispatch({ type: Events.ChannelMessage, seq: 0, data: edit });
        }
        const stored = this.#ctx.store.current.messages.get(this.channel_id)?.get(this.message_id);
        return stored ? this.#ctx.message(stored) : this;
      });
    });
  }

  /** Adds (or with `action_delete`, removes) the bot's reaction. */
  react(dataReactMessage: ReactMessagePayload): Promise<MessageReactionAck> {
    const { emoji_id, emoji } = dataReactMessage ?? {};
    if (typeof emoji_id !== 'string' || emoji_id === '' || typeof emoji !== 'string' || emoji === '') {
      return Promise.reject(new ValidationError([{ path: typeof emoji_id === 'string' && emoji_id ? 'emoji' : 'emoji_id', message: 'is required and must be a non-empty string', code: 'invalid' }], 'reaction'));
    }
    return this.#ctx.outbox.enqueue(
      'message_reaction',
      defined({
        clan_id: this.clan_id,
        channel_id: this.channel_id,
        message_id: this.message_id,
        emoji_id,
        emoji,
        count: dataReactMessage.count ?? 1,
        action_delete: dataReactMessage.action_delete ?? false,
        message_sender_id: this.sender_id,
        topic_id: this.topic_id || undefined,
        mode: this.mode,
      }),
    );
  }

  /** Deletes the message; it also leaves the caches. */
  delete(): Promise<ChannelMessageAck> {
    return this.#ctx.outbox
      .enqueue('channel_message_remove', defined({ clan_id: this.clan_id, channel_id: this.channel_id, message_id: this.message_id, mode: this.mode, topic_id: this.topic_id || undefined }))
      .then((ack) => {
        this.#ctx.store.dispatch({ type: 'local/message-removed', channelId: this.channel_id, messageId: this.message_id });
        this.#ctx.messageStore.delete(this.channel_id, this.message_id);
        return ack;
      });
  }

  /** The message as cached (its immutable record). */
  toJSON(): MessageState {
    return this.record;
  }

  /** What `util.inspect` and `console.log` show: the ids, the sender and the text. */
  [INSPECT](): string {
    return `Message ${JSON.stringify({ id: this.id, channel_id: this.channel_id, sender_id: this.sender_id, text: this.content.t })}`;
  }

  /** @internal */
  get [STRUCTURE_BRAND](): 'message' {
    return 'message';
  }
}
