import type { ChannelMessageAck, EphemeralMessageSendRequest } from '../gateway/protocol.js';
import type { ApiChannelDescription, ApiPlayMediaResult, ApiQuickMenuAccess, ApiQuickMenuAccessPayload } from '../model/api.js';
import type { ApiMessageAttachment, ApiMessageMention } from '../model/content.js';
import { ChannelType, DM_CLAN_ID, streamModeOf } from '../model/enums.js';
import { ValidationError } from '../errors/validation-error.js';
import type { CacheManager } from '../state/cache-manager.js';
import type { ChannelState } from '../state/records.js';
import { INSPECT } from '../util/inspect.js';
import { isStructureOf, STRUCTURE_BRAND } from './brand.js';
import type { Clan } from './clan.js';
import type { ClientContext } from './context.js';
import { deliveredMessage } from './delivery.js';
import type { Message } from './message.js';
import { checkMessage, contentOf, defined, optionsOf, type ContentInput, type SendOptions } from './send-options.js';
import { promised } from '../util/promised.js';

const VOICE_TYPES = new Set<number>([ChannelType.CHANNEL_TYPE_GMEET_VOICE, ChannelType.CHANNEL_TYPE_SERVICE_VOICE, ChannelType.CHANNEL_TYPE_STREAMING]);

/**
 * A channel, thread, DM or group, with what a bot does in it: send (also ephemerally), read its
 * cached messages, quick menus and media. A snapshot of the cached record. `instanceof TextChannel`
 * holds for a channel from either build of the library (ES module or CommonJS).
 *
 * @example
 * ```ts
 * import type { ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * declare const channelId: string;
 * const channel = await client.channels.fetch(channelId);
 * const sent = await channel.send({ t: 'hello' });
 * await sent.react({ emoji_id: '1', emoji: '👋' });
 * ```
 */
export class TextChannel {
  // Declared, not defined: the constructor assigns each in this order (the order of the keys), so the
  // fields are not first defined as undefined, which every build would write out once more.
  declare readonly id: string;
  declare readonly name: string | undefined;
  declare readonly is_private: boolean;
  declare readonly channel_type: number | undefined;
  declare readonly category_id: string | undefined;
  declare readonly category_name: string | undefined;
  declare readonly parent_id: string | undefined;
  declare readonly meeting_code: string | undefined;
  /** "0" for DM and group channels. */
  declare readonly clan_id: string;
  /** The cached record this channel was made from. */
  declare readonly record: ChannelState;
  readonly #ctx: ClientContext;

  /** True for a channel the client made, from any copy of the library. */
  static [Symbol.hasInstance](value: unknown): value is TextChannel {
    return isStructureOf(this, TextChannel, 'text_channel', value);
  }

  /** @internal */
  constructor(ctx: ClientContext, record: ChannelState) {
    this.#ctx = ctx;
    this.id = record.channel_id;
    this.name = record.channel_label;
    this.is_private = record.channel_private === 1;
    this.channel_type = record.type;
    this.category_id = record.category_id;
    this.category_name = record.category_name;
    this.parent_id = record.parent_id || undefined;
    this.meeting_code = record.meeting_code || undefined;
    this.clan_id = record.clan_id;
    this.record = record;
  }

  /** The clan of the channel; undefined for DM and group channels (and clans not cached). */
  get clan(): Clan | undefined {
    return this.clan_id === DM_CLAN_ID ? undefined : this.#ctx.clans.get(this.clan_id);
  }

  /** Messages of the channel. `fetch(id)` loads one over REST on a miss. */
  get messages(): CacheManager<string, Message> {
    return this.#ctx.channelMessages(this.id);
  }

  /** Whether the channel is a DM or group. */
  get isDirect(): boolean {
    return this.clan_id === DM_CLAN_ID;
  }

  /**
   * Sends a message through the rate-limited outbox; resolves with it once acknowledged. The
   * optional parts are the platform SDK's positional parameters or one options object. Invalid
   * content is a ValidationError and nothing is sent.
   */
  send(
    content: ContentInput,
    mentions?: ApiMessageMention[] | SendOptions,
    attachments?: ApiMessageAttachment[],
    mention_everyone?: boolean,
    anonymous_message?: boolean,
    topic_id?: string,
    code?: number,
  ): Promise<Message> {
    return promised(() => {
      const options = optionsOf(mentions, attachments, mention_everyone, anonymous_message, topic_id, code);
      const body = contentOf(content);
      checkMessage(body, options);
      const request = defined({ clan_id: this.clan_id, channel_id: this.id, mode: streamModeOf(this.channel_type), is_public: !this.is_private, content: body, ...options });
      return this.#ctx.outbox.enqueue('channel_message_send', request).then((ack) => deliveredMessage(this.#ctx, this.record, request, ack));
    });
  }

  /**
   * Sends a message only `receiver` sees (one user id, or several). With
   * `reference_message_id` it replies to that message.
   */
  sendEphemeral(
    receiver: string | string[],
    content: ContentInput,
    reference_message_id?: string,
    mentions?: ApiMessageMention[] | SendOptions,
    attachments?: ApiMessageAttachment[],
    mention_everyone?: boolean,
    anonymous_message?: boolean,
    topic_id?: string,
    code?: number,
  ): Promise<ChannelMessageAck> {
    return promised(() => {
      const receivers = Array.isArray(receiver) ? receiver : [receiver];
      if (receivers.length === 0 || receivers.some((r) => typeof r !== 'string' || r === '')) {
        throw new ValidationError([{ path: 'receiver_id', message: 'give one receiver id or a non-empty array of them', code: 'invalid' }], 'ephemeral message');
      }
      const options = optionsOf(mentions, attachments, mention_everyone, anonymous_message, topic_id, code);
      const body = contentOf(content);
      checkMessage(body, options);
      const request: EphemeralMessageSendRequest = defined({
        clan_id: this.clan_id,
        channel_id: this.id,
        mode: streamModeOf(this.channel_type),
        is_public: !this.is_private,
        content: body,
        receiver_ids: receivers,
        reference_message_id,
        ...options,
      });
      return this.#ctx.outbox.enqueue('ephemeral_message_send', request);
    });
  }

  /** Gives a bot a quick-menu entry in this channel; `bot_id` defaults to this client. */
  async addQuickMenuAccess(body: ApiQuickMenuAccessPayload): Promise<ApiQuickMenuAccess> {
    const botId = body.bot_id ?? this.#ctx.clientId();
    return this.#ctx.api().addQuickMenuAccess(this.id, defined({ ...body, channel_id: this.id, clan_id: this.isDirect ? undefined : this.clan_id, bot_id: botId }));
  }

  /** Removes a bot's quick-menu entries here; `botId` defaults to this client. */
  async deleteQuickMenuAccess(botId?: string): Promise<{ ok: true; removed: number }> {
    const id = botId ?? this.#ctx.clientId();
    if (!id) return Promise.reject(new ValidationError([{ path: 'botId', message: 'is required before login', code: 'invalid' }], 'quick menu access'));
    return this.#ctx.api().deleteQuickMenuAccess(this.id, id);
  }

  /** Plays media in a voice or streaming channel (one with a meeting code). */
  async playMedia(url: string, participantIdentity: string, participantName: string, name: string): Promise<ApiPlayMediaResult> {
    const noMeeting = () => new ValidationError([{ path: 'channel', message: `channel ${this.id} has no meeting code: media plays only in voice and streaming channels`, code: 'invalid' }], 'play media');
    if (!VOICE_TYPES.has(this.channel_type ?? 0)) throw noMeeting();
    const missing = Object.entries({ url, participantIdentity, participantName, name }).find(([, v]) => typeof v !== 'string' || v === '');
    if (missing) throw new ValidationError([{ path: missing[0], message: 'is required', code: 'invalid' }], 'play media');
    // Channel events do not carry the meeting code; the channel's description does.
    const meetingCode = this.meeting_code ?? (await this.#ctx.channels.fetch(this.id, { force: true })).meeting_code;
    if (!meetingCode) throw noMeeting();
    return this.#ctx.api().playMedia(this.id, { url, participant_identity: participantIdentity, participant_name: participantName, name });
  }

  /** The channel description as cached. */
  toJSON(): ApiChannelDescription {
    return this.record;
  }

  /** What `util.inspect` and `console.log` show: the channel's id, name, clan and type. */
  [INSPECT](): string {
    return `TextChannel ${JSON.stringify({ id: this.id, name: this.name, clan_id: this.clan_id, type: this.channel_type })}`;
  }

  /** @internal */
  get [STRUCTURE_BRAND](): 'text_channel' {
    return 'text_channel';
  }
}
