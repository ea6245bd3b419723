import type { ChannelMessage, DropdownBoxSelected, GiveCoffeeEvent, MessageButtonClicked, QuickMenuEvent } from '../../events/payloads.js';
import type { ApiMessageAttachment, ApiMessageMention, ApiMessageRef, ChannelMessageContent } from '../../model/content.js';
import type { FriendState } from '../../model/enums.js';
import { toUnits } from '../../wallet/amount.js';
import { EmulatorError } from '../errors.js';
import type { TransactionRecord } from '../ledger/ledger.js';
import type { PlatformContext } from '../platform/context.js';
import { ensureDm } from '../platform/accounts.js';
import { clickButton, selectDropdown, triggerQuickMenu } from '../platform/interactions.js';
import { postMessage, publicMessage, react, removeMessage, updateMessage } from '../platform/messages.js';
import { acceptFriend, addFriend, giveCoffee } from '../platform/social.js';
import { joinStream, joinVoice, leaveStream, leaveVoice } from '../platform/voice.js';
import type { MessageRecord, PresenceRecord } from '../world/records.js';

/** Text or full content: a string is shorthand for `{ t: string }`. */
export type ContentInput = string | ChannelMessageContent;

/** Extras of a message a user sends through `emu.as(userId)`. */
export interface SendOptions {
  mentions?: ApiMessageMention[];
  attachments?: ApiMessageAttachment[];
  references?: ApiMessageRef[];
  topic_id?: string;
  code?: number;
  mention_everyone?: boolean;
  /** Reply to this message: adds a reference to it. */
  replyTo?: string;
}

/** A reaction added (or removed) through `emu.as(userId).react`. */
export interface ReactionInput {
  emoji: string;
  /** Defaults to the emoji itself. */
  emoji_id?: string;
  /** Remove the reaction instead of adding it. */
  remove?: boolean;
}

const asContent = (content: ContentInput): ChannelMessageContent => (typeof content === 'string' ? { t: content } : content);

/** Finds a stored message by id in any channel. */
export function locateMessage(ctx: PlatformContext, messageId: string): MessageRecord {
  for (const log of ctx.world.messages.values()) {
    const record = log.byId.get(messageId);
    if (record) return record;
  }
  throw EmulatorError.notFound(`message ${messageId}`);
}

/**
 * Acts as one user, through the same rules a client meets (membership,
 * access, validation), and returns what was stored.
 */
export class UserActor {
  constructor(
    private readonly ctx: PlatformContext,
    readonly userId: string,
  ) {
    ctx.world.user(userId);
  }

  send(channelId: string, content: ContentInput, options: SendOptions = {}): ChannelMessage {
    const { replyTo, ...rest } = options;
    let references = rest.references;
    if (replyTo) {
      const original = locateMessage(this.ctx, replyTo);
      references = [
        {
          message_ref_id: original.message_id,
          ref_type: 0,
          message_sender_id: original.sender_id,
          message_sender_username: original.username,
          message_sender_display_name: original.display_name,
          content: JSON.stringify(original.content),
          has_attachment: original.attachments.length > 0,
          channel_id: original.channel_id,
        },
        ...(references ?? []),
      ];
    }
    return publicMessage(
      postMessage(this.ctx, { senderId: this.userId, channelId, content: asContent(content), ...rest, ...(references ? { references } : {}) }),
    );
  }

  /** Sends a message only some users see (code 12). */
  sendEphemeral(channelId: string, receiverIds: string[], content: ContentInput): ChannelMessage {
    return publicMessage(postMessage(this.ctx, { senderId: this.userId, channelId, content: asContent(content), ephemeralReceivers: receiverIds }));
  }

  update(messageId: string, content: ContentInput): ChannelMessage {
    const original = locateMessage(this.ctx, messageId);
    return publicMessage(updateMessage(this.ctx, { senderId: this.userId, channelId: original.channel_id, messageId, content: asContent(content) }));
  }

  delete(messageId: string): ChannelMessage {
    const original = locateMessage(this.ctx, messageId);
    return publicMessage(removeMessage(this.ctx, { senderId: this.userId, channelId: original.channel_id, messageId }));
  }

  /** Adds (or removes) this user's reaction; returns the message as stored afterwards. */
  react(messageId: string, reaction: ReactionInput): ChannelMessage {
    const original = locateMessage(this.ctx, messageId);
    const { record } = react(this.ctx, {
      userId: this.userId,
      channelId: original.channel_id,
      messageId,
      emoji: reaction.emoji,
      emoji_id: reaction.emoji_id ?? reaction.emoji,
      remove: reaction.remove ?? false,
    });
    return publicMessage(record);
  }

  clickButton(messageId: string, buttonId: string, extraData?: string | Record<string, unknown>): MessageButtonClicked {
    return clickButton(this.ctx, this.userId, messageId, buttonId, extraData);
  }

  selectDropdown(messageId: string, selectboxId: string, values: string[]): DropdownBoxSelected {
    return selectDropdown(this.ctx, this.userId, messageId, selectboxId, values);
  }

  sendDM(toUserId: string, content: ContentInput): ChannelMessage {
    const dm = ensureDm(this.ctx, this.userId, toUserId);
    return publicMessage(postMessage(this.ctx, { senderId: this.userId, channelId: dm.channel_id, content: asContent(content) }));
  }

  joinVoice(channelId: string): PresenceRecord {
    return { ...joinVoice(this.ctx, this.userId, channelId) };
  }

  leaveVoice(channelId: string): boolean {
    return leaveVoice(this.ctx, this.userId, channelId);
  }

  joinStream(channelId: string): PresenceRecord {
    return { ...joinStream(this.ctx, this.userId, channelId) };
  }

  leaveStream(channelId: string): boolean {
    return leaveStream(this.ctx, this.userId, channelId);
  }

  giveCoffee(toUserId: string, messageId: string): GiveCoffeeEvent {
    return giveCoffee(this.ctx, this.userId, toUserId, messageId);
  }

  addFriend(username: string): FriendState {
    const other = this.ctx.world.usersByName.get(username);
    if (!other) throw EmulatorError.notFound(`user ${username}`);
    return addFriend(this.ctx, this.userId, other.id);
  }

  acceptFriend(username: string): FriendState {
    const other = this.ctx.world.usersByName.get(username);
    if (!other) throw EmulatorError.notFound(`user ${username}`);
    return acceptFriend(this.ctx, this.userId, other.id);
  }

  /** Sends tokens from this user's balance (amount in tokens); emits `token_sent_event` to both sides. */
  transfer(toUserId: string, amount: number | string, note = ''): TransactionRecord {
    const sender = this.ctx.world.user(this.userId);
    this.ctx.world.user(toUserId);
    const result = this.ctx.ledger.transferInternal(this.userId, toUserId, toUnits(amount), note, {
      type: 'transfer_token',
      UserSenderId: sender.id,
      UserSenderUsername: sender.username,
      UserReceiverId: toUserId,
      ExtraAttribute: '',
    });
    if (!result.ok || !result.record) throw EmulatorError.badRequest(result.error);
    return { ...result.record };
  }

  triggerQuickMenu(channelId: string, menuName: string, botId?: string): QuickMenuEvent {
    return triggerQuickMenu(this.ctx, { userId: this.userId, channelId, menuName, ...(botId ? { botId } : {}) });
  }
}
