import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { Events } from '../events/names.js';
import type { CreateEventRequest, Notification, QuickMenuEvent, WebrtcSignalingFwd } from '../events/payloads.js';
import type { ApiChannelDescription, ApiRole, ServiceUpdateRoleBody } from '../model/api.js';
import type { ChannelType } from '../model/enums.js';
import { addressOf } from '../wallet/address.js';
import { toUnits, unitsToTokens } from '../wallet/amount.js';
import { UserActor } from './actions/user-actor.js';
import { StaticPages } from './console/static-pages.js';
import { mountWebConsole } from './console/web-console.js';
import { EmulatorError } from './errors.js';
import { GatewayServer } from './gateway/server.js';
import { Hub, type EventDelivery } from './gateway/hub.js';
import { HttpFaults, type HttpFault } from './http/faults.js';
import { Router, type HttpServices } from './http/router.js';
import { authRoutes } from './http/routes/auth.js';
import { channelRoutes } from './http/routes/channels.js';
import { clanRoutes } from './http/routes/clans.js';
import { userRoutes } from './http/routes/users.js';
import { walletRoutes } from './http/routes/wallet.js';
import { webhookRoutes } from './http/routes/webhooks.js';
import { HttpServer } from './http/server.js';
import { IdGenerator } from './ids.js';
import { Ledger, type TransactionRecord } from './ledger/ledger.js';
import { Prover } from './ledger/prover.js';
import { EMULATOR_DEFAULTS, type EmulatorOptions, type ResolvedEmulatorOptions } from './options.js';
import * as accounts from './platform/accounts.js';
import type { ChannelPatch } from './platform/accounts.js';
import type { PlatformContext } from './platform/context.js';
import { triggerQuickMenu } from './platform/interactions.js';
import * as roles from './platform/roles.js';
import * as social from './platform/social.js';
import * as voice from './platform/voice.js';
import { channelTypeOf, checkSeed, type WorldSeed } from './seed.js';
import { TokenService } from './tokens.js';
import { WireLog } from './wire-log.js';
import type { MessageRecord, UserRecord } from './world/records.js';
import { apiChannel, apiRole } from './world/views.js';
import { World } from './world/world.js';

/** An account as the test API returns it, with the API key it logs in with. */
export interface EmulatorAccount {
  id: string;
  username: string;
  display_name: string;
  avatar: string;
  is_bot: boolean;
  /** API key: log in with `{ botId: id, token }`. */
  token: string;
}

/** What `createBot` returns: the two values a client is configured with. */
export interface BotCredentials {
  botId: string;
  token: string;
  username: string;
}

/** A clan as the test API returns it. */
export interface EmulatorClan {
  id: string;
  name: string;
  welcome_channel_id: string;
  creator_id: string;
}

/** A channel as the test API returns it. */
export interface EmulatorChannel extends ApiChannelDescription {
  id: string;
  channel_id: string;
  clan_id: string;
  type: number;
  /** Explicit members (private channels, threads, DMs). */
  member_ids: string[];
}

/** A channel or clan webhook made through the test API, with what it takes to post to it. */
export interface EmulatorWebhook {
  id: string;
  /** The URL to post to (for clan webhooks, append `/{user}`). */
  url: string;
  token: string;
  botUserId: string;
}

/** A stored message, with its receivers when it is ephemeral. */
export type StoredMessage = MessageRecord;

/** Receives every emitted event, with the gateway sessions it was pushed to and its `seq` in each. */
export interface EmitTap {
  (type: Events, payload: unknown, deliveries: readonly EventDelivery[]): void;
}

const toAccount = (user: UserRecord): EmulatorAccount => ({
  id: user.id,
  username: user.username,
  display_name: user.display_name,
  avatar: user.avatar,
  is_bot: user.is_bot,
  token: user.token,
});

const toChannel = (ctx: PlatformContext, id: string): EmulatorChannel => {
  const record = ctx.world.channel(id);
  return { ...apiChannel(record), id: record.channel_id, channel_id: record.channel_id, clan_id: record.clan_id, type: record.type, member_ids: [...record.members] };
};

/**
 * A running emulator of the platform: a real HTTP and WebSocket server over
 * one in-memory world, with a test API to seed the world, act as users and
 * inject faults. Start one with {@link startEmulator}.
 */
export class Emulator {
  readonly wire: WireLog;
  /** Pages served beside the API: the web console at `/` (see console/web-console.ts); `add` serves more. */
  readonly pages = new StaticPages();
  readonly options: ResolvedEmulatorOptions;
  private readonly ctx: PlatformContext;
  private readonly tokens: TokenService;
  private readonly gateway: GatewayServer;
  private readonly http: HttpServer;
  private readonly faults = new HttpFaults();
  private readonly down = new Set<'prover' | 'ledger'>();
  private publicUrl: string | undefined;
  private address: AddressInfo | undefined;
  private closed = false;
  /** Set while a restart keeps the port closed: when it listens again, and the promise callers wait on. */
  private outage: { until: number; timer: ReturnType<typeof setTimeout> | undefined; listening: Promise<void>; settle: (error?: Error) => void } | undefined;

  constructor(options: EmulatorOptions = {}) {
    const secret = options.secret ?? randomBytes(32).toString('base64url');
    this.options = { ...EMULATOR_DEFAULTS, ...stripUndefined(options), secret } as ResolvedEmulatorOptions;
    this.publicUrl = options.publicUrl;
    const log = options.log ?? (() => {});
    const world = new World(this.options.maxMessagesPerChannel);
    const hub = new Hub(world, this.options.resumeBufferSize);
    const prover = new Prover(secret);
    const ledger = new Ledger(prover);
    this.ctx = { world, hub, ids: new IdGenerator(), ledger, options: this.options };
    this.tokens = new TokenService(secret, () => ({ access: this.options.tokenTtlSeconds, refresh: this.options.refreshTokenTtlSeconds }));
    this.wire = new WireLog(this.options.wireLogSize);
    ledger.onTransfer((tx, extra) => this.announceTransfer(tx, extra));
    this.gateway = new GatewayServer({ platform: this.ctx, tokens: this.tokens, wire: this.wire, log });
    const services: HttpServices = {
      platform: this.ctx,
      tokens: this.tokens,
      prover,
      publicUrl: () => this.url,
      down: this.down,
      revokeSession: (sid) => {
        this.tokens.revoke(sid);
        this.gateway.closeWhere(4005, 'the session was logged out', (conn) => conn.claims.sid === sid);
      },
    };
    const router = new Router().add(...authRoutes, ...clanRoutes, ...channelRoutes, ...userRoutes, ...webhookRoutes, ...walletRoutes);
    router.add({ method: 'GET', template: '/healthz', auth: 'none', handler: () => ({ ok: true }) });
    mountWebConsole(this.pages, { accounts: () => this.credentials() });
    this.http = new HttpServer({ router, services, wire: this.wire, faults: this.faults, maxBodyBytes: this.options.maxPayloadBytes, log, serveStatic: (req, res) => this.pages.handle(req, res) });
    this.http.server.on('upgrade', (req, socket, head: Buffer) => this.gateway.handleUpgrade(req, socket, head));
  }

  /** Starts listening and creates the seed world. */
  async listen(): Promise<this> {
    const seed = typeof this.options.seed === 'string' ? await loadSeed(this.options.seed) : this.options.seed;
    await new Promise<void>((resolve, reject) => {
      this.http.server.once('error', reject);
      this.http.server.listen(this.options.port, this.options.host, () => resolve());
    });
    this.address = this.http.server.address() as AddressInfo;
    try {
      if (seed) this.seed(seed);
    } catch (error) {
      await this.close();
      throw error;
    }
    return this;
  }

  /** Base URL clients are told to use (`http://127.0.0.1:port` unless a public URL is set). */
  get url(): string {
    if (this.publicUrl) return this.publicUrl;
    if (!this.address) throw new Error('the emulator is not listening yet');
    const host = this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address;
    return `http://${host}:${this.address.port}`;
  }

  /** The URL the emulator itself listens on, whatever public URL is set. */
  get listenUrl(): string {
    if (!this.address) throw new Error('the emulator is not listening yet');
    return `http://${this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address}:${this.address.port}`;
  }

  get port(): number {
    if (!this.address) throw new Error('the emulator is not listening yet');
    return this.address.port;
  }

  /** Tell clients to use another base URL (a proxy in front of the emulator); undefined restores the real one. */
  setPublicUrl(url: string | undefined): void {
    this.publicUrl = url;
  }

  /** Stops the servers and closes every socket. */
  async close(): Promise<void> {
    this.closed = true;
    const outage = this.outage;
    if (outage) {
      // Closed while down after a restart: it simply never listens again.
      if (outage.timer) clearTimeout(outage.timer);
      this.outage = undefined;
      outage.settle();
    }
    this.http.resume();
    this.gateway.resume();
    this.ctx.hub.resume();
    await this.gateway.close();
    await new Promise<void>((resolve) => {
      if (this.http.server.listening) this.http.server.close(() => resolve());
      else resolve();
      this.http.server.closeAllConnections();
    });
  }

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

  /** Issues a new token for a webhook; the old URL stops working. */
  resetWebhookToken(webhookId: string): EmulatorWebhook {
    const webhook = this.ctx.world.webhooks.get(webhookId);
    if (!webhook) throw EmulatorError.notFound(`webhook ${webhookId}`);
    this.ctx.world.webhooksByToken.delete(webhook.token);
    webhook.token = randomBytes(24).toString('base64url');
    this.ctx.world.webhooksByToken.set(webhook.token, webhook);
    return this.webhookView(webhook.id);
  }

  private createWebhook(kind: 'channel' | 'clan', targetId: string, name: string): EmulatorWebhook {
    const bot = accounts.createAccount(this.ctx, { username: `${name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40)}-${this.ctx.ids.id().slice(-6)}`, display_name: name }, true);
    const webhook = { id: this.ctx.ids.id(), kind, target_id: targetId, token: randomBytes(24).toString('base64url'), bot_user_id: bot.id, name };
    this.ctx.world.webhooks.set(webhook.id, webhook);
    this.ctx.world.webhooksByToken.set(webhook.token, webhook);
    return this.webhookView(webhook.id);
  }

  private webhookView(id: string): EmulatorWebhook {
    const webhook = this.ctx.world.webhooks.get(id)!;
    const url = webhook.kind === 'channel' ? `${this.url}/webhooks/${webhook.target_id}/${webhook.token}` : `${this.url}/clanwebhooks/${webhook.token}`;
    return { id: webhook.id, url, token: webhook.token, botUserId: webhook.bot_user_id };
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
    return [...(this.ctx.world.friends.get(userId) ?? new Map()).entries()].map(([id, f]) => ({ userId: id, state: f.state }));
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

  // ---------------- faults ----------------

  /** Cuts every gateway socket without a close frame; sessions stay resumable. */
  dropConnections(): void {
    this.gateway.dropAll();
  }

  /** Closes gateway sockets with a close code (all, or one user's). */
  closeConnections(code: number, reason = 'closed by the emulator', userId?: string): void {
    this.gateway.closeWhere(code, reason, (conn) => userId === undefined || conn.userId === userId);
  }

  /** Changes the lifetime of tokens issued from now on. */
  setTokenTtl(seconds: { access?: number; refresh?: number }): void {
    if (seconds.access !== undefined) this.options.tokenTtlSeconds = seconds.access;
    if (seconds.refresh !== undefined) this.options.refreshTokenTtlSeconds = seconds.refresh;
  }

  /** Expires every session token issued so far (and refresh tokens when asked); sockets close with 4004. */
  expireTokens(options: { refresh?: boolean } = {}): void {
    this.tokens.expireAll(options.refresh ?? false);
    this.gateway.closeWhere(4004, 'the session token expired');
  }

  /**
   * Kills the server process and starts it again, as a crash or a deploy
   * would. Every gateway and HTTP socket is cut without a close frame (1006;
   * requests in flight get no answer), the port refuses connections for
   * `downMs` (default 0), and the in-memory gateway state is lost: sessions
   * (so a resume fails with `unknown_session`, and clients start a fresh
   * session and resync), buffered events, and anything held by `pause()`.
   * What a real server keeps in its database persists: accounts, API keys,
   * issued tokens (same signing secret), clans, channels, messages, the ledger
   * and idempotency keys. Test settings (`failHttp`, `setServiceDown`, the
   * public URL, event taps) are kept too. Resolves once it listens on the
   * same port again; a restart while down extends the outage.
   */
  restart(options: { downMs?: number } = {}): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the emulator is closed'));
    const downMs = Math.max(0, options.downMs ?? 0);
    this.gateway.crash();
    this.ctx.hub.forgetSessions();
    this.http.dropHeld();
    if (!this.outage) {
      let settle!: (error?: Error) => void;
      const listening = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
      this.outage = { until: 0, timer: undefined, listening, settle };
      // Stop accepting first, then cut what is open, so nothing slips in between.
      this.http.server.close();
      this.http.server.closeAllConnections();
      this.options.log?.('emulator: restarting (every socket cut, gateway sessions forgotten)');
    }
    const outage = this.outage;
    outage.until = Math.max(outage.until, Date.now() + downMs);
    if (outage.timer) clearTimeout(outage.timer);
    outage.timer = setTimeout(() => {
      outage.timer = undefined;
      this.relisten(outage).then(
        () => outage.settle(),
        (error: unknown) => outage.settle(error instanceof Error ? error : new Error(String(error))),
      );
    }, Math.max(0, outage.until - Date.now()));
    return outage.listening;
  }

  /** Binds the port it had again (retrying briefly if the old socket is still being released). */
  private async relisten(outage: NonNullable<Emulator['outage']>): Promise<void> {
    const port = this.port;
    const deadline = Date.now() + 2000;
    for (;;) {
      if (this.outage !== outage) return;
      try {
        await new Promise<void>((resolve, reject) => {
          const server = this.http.server;
          const onError = (error: Error) => reject(error);
          server.once('error', onError);
          server.listen(port, this.options.host, () => {
            server.off('error', onError);
            resolve();
          });
        });
        if (this.closed) {
          // close() ran while the port was being bound: do not stay listening.
          this.http.server.close();
          return;
        }
        this.outage = undefined;
        this.options.log?.('emulator: listening again after a restart');
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) {
          this.outage = undefined;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  /** True between `restart()` and listening again. */
  get restarting(): boolean {
    return this.outage !== undefined;
  }

  /** Stops answering without closing anything: requests and frames wait, events gather in buffers. */
  pause(): void {
    this.http.pause();
    this.gateway.pause();
    this.ctx.hub.pause();
  }

  /** Answers everything that waited, in order. */
  resume(): void {
    this.ctx.hub.resume();
    this.gateway.resume();
    this.http.resume();
  }

  /** Fails the next matching HTTP requests with a status (429 with `retryAfterSeconds`, 5xx…). */
  failHttp(fault: HttpFault): void {
    this.faults.add(fault);
  }

  /** Forgets HTTP failures queued by `failHttp` that no request used yet. */
  clearHttpFaults(): void {
    this.faults.clear();
  }

  /** Takes the prover or the token network down (503) or brings it back. */
  setServiceDown(service: 'prover' | 'ledger', down: boolean): void {
    if (down) this.down.add(service);
    else this.down.delete(service);
  }

  // ---------------- seeding ----------------

  /** Creates a world from a seed; accounts are referred to by username. */
  seed(world: WorldSeed): void {
    const idOf = (username: string): string => {
      const user = this.ctx.world.usersByName.get(username);
      if (!user) throw new Error(`the seed refers to unknown user "${username}"`);
      return user.id;
    };
    for (const bot of world.bots ?? []) accounts.createAccount(this.ctx, bot, true);
    for (const user of world.users ?? []) accounts.createAccount(this.ctx, user, false);
    for (const clanSeed of world.clans ?? []) {
      const clan = accounts.createClan(this.ctx, {
        name: clanSeed.name,
        ...(clanSeed.id ? { id: clanSeed.id } : {}),
        ...(clanSeed.owner ? { ownerId: idOf(clanSeed.owner) } : {}),
        ...(clanSeed.welcome ? { welcomeChannelName: clanSeed.welcome } : {}),
      });
      for (const member of clanSeed.members ?? []) accounts.addClanMember(this.ctx, clan.id, idOf(member));
      const byName = new Map<string, string>([[this.ctx.world.channel(clan.welcome_channel_id).channel_label, clan.welcome_channel_id]]);
      for (const channelSeed of clanSeed.channels ?? []) {
        const parentId = channelSeed.parent ? byName.get(channelSeed.parent) : undefined;
        if (channelSeed.parent && !parentId) throw new Error(`the seed's channel "${channelSeed.name}" refers to unknown parent "${channelSeed.parent}"`);
        const channel = accounts.createChannel(this.ctx, {
          clanId: clan.id,
          name: channelSeed.name,
          type: channelTypeOf(channelSeed.type),
          ...(channelSeed.id ? { id: channelSeed.id } : {}),
          ...(channelSeed.private ? { private: true } : {}),
          ...(parentId ? { parentId } : {}),
          memberIds: (channelSeed.members ?? []).map(idOf),
        });
        byName.set(channel.channel_label, channel.channel_id);
      }
      for (const roleSeed of clanSeed.roles ?? []) {
        roles.createRole(this.ctx, { clanId: clan.id, title: roleSeed.title, ...(roleSeed.color ? { color: roleSeed.color } : {}), userIds: (roleSeed.members ?? []).map(idOf) });
      }
    }
    for (const [username, amount] of Object.entries(world.balances ?? {})) this.fund(idOf(username), amount);
  }

  /**
   * Client settings for an account of this emulator: pass them to
   * `new ServiceClient(emu.clientConfig(account))` (host, port, scheme and the
   * token-network URLs all point here).
   */
  clientConfig(account: { botId: string; token: string } | { id: string; token: string }) {
    const url = new URL(this.url);
    return {
      botId: 'botId' in account ? account.botId : account.id,
      token: account.token,
      host: url.hostname,
      port: url.port || (url.protocol === 'https:' ? '443' : '80'),
      useSSL: url.protocol === 'https:',
      mmnApiUrl: `${this.url}/mmn`,
      zkApiUrl: `${this.url}/zk`,
    };
  }

  /** Every account with its API key, bots first (what `clanstream emulator` prints). */
  credentials(): EmulatorAccount[] {
    return [...this.ctx.world.users.values()]
      .filter((u) => ![...this.ctx.world.webhooks.values()].some((w) => w.bot_user_id === u.id))
      .sort((a, b) => Number(b.is_bot) - Number(a.is_bot))
      .map(toAccount);
  }

  private announceTransfer(tx: TransactionRecord, extra: Record<string, unknown>): void {
    const receiverId = tx.receiver_id ?? '';
    const senderId = tx.sender_id;
    const sender = senderId ? this.ctx.world.users.get(senderId) : undefined;
    const payload = {
      ...(senderId ? { sender_id: senderId } : {}),
      // The ledger knows who owns the sending address; only an unknown sender falls back to what the client claimed.
      sender_name: sender?.username ?? (typeof extra.UserSenderUsername === 'string' ? extra.UserSenderUsername : ''),
      receiver_id: receiverId,
      amount: unitsToTokens(BigInt(tx.amount)),
      note: tx.text_data,
      extra_attribute: typeof extra.ExtraAttribute === 'string' ? extra.ExtraAttribute : '',
      transaction_id: tx.tx_hash,
    };
    this.ctx.hub.emit(Events.TokenSend, payload, { users: [...new Set([senderId, receiverId].filter((id): id is string => Boolean(id)))] });
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Reads a seed world from a JSON file. */
export async function loadSeed(path: string): Promise<WorldSeed> {
  const text = await readFile(path, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`the seed file ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return checkSeed(parsed, `the seed file ${path}`);
}

/** Starts an emulator (on 127.0.0.1 and a free port unless told otherwise). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return new Emulator(options).listen();
}

