import { ChannelType, DM_CLAN_ID } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import type {
  ChannelRecord,
  ClanRecord,
  FriendRecord,
  MediaPlayRecord,
  MemberRecord,
  MessageRecord,
  PresenceRecord,
  QuickMenuRecord,
  RoleRecord,
  UserRecord,
  WebhookRecord,
} from './records.js';

/** A channel's messages in order, with lookup by id, and the ids of those it let go. */
export class MessageLog {
  readonly order: MessageRecord[] = [];
  readonly byId = new Map<string, MessageRecord>();
  /**
   * Ids of messages this log held and let go (deleted, or pushed out past its capacity), the latest
   * `capacity` of them, oldest first: a reply may still name them.
   */
  readonly gone = new Set<string>();

  constructor(private readonly capacity: number) {}

  add(message: MessageRecord): void {
    this.order.push(message);
    this.byId.set(message.message_id, message);
    if (this.order.length > this.capacity) {
      // Forget the oldest in one splice so a long run stays O(1) amortised.
      const excess = this.order.splice(0, this.order.length - this.capacity);
      for (const old of excess) {
        this.byId.delete(old.message_id);
        this.letGo(old.message_id);
      }
    }
  }

  remove(id: string): MessageRecord | undefined {
    const message = this.byId.get(id);
    if (!message) return undefined;
    this.byId.delete(id);
    this.letGo(id);
    const index = this.order.lastIndexOf(message);
    if (index >= 0) this.order.splice(index, 1);
    return message;
  }

  /** Whether a message of this id was stored here: held now, or let go among the latest. */
  stored(id: string): boolean {
    return this.byId.has(id) || this.gone.has(id);
  }

  /** Remembers that a message of this id was stored here (a restored world passes the ids its log had let go). */
  letGo(id: string): void {
    this.gone.delete(id);
    this.gone.add(id);
    if (this.gone.size > this.capacity) this.gone.delete(this.gone.values().next().value!);
  }
}

/** The emulator's in-memory world: every record, and the rules of who may see what. */
export class World {
  readonly users = new Map<string, UserRecord>();
  readonly usersByName = new Map<string, UserRecord>();
  readonly usersByToken = new Map<string, UserRecord>();
  readonly clans = new Map<string, ClanRecord>();
  /** clan id → user id → membership. */
  readonly members = new Map<string, Map<string, MemberRecord>>();
  /** user id → clans the user is in. */
  readonly clansOfUser = new Map<string, Set<string>>();
  readonly channels = new Map<string, ChannelRecord>();
  readonly messages = new Map<string, MessageLog>();
  /** clan id → role id → role. */
  readonly roles = new Map<string, Map<string, RoleRecord>>();
  readonly roleClan = new Map<string, string>();
  /** channel id → user id → presence, for voice and streaming rooms. */
  readonly voice = new Map<string, Map<string, PresenceRecord>>();
  readonly streaming = new Map<string, Map<string, PresenceRecord>>();
  /** channel id → id of the running voice session. */
  readonly voiceSessions = new Map<string, string>();
  /** user id → other user id → friendship as seen by the first. */
  readonly friends = new Map<string, Map<string, FriendRecord>>();
  readonly quickMenus = new Map<string, QuickMenuRecord>();
  readonly webhooks = new Map<string, WebhookRecord>();
  readonly webhooksByToken = new Map<string, WebhookRecord>();
  readonly mediaPlays: MediaPlayRecord[] = [];

  constructor(readonly maxMessagesPerChannel: number) {}

  // ---- lookups that throw the platform's errors ----

  user(id: string): UserRecord {
    const user = this.users.get(id);
    if (!user) throw EmulatorError.notFound(`user ${id}`);
    return user;
  }

  /** A user by id, or by username when no id matches. */
  userByIdOrName(identifier: string): UserRecord | undefined {
    return this.users.get(identifier) ?? this.usersByName.get(identifier);
  }

  clan(id: string): ClanRecord {
    const clan = this.clans.get(id);
    if (!clan) throw EmulatorError.notFound(`clan ${id}`);
    return clan;
  }

  channel(id: string): ChannelRecord {
    const channel = this.channels.get(id);
    if (!channel) throw EmulatorError.notFound(`channel ${id}`);
    return channel;
  }

  message(channelId: string, messageId: string): MessageRecord {
    const message = this.messages.get(channelId)?.byId.get(messageId);
    if (!message) throw EmulatorError.notFound(`message ${messageId}`);
    return message;
  }

  role(id: string): RoleRecord {
    const clanId = this.roleClan.get(id);
    const role = clanId ? this.roles.get(clanId)?.get(id) : undefined;
    if (!role) throw EmulatorError.notFound(`role ${id}`);
    return role;
  }

  /**
   * Whether a message of this id was ever stored, as far as the world can tell: held now, or deleted
   * or pushed out among the latest of its channel. `channelId`, when given, is looked at first.
   */
  wasStored(messageId: string, channelId?: string): boolean {
    const first = channelId === undefined ? undefined : this.messages.get(channelId);
    if (first?.stored(messageId)) return true;
    for (const log of this.messages.values()) if (log !== first && log.stored(messageId)) return true;
    return false;
  }

  messageLog(channelId: string): MessageLog {
    let log = this.messages.get(channelId);
    if (!log) {
      log = new MessageLog(this.maxMessagesPerChannel);
      this.messages.set(channelId, log);
    }
    return log;
  }

  // ---- membership and access ----

  isMember(clanId: string, userId: string): boolean {
    return this.members.get(clanId)?.has(userId) ?? false;
  }

  member(clanId: string, userId: string): MemberRecord | undefined {
    return this.members.get(clanId)?.get(userId);
  }

  isDirect(channel: ChannelRecord): boolean {
    return channel.clan_id === DM_CLAN_ID;
  }

  /** Whether a user may read (and write to) a channel. */
  canAccess(channel: ChannelRecord, userId: string): boolean {
    if (this.isDirect(channel)) return channel.members.has(userId);
    if (!this.isMember(channel.clan_id, userId)) return false;
    if (channel.channel_private !== 1) {
      // A thread of a private channel inherits its parent's privacy.
      const parent = channel.parent_id ? this.channels.get(channel.parent_id) : undefined;
      return parent ? this.canAccess(parent, userId) : true;
    }
    return channel.members.has(userId) || this.clans.get(channel.clan_id)?.creator_id === userId;
  }

  /** Whether every clan member may read a channel (not a DM or group, not private, nor under a private parent). */
  isPublic(channel: ChannelRecord): boolean {
    if (this.isDirect(channel) || channel.channel_private === 1) return false;
    const parent = channel.parent_id ? this.channels.get(channel.parent_id) : undefined;
    return parent ? this.isPublic(parent) : true;
  }

  /** Throws 404 for an unknown channel and 403 when the user may not use it. */
  accessibleChannel(channelId: string, userId: string): ChannelRecord {
    const channel = this.channel(channelId);
    if (!this.canAccess(channel, userId)) throw EmulatorError.forbidden(`no access to channel ${channelId}`);
    return channel;
  }

  /** Throws 404 for an unknown clan and 403 when the user is not a member. */
  memberClan(clanId: string, userId: string): ClanRecord {
    const clan = this.clan(clanId);
    if (!this.isMember(clanId, userId)) throw EmulatorError.forbidden(`not a member of clan ${clanId}`);
    return clan;
  }

  channelsOfClan(clanId: string): ChannelRecord[] {
    const out: ChannelRecord[] = [];
    for (const channel of this.channels.values()) if (channel.clan_id === clanId) out.push(channel);
    return out;
  }

  /** The DM channel of exactly these two users, if it exists. */
  findDm(a: string, b: string): ChannelRecord | undefined {
    for (const channel of this.channels.values()) {
      if (channel.type === ChannelType.CHANNEL_TYPE_DM && channel.members.has(a) && channel.members.has(b) && channel.members.size === 2) {
        return channel;
      }
    }
    return undefined;
  }

  friendship(userId: string, otherId: string): FriendRecord | undefined {
    return this.friends.get(userId)?.get(otherId);
  }

  setFriendship(userId: string, otherId: string, state: FriendRecord['state']): void {
    let map = this.friends.get(userId);
    if (!map) this.friends.set(userId, (map = new Map<string, FriendRecord>()));
    map.set(otherId, { state, update_time_seconds: Math.floor(Date.now() / 1000) });
  }

  indexUser(user: UserRecord): void {
    this.users.set(user.id, user);
    this.usersByName.set(user.username, user);
    this.usersByToken.set(user.token, user);
  }

  addMembership(clanId: string, member: MemberRecord): void {
    let members = this.members.get(clanId);
    if (!members) this.members.set(clanId, (members = new Map<string, MemberRecord>()));
    members.set(member.user_id, member);
    let clans = this.clansOfUser.get(member.user_id);
    if (!clans) this.clansOfUser.set(member.user_id, (clans = new Set()));
    clans.add(clanId);
  }

  removeMembership(clanId: string, userId: string): boolean {
    const removed = this.members.get(clanId)?.delete(userId) ?? false;
    this.clansOfUser.get(userId)?.delete(clanId);
    for (const role of this.roles.get(clanId)?.values() ?? []) role.user_ids.delete(userId);
    return removed;
  }
}
