/** A formatting range of webhook text: `lk` link, `pre` preformatted, and the other markdown types. */
export interface WebhookMarkdown {
  type: string;
  s: number;
  e: number;
}

/** A mention in a channel webhook message: exactly one of `username` and `user_id`. */
export type WebhookMention =
  | { username: string; user_id?: never; s: number; e: number }
  | { user_id: string; username?: never; s: number; e: number };

/** An image attached to a channel webhook message (every field required). */
export interface WebhookImage {
  /** File name. */
  fn: string;
  /** Size in bytes. */
  sz: number;
  url: string;
  /** MIME type. */
  ft: string;
  w: number;
  h: number;
}

/** A channel hashtag in a channel webhook message. */
export interface WebhookHashtag {
  channelId: string;
  s: number;
  e: number;
}

/** The `message` of a channel webhook request (docs/PROTOCOL.md §7.1). */
export interface ChannelWebhookMessage {
  t: string;
  mk?: WebhookMarkdown[];
  mentions?: WebhookMention[];
  images?: WebhookImage[];
  hg?: WebhookHashtag[];
}

/** The body of a channel webhook request. */
export interface ChannelWebhookBody {
  type: 'hook';
  message: ChannelWebhookMessage;
}

/** The parsed `content` of a clan webhook request (docs/PROTOCOL.md §7.2). */
export interface ClanWebhookContent {
  t: string;
  mk?: WebhookMarkdown[];
}

/** A file attached to a clan webhook message. */
export interface ClanWebhookAttachment {
  url: string;
  filetype: string;
}

/** What a caller gives `ClanWebhook.send`: `content` is JSON-encoded on the wire. */
export interface ClanWebhookMessage {
  content: ClanWebhookContent;
  attachments?: ClanWebhookAttachment[];
}

/** The body of a clan webhook request as it travels. */
export interface ClanWebhookBody {
  /** JSON of a {@link ClanWebhookContent}. */
  content: string;
  attachments?: ClanWebhookAttachment[];
}
