import type { CreateEventRequest, Notification, QuickMenuEvent, WebrtcSignalingFwd } from '../events/payloads.js';
import type { ApiRole, ServiceUpdateRoleBody } from '../model/api.js';
import type { ChannelType } from '../model/enums.js';
import { addressOf } from '../wallet/address.js';
import { toUnits, unitsToTokens } from '../wallet/amount.js';
import { UserActor } from './actions/user-actor.js';
import { EmulatorError } from './errors.js';
import type { TransactionRecord } from './ledger/ledger.js';
import * as accounts from './platform/accounts.js';
import type { ChannelPatch } from './platform/accounts.js';
import type { PlatformContext } from './platform/context.js';
import { triggerQuickMenu } from './platform/interactions.js';
import * as roles from './platform/roles.js';
import * as social from './platform/social.js';
import * as voice from './platform/voice.js';
import * as webhooks from './platform/webhooks.js';
import type { BotCredentials, EmitTap, EmulatorAccount, EmulatorChannel, EmulatorClan, EmulatorWebhook, StoredMessage } from './types.js';
import type { FriendRecord, UserRecord } from './world/records.js';
import { apiChannel, apiRole } from './world/views.js';

export const toAccount = (user: UserRecord): EmulatorAccount => ({
  id: user.id,
  username: user.username,
  display_name: user.display_name,
  avatar: user.avatar,
  is_bot: user.is_bot,
  token: user.token,
});

export const toChannel = (ctx: PlatformContext, id: string): EmulatorChannel => {
  const record = ctx.world.channel(id);
  return { ...apiChannel(record), id: record.channel_id, channel_id: record.channel_id, clan_id: record.clan_id, type: record.type, member_ids: [...record.members] };
};

/**
 * The emulator's test API over its world: create accounts, clans, channels,
 * roles and webhooks, act as users, look at what is stored, and move tokens.
 * Everything here changes or reads the world the way the platform would,
 * announcing the events a real server would send.
 */
export abstract class WorldControls {
  /** @internal */
  protected abstract readonly ctx: PlatformContext;
  /** Base URL clients are told to use. */
  abstract get url(): string;

  // ---------------- world ----------------

  /** Creates a bot account. */
  createBot(input: { username?: string; display_name?: string; id?: string; token?: string } = {}): BotCredentials {
    const user = accounts.createAccount(this.ctx, { ...input, username: input.username ?? `bot-${this.ctx.ids.id().slice(-6)}` }, true);
    return { botId: user.id, token: user.token, username: user.username };
  }

  /** Creates a human account; throws when the username is invalid or taken (409). The returned `token` is its API key. */
  createUser(input: { username: string; display_name?: string; avatar?: string; id?: string; token?: string }): EmulatorAccount {
    return toAccount(accounts.createAccount(this.ctx, input, false));
  }

  /** Creates a clan with a welcome channel; the owner (if given) becomes a member. */
  createClan(input: { name: string; ownerId?: string; id?: string; welcomeChannelName?: string }): EmulatorClan {
    const clan = accounts.createClan(this.ctx, input);
    return { id: clan.id, name: clan.name, welcome_channel_id: clan.welcome_channel_id, creator_id: clan.creator_id };
  }

  /** Creates a channel of any type; DM and group channels use clan "0" and `memberIds`. */
  createChannel(input: {
    clanId: string;
    name: string;
    type?: ChannelType;
    private?: boolean;
    parentId?: string;
    memberIds?: string[];
    creatorId?: string;
    id?: string;
  }): EmulatorChannel {
    return toChannel(this.ctx, accounts.createChannel(this.ctx, input).channel_id);
  }

  /** Changes a channel (omitted fields stay) and announces `channel_updated_event`; returns the channel as it now is. */
  updateChannel(channelId: string, patch: ChannelPatch): EmulatorChannel {
    accounts.updateChannel(this.ctx, channelId, patch);
    return toChannel(this.ctx, channelId);
  }

  /** Deletes a channel with its threads, messages, presence and quick-menu entries, announcing `channel_deleted_event` for each; the welcome channel cannot be deleted. */
  deleteChannel(channelId: string, deletorId = ''): void {
    accounts.deleteChannel(this.ctx, channelId, deletorId);
  }

  /** Adds a user to a clan and announces `add_clan_user_event` to the clan and the user; false when already a member. */
  addClanMember(clanId: string, userId: string, invitorId = ''): boolean {
    return accounts.addClanMember(this.ctx, clanId, userId, invitorId);
  }

  /** Removes a user from a clan (and its channels' member lists and roles), announcing `user_clan_removed_event` first; false when not a member. */
  removeClanMember(clanId: string, userId: string): boolean {
    return accounts.removeClanMembers(this.ctx, clanId, [userId]).length > 0;
  }

  /** Adds a user to a channel's member list (needed for private channels and threads) and announces `user_channel_added_event`; false when already listed. Outside DMs the user must be in the clan. */
  addChannelMember(channelId: string, userId: string, callerId = ''): boolean {
    return accounts.addChannelMembers(this.ctx, channelId, [userId], callerId).length > 0;
  }

  /** Removes a user from a channel's member list and announces `user_channel_removed_event`; false when not listed. */
  removeChannelMember(channelId: string, userId: string): boolean {
    return accounts.removeChannelMembers(this.ctx, channelId, [userId]).length > 0;
  }

  /** Creates a role (optionally with members, who must be clan members) and announces `role_event` with status Created. */
  createRole(input: { clanId: string; title: string; color?: string; description?: string; creatorId?: string; userIds?: string[] }): ApiRole {
    return apiRole(roles.createRole(this.ctx, input));
  }

  /** Updates a role as `PUT /v2/roles/{roleId}` does, without its permission checks; `byUserId` is reported as the changer. */
  updateRole(roleId: string, body: ServiceUpdateRoleBody, byUserId = ''): ApiRole {
    return apiRole(roles.updateRole(this.ctx, roleId, roles.checkRoleBody(body), byUserId));
  }

  /** Deletes a role (announced as `role_event` with status Deleted); members lose it. */
  deleteRole(roleId: string, byUserId = ''): void {
    roles.deleteRole(this.ctx, roleId, byUserId);
  }

  /** Sets a member's nickname (and avatar) in a clan, as the member would in the clan settings. */
  setClanNick(clanId: string, userId: string, nick: string, avatar?: string): void {
    const member = this.ctx.world.member(clanId, userId);
    if (!member) throw EmulatorError.notFound(`member ${userId} of clan ${clanId}`);
    member.clan_nick = nick;
    if (avatar !== undefined) member.clan_avatar = avatar;
  }

  /** Gives a role to users, who must be clan members (and takes it from `options.remove`), and announces `role_assign_event`, even when nothing changed. */
  assignRole(roleId: string, userIds: string[], options: { remove?: string[] } = {}): ApiRole {
    return apiRole(roles.assignRole(this.ctx, roleId, userIds, options.remove ?? []));
  }

  /** Starts a voice session in a voice channel and announces `voice_started_event`; returns the session id (the running one if any). */
  startVoice(channelId: string): string {
    return voice.startVoice(this.ctx, channelId);
  }

  /** Ends a voice channel's running session and announces `voice_ended_event`; returns its id. Throws when none is running. */
  endVoice(channelId: string): string {
    return voice.endVoice(this.ctx, channelId);
  }

  /** Creates a clan event and announces `clan_event_created` to the clan; unset times default to one and two hours from now. */
  createClanEvent(clanId: string, input: Partial<Omit<CreateEventRequest, 'event_id' | 'clan_id'>> & { title: string }): CreateEventRequest {
    return social.createClanEvent(this.ctx, clanId, input);
  }

  /** Sends a user a notification (`notifications`); unset fields get defaults, and `persistent` defaults to true. */
  notify(userId: string, input: Partial<Omit<Notification, 'id'>> & { subject: string }): Notification {
    return social.notify(this.ctx, userId, input);
  }

  /** A user picks a quick-menu entry: `quick_menu_event` reaches the bot, with `text` (default `/{menuName}`) as the message. */
  triggerQuickMenu(input: { userId: string; channelId: string; menuName: string; botId?: string; text?: string }): QuickMenuEvent {
    return triggerQuickMenu(this.ctx, input);
  }

  /** Forwards a WebRTC signal to its receiver as `webrtc_signaling_fwd`; returns the event sent. */
  forwardSignal(input: { callerId: string; receiverId: string; channelId: string; dataType: number; jsonData: string }): WebrtcSignalingFwd {
    return social.forwardSignal(this.ctx, {
      caller_id: input.callerId,
      receiver_id: input.receiverId,
      channel_id: input.channelId,
      data_type: input.dataType,
      json_data: input.jsonData,
    });
  }

  /** Creates a channel webhook posting as a new bot user. */
  createChannelWebhook(channelId: string, input: { name?: string } = {}): EmulatorWebhook {
    this.ctx.world.channel(channelId);
    return this.createWebhook('channel', channelId, input.name ?? 'Webhook');
  }

  /** Creates a clan webhook; its URL is the base to which the caller appends `/{user}`. */
  createClanWebhook(clanId: string, input: { name?: string } = {}): EmulatorWebhook {
    this.ctx.world.clan(clanId);
    return this.createWebhook('clan', clanId, input.name ?? 'Clan Webhook');
  }

  /** Every webhook with its URL, oldest first (what `clanstream emulator` prints). */
  webhooks(): EmulatorWebhook[] {
    return [...this.ctx.world.webhooks.values()].map((webhook) => webhooks.webhookView(webhook, this.url));
  }

  /** Issues a new token for a webhook; the old URL stops working. */
  resetWebhookToken(webhookId: string): EmulatorWebhook {
    return webhooks.webhookView(webhooks.resetWebhookToken(this.ctx, webhookId), this.url);
  }

  private createWebhook(kind: 'channel' | 'clan', targetId: string, name: string): EmulatorWebhook {
    return webhooks.webhookView(webhooks.createWebhook(this.ctx, kind, targetId, name), this.url);
  }

  /** Acts as a user: send, react, click, join voice, transfer… */
  as(userId: string): UserActor {
    return new UserActor(this.ctx, userId);
  }

  // ---------------- inspection ----------------

  /** The messages stored in a channel, oldest first (copies). */
  messages(channelId: string): StoredMessage[] {
    this.ctx.world.channel(channelId);
    return (this.ctx.world.messages.get(channelId)?.order ?? []).map((m) => structuredClone(m));
  }

  /** An account by id or username. */
  user(idOrUsername: string): EmulatorAccount {
    const user = this.ctx.world.userByIdOrName(idOrUsername);
    if (!user) throw EmulatorError.notFound(`user ${idOrUsername}`);
    return toAccount(user);
  }

  /** A channel with its member ids; throws a not-found EmulatorError when unknown. */
  channel(channelId: string): EmulatorChannel {
    return toChannel(this.ctx, channelId);
  }

  /** Channels of a clan (or DM channels with clan "0"). */
  channels(clanId: string): EmulatorChannel[] {
    return [...this.ctx.world.channels.values()].filter((c) => c.clan_id === clanId).map((c) => toChannel(this.ctx, c.channel_id));
  }

  /** A clan with its member ids; throws a not-found EmulatorError when unknown. */
  clan(clanId: string): EmulatorClan & { member_ids: string[] } {
    const clan = this.ctx.world.clan(clanId);
    return { id: clan.id, name: clan.name, welcome_channel_id: clan.welcome_channel_id, creator_id: clan.creator_id, member_ids: [...(this.ctx.world.members.get(clanId)?.keys() ?? [])] };
  }

  /** Every clan, oldest first. */
  clans(): Array<EmulatorClan & { member_ids: string[] }> {
    return [...this.ctx.world.clans.keys()].map((id) => this.clan(id));
  }

  /** The roles of a clan as the API shows them; empty for an unknown clan. */
  roles(clanId: string): ApiRole[] {
    return [...(this.ctx.world.roles.get(clanId)?.values() ?? [])].map(apiRole);
  }

  /** User ids present in a voice (or streaming) room. */
  voiceUsers(channelId: string): string[] {
    return [...(this.ctx.world.voice.get(channelId)?.keys() ?? []), ...(this.ctx.world.streaming.get(channelId)?.keys() ?? [])];
  }

  /** A user's friend relations as that user sees them (`invite_sent`, `accepted`, …). */
  friendsOf(userId: string): Array<{ userId: string; state: string }> {
    return [...(this.ctx.world.friends.get(userId) ?? new Map<string, FriendRecord>()).entries()].map(([id, f]) => ({ userId: id, state: f.state }));
  }

  /** The quick-menu entries granted in a channel (copies). */
  quickMenus(channelId: string): Array<{ id: string; bot_id: string; menu_name: string; action_msg: string }> {
    return [...this.ctx.world.quickMenus.values()].filter((r) => r.channel_id === channelId).map((r) => ({ ...r }));
  }

  /** Every media play accepted by `POST /v2/channels/{channelId}/media`, oldest first, with the user who asked (`by`). */
  mediaPlays(): Array<{ channel_id: string; url: string; name: string; by: string }> {
    return this.ctx.world.mediaPlays.map((p) => ({ ...p }));
  }

  /** Every transaction the ledger accepted (copies); amounts are in units. */
  transactions(): TransactionRecord[] {
    return [...this.ctx.ledger.transactions.values()].map((t) => ({ ...t }));
  }

  /** Gateway sessions of a user: id, last seq, and whether a socket is attached. */
  sessions(userId?: string): Array<{ id: string; userId: string; seq: number; connected: boolean }> {
    return [...this.ctx.hub.sessions.values()]
      .filter((s) => userId === undefined || s.userId === userId)
      .map((s) => ({ id: s.id, userId: s.userId, seq: s.seq, connected: s.sink !== undefined }));
  }

  /** Listens to every event the emulator emits (before delivery); returns an unsubscribe function. */
  onEvent(listener: EmitTap): () => void {
    return this.ctx.hub.tap(listener);
  }

  // ---------------- tokens ----------------

  /** Credits tokens to a user (amount in tokens, up to 6 decimals). */
  fund(userId: string, amount: number | string): void {
    this.ctx.world.user(userId);
    this.ctx.ledger.fund(this.ctx.ledger.addressOf(userId), toUnits(amount));
  }

  /** Credits tokens to any address, such as the base58 public key a transfer-by-key (type 1) sends from. */
  fundAddress(address: string, amount: number | string): void {
    this.ctx.ledger.fund(address, toUnits(amount));
  }

  /** A user's balance in tokens. */
  balance(userId: string): number {
    return unitsToTokens(this.balanceUnits(userId));
  }

  /** A user's balance in units (1 token = 1,000,000 units). */
  balanceUnits(userId: string): bigint {
    this.ctx.world.user(userId);
    return this.ctx.ledger.peek(addressOf(userId)).balance;
  }

  /** The nonce of a user's last accepted transaction. */
  nonce(userId: string): number {
    return this.ctx.ledger.peek(addressOf(userId)).nonce;
  }
}
