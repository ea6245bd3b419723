import type { ApiChannelDescription, ApiTransactionDetail } from '../model/api.js';
import type { ApiMessageMention } from '../model/content.js';
import { ValidationError } from '../errors/validation-error.js';
import type { MemberState, UserState } from '../state/records.js';
import { INSPECT } from '../util/inspect.js';
import type { SendTokenData, SendTokenResult } from '../wallet/types.js';
import { isStructureOf, STRUCTURE_BRAND } from './brand.js';
import type { ClientContext } from './context.js';
import { deliveredMessage } from './delivery.js';
import type { Message } from './message.js';
import { checkMessage, contentOf, defined, type ContentInput } from './send-options.js';
import { ChannelStreamMode, DM_CLAN_ID } from '../model/enums.js';

/**
 * A user, seen globally or as a clan member (then with the clan nickname, avatar and roles), and
 * what a bot does with one: direct messages and token transfers. `instanceof User` holds for a
 * user from either build of the library (ES module or CommonJS).
 *
 * @example
 * ```ts
 * import type { ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * declare const userId: string;
 * const user = await client.users.fetch(userId);
 * await user.sendDM({ t: 'welcome!' });
 * ```
 */
export class User {
  // Declared, not defined: the constructor assigns each in this order (the order of the keys), so the
  // fields are not first defined as undefined, which every build would write out once more.
  declare readonly id: string;
  declare readonly username: string;
  declare readonly display_name: string;
  /** Nickname in the clan ("" outside a clan view). */
  declare readonly clan_nick: string;
  /** Avatar in the clan ("" outside a clan view). */
  declare readonly clan_avatar: string;
  /** Global avatar URL (the platform SDK's spelling). */
  declare readonly avartar: string;
  /** The cached user record. */
  declare readonly record: UserState;
  /** The clan membership this user was read through (clan views only). */
  declare readonly member: MemberState | undefined;
  readonly #ctx: ClientContext;

  /** True for a user the client made, from any copy of the library. */
  static [Symbol.hasInstance](value: unknown): value is User {
    return isStructureOf(this, User, 'user', value);
  }

  /** @internal */
  constructor(ctx: ClientContext, record: UserState, member?: MemberState) {
    this.#ctx = ctx;
    this.id = record.id;
    this.username = record.username;
    this.display_name = record.display_name;
    this.clan_nick = member?.clan_nick ?? '';
    this.clan_avatar = member?.clan_avatar ?? '';
    this.avartar = record.avatar;
    this.record = record;
    this.member = member;
  }

  /** Global avatar URL (correctly spelled alias of `avartar`). */
  get avatar(): string {
    return this.avartar;
  }

  /** Roles in the clan (clan views only). */
  get role_ids(): readonly string[] {
    return this.member?.role_ids ?? [];
  }

  /** Id of the DM channel with this user, once known. */
  get dmChannelId(): string {
    return this.#ctx.store.current.dmChannels.get(this.id) ?? '';
  }

  /** Sends a direct message; the DM channel is created first when none exists (and remembered). */
  async sendDM(content: ContentInput, code?: number, mentions?: ApiMessageMention[]): Promise<Message> {
    const body = contentOf(content);
    const options = defined({ code, mentions });
    checkMessage(body, options);
    let channelId = this.dmChannelId;
    if (!channelId) {
      const created = await this.createDmChannel();
      if (!created?.channel_id) throw new ValidationError([{ path: 'user', message: `no DM channel could be opened with user ${this.id}`, code: 'invalid' }], 'direct message');
      channelId = created.channel_id;
    }
    const channel = this.#ctx.store.current.channels.get(channelId) ?? { channel_id: channelId, clan_id: DM_CLAN_ID };
    const request = defined({ clan_id: DM_CLAN_ID, channel_id: channelId, mode: ChannelStreamMode.STREAM_MODE_DM, is_public: false, content: body, ...options });
    const ack = await this.#ctx.outbox.enqueue('channel_message_send', request);
    return deliveredMessage(this.#ctx, channel, request, ack);
  }

  /** Opens (or returns) the DM channel with this user; null when none could be obtained. */
  createDmChannel(): Promise<ApiChannelDescription | null> {
    return this.#ctx.createDmChannel(this.id);
  }

  /** Sends tokens to this user. */
  sendToken(sendTokenData: SendTokenData): Promise<SendTokenResult> {
    return this.#ctx.sendToken(this.id, sendTokenData);
  }

  /** Details of one transaction this user took part in. */
  async listTransactionDetail(transactionId: string): Promise<ApiTransactionDetail> {
    if (typeof transactionId !== 'string' || transactionId === '') {
      return Promise.reject(new ValidationError([{ path: 'transactionId', message: 'is required', code: 'invalid' }], 'transaction detail'));
    }
    return this.#ctx.api().getTransaction(transactionId);
  }

  /** The user as cached, with the clan nickname and avatar of the clan it was read in (empty strings outside a clan). */
  toJSON(): UserState & { clan_nick: string; clan_avatar: string } {
    return { ...this.record, clan_nick: this.clan_nick, clan_avatar: this.clan_avatar };
  }

  /** What `util.inspect` and `console.log` show: the user's id and username. */
  [INSPECT](): string {
    return `User ${JSON.stringify({ id: this.id, username: this.username })}`;
  }

  /** @internal */
  get [STRUCTURE_BRAND](): 'user' {
    return 'user';
  }
}
