import type { ChannelMessage, DropdownBoxSelected, GiveCoffeeEvent, MessageButtonClicked, MessageTypingEvent, QuickMenuEvent } from '../../events/payloads.js';
import type { ApiMessageAttachment, ApiMessageMention, ApiMessageRef, ChannelMessageContent } from '../../model/content.js';
import type { FriendState } from '../../model/enums.js';
import { toUnits } from '../../wallet/amount.js';
import { transferExtraInfo } from '../../wallet/sign.js';
import { EmulatorError } from '../errors.js';
import type { TransactionRecord } from '../ledger/ledger.js';
import type { PlatformContext } from '../platform/context.js';
import { ensureDm } from '../platform/accounts.js';
import { clickButton, selectDropdown, triggerQuickMenu } from '../platform/interactions.js';
import { canSeeMessage, postMessage, publicMessage, react, removeMessage, updateMessage } from '../platform/messages.js';
import { acceptFriend, addFriend, giveCoffee } from '../platform/social.js';
import { announceTyping } from '../platform/typing.js';
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

/** A click through `emu.as(userId).clickButton`: named, so a message id and a button id cannot be swapped unseen. */
export interface ButtonClickInput {
  /** The message the button is on. */
  messageId: string;
  /** The button's id (`ButtonBuilder.setId`). */
  buttonId: string;
  /** Form values the click carries (`extra_data`): an object, sent as JSON, or a JSON string. */
  extraData?: string | Record<string, unknown>;
}

/** A choice through `emu.as(userId).selectDropdown`: named, like a click, so the two ids cannot be swapped unseen. */
export interface DropdownSelectInput {
  /** The message the select is on. */
  messageId: string;
  /** The select's id (`SelectBuilder.setId`). */
  selectId: string;
  /** The option values picked. */
  values: string[];
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
  /** @internal */
  constructor(
    private readonly ctx: PlatformContext,
    readonly userId: string,
  ) {
    ctx.world.user(userId);
  }

  /** Posts a message to a channel this user can access and pushes `channel_message` to it; `replyTo` adds a reference to that message first. Returns the stored message. */
  send(channelId: string, content: ContentInput, options: SendOptions = {}): ChannelMessage {
    const { replyTo, ...rest } = options;
    let references = rest.references;
    if (replyTo) {
      const original = locateMessage(this.ctx, replyTo);
      // As over the gateway: an ephemeral message this user was not sent is named, never quoted.
      const quoted: ApiMessageRef = canSeeMessage(original, this.userId)
        ? {
            message_ref_id: original.message_id,
            ref_type: 0,
            message_sender_id: original.sender_id,
            message_sender_username: original.username,
            message_sender_display_name: original.display_name,
            content: JSON.stringify(original.content),
            has_attachment: original.attachments.length > 0,
            channel_id: original.channel_id,
          }
        : { message_ref_id: original.message_id };
      references = [quoted, ...(references ?? [])];
    }
    return publicMessage(
      postMessage(this.ctx, { senderId: this.userId, channelId, content: asContent(content), ...rest, ...(references ? { references } : {}) }),
    );
  }

  /** Sends a message only some users see (code 12). */
  sendEphemeral(channelId: string, receiverIds: string[], content: ContentInput): ChannelMessage {
    return publicMessage(postMessage(this.ctx, { senderId: this.userId, channelId, content: asContent(content), ephemeralReceivers: receiverIds }));
  }

  /** Replaces the content of this user's own (non-ephemeral) message and pushes `channel_message` with code 1; returns it as stored. */
  update(messageId: string, content: ContentInput): ChannelMessage {
    const original = locateMessage(this.ctx, messageId);
    return publicMessage(updateMessage(this.ctx, { senderId: this.userId, channelId: original.channel_id, messageId, content: asContent(content) }));
  }

  /** Deletes a non-ephemeral message (this user's own, or any in a clan this user owns) and pushes `channel_message` with code 2; returns the removed message. */
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

  /**
   * Clicks a button of a message this user can see; `message_button_clicked`
   * reaches the message's sender. Throws when the button is unknown or disabled.
   *
   * ```ts
   * world.as('bob').clickButton({ messageId: poll.message_id, buttonId: 'yes', extraData: { note: 'count me in' } });
   * ```
   */
  clickButton(click: ButtonClickInput): MessageButtonClicked {
    return clickButton(this.ctx, this.userId, click.messageId, click.buttonId, click.extraData);
  }

  /**
   * Picks options of a select on a message this user can see; `dropdown_box_selected` reaches the
   * message's sender. Throws on a value that is not an option.
   *
   * ```ts
   * world.as('bob').selectDropdown({ messageId: menu.message_id, selectId: 'lunch', values: ['tacos'] });
   * ```
   */
  selectDropdown(choice: DropdownSelectInput): DropdownBoxSelected {
    return selectDropdown(this.ctx, this.userId, choice.messageId, choice.selectId, choice.values);
  }

  /**
   * Shows this user typing in a channel (in one of its topics with `topicId`): everyone who can see it
   * gets `message_typing_event`, which clients show as "… is typing". A notice, not a message: nothing
   * is stored and nothing can reply to it. Returns the notice.
   */
  typing(channelId: string, topicId?: string): MessageTypingEvent {
    return announceTyping(this.ctx, { userId: this.userId, channelId, ...(topicId ? { topicId } : {}) });
  }

  /** Sends a direct message, opening the DM channel of the two users (silently) on first use. */
  sendDM(toUserId: string, content: ContentInput): ChannelMessage {
    const dm = ensureDm(this.ctx, this.userId, toUserId);
    return publicMessage(postMessage(this.ctx, { senderId: this.userId, channelId: dm.channel_id, content: asContent(content) }));
  }

  /** Joins a voice room (`voice_joined_event`); joining again returns the existing presence and announces nothing. */
  joinVoice(channelId: string): PresenceRecord {
    return { ...joinVoice(this.ctx, this.userId, channelId) };
  }

  /** Leaves a voice room (`voice_leaved_event`); false when this user was not in it. */
  leaveVoice(channelId: string): boolean {
    return leaveVoice(this.ctx, this.userId, channelId);
  }

  /** Joins a streaming room (`streaming_joined_event`); joining again returns the existing presence and announces nothing. */
  joinStream(channelId: string): PresenceRecord {
    return { ...joinStream(this.ctx, this.userId, channelId) };
  }

  /** Leaves a streaming room (`streaming_leaved_event`); false when this user was not in it. */
  leaveStream(channelId: string): boolean {
    return leaveStream(this.ctx, this.userId, channelId);
  }

  /** Gives a coffee for a message this user can see; `give_coffee_event` reaches both users. */
  giveCoffee(toUserId: string, messageId: string): GiveCoffeeEvent {
    return giveCoffee(this.ctx, this.userId, toUserId, messageId);
  }

  /** Sends a friend request by username, or accepts theirs when one is pending; returns this user's state towards them. */
  addFriend(username: string): FriendState {
    const other = this.ctx.world.usersByName.get(username);
    if (!other) throw EmulatorError.notFound(`user ${username}`);
    return addFriend(this.ctx, this.userId, other.id);
  }

  /** Accepts a pending friend request from a username (already friends is fine); throws when there is none. */
  acceptFriend(username: string): FriendState {
    const other = this.ctx.world.usersByName.get(username);
    if (!other) throw EmulatorError.notFound(`user ${username}`);
    return acceptFriend(this.ctx, this.userId, other.id);
  }

  /** Sends tokens from this user's balance (amount in tokens); emits `token_sent_event` to both sides. */
  transfer(toUserId: string, amount: number | string, note = ''): TransactionRecord {
    const sender = this.ctx.world.user(this.userId);
    this.ctx.world.user(toUserId);
    // The extra info a client writes, so the transfer looks like one a client sent.
    const extraInfo = transferExtraInfo({ senderId: sender.id, senderName: sender.username, receiverId: toUserId, extraAttribute: '' });
    const result = this.ctx.ledger.transferInternal(this.userId, toUserId, toUnits(amount), note, extraInfo);
    if (!result.ok || !result.record) throw EmulatorError.badRequest(result.error);
    return { ...result.record };
  }

  /** Picks a quick-menu entry by name in a channel (of `botId` when several bots have one); `quick_menu_event` reaches that bot. */
  triggerQuickMenu(channelId: string, menuName: string, botId?: string): QuickMenuEvent {
    return triggerQuickMenu(this.ctx, { userId: this.userId, channelId, menuName, ...(botId ? { botId } : {}) });
  }
}
