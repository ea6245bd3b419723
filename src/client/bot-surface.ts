import type { Observable } from 'rxjs';
import type { Events } from '../events/names.js';
import type { ClanstreamEvent, EventPayloadMap } from '../events/payloads.js';
import type { ConnectionStatus } from '../gateway/lifecycle.js';
import type { ReactMessagePayload } from '../structures/message.js';
import type { ContentInput, SendOptions } from '../structures/send-options.js';

/** A message to reply to: an event payload, a cached Message, or anything with these ids. */
export interface MessageTarget {
  readonly channel_id: string;
  readonly message_id: string;
  readonly clan_id?: string;
  readonly topic_id?: string;
}

/** What a send resolves with: at least the new message's ids. */
export interface SentMessage {
  readonly message_id: string;
  readonly channel_id: string;
}

/** What an edit, a reaction or a deletion resolves with: at least the ids of the message it acted on. */
export type ActedOnMessage = SentMessage;

/** Options of an edit: the new text's mentions and attachments, and the key that makes a retry safe. */
export type EditOptions = Pick<SendOptions, 'mentions' | 'attachments' | 'topic_id' | 'idempotency_key'>;

/**
 * The part of a client that bot logic usually needs: typed streams in, and
 * messages out. `ServiceClient` implements it, and so does the marble test
 * double of `clanstream/testing`, so the same bot function runs against a
 * server and in virtual time.
 */
export interface BotSurface {
  /** The bot's own user id (for `notFromSelf`). */
  readonly clientId: string | undefined;
  readonly events$: Observable<ClanstreamEvent>;
  readonly status$: Observable<ConnectionStatus>;
  /** The payloads of one event type, as a stream of the `data` of each matching event. */
  stream<K extends Events>(type: K): Observable<EventPayloadMap[K]>;
  /** Sends a message into a channel (through the outbox). */
  sendMessage(channelId: string, content: ContentInput, options?: SendOptions): Promise<SentMessage>;
  /** Replies to a message in its channel, referencing it. */
  replyTo(message: MessageTarget, content: ContentInput, options?: SendOptions): Promise<SentMessage>;
  /** Replaces the content of a message (the bot's own). */
  editMessage(message: MessageTarget, content: ContentInput, options?: EditOptions): Promise<ActedOnMessage>;
  /** Adds a reaction to a message, or removes it with `action_delete: true`. */
  reactTo(message: MessageTarget, reaction: ReactMessagePayload): Promise<ActedOnMessage>;
  /** Deletes a message. */
  deleteMessage(message: MessageTarget): Promise<ActedOnMessage>;
}
