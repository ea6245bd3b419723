import { addressOf } from '../../wallet/address.js';
import type { LedgerState } from '../ledger/ledger.js';
import type { PlatformContext } from '../platform/context.js';
import type { TokenState } from '../tokens.js';
import type { ChannelRecord, ClanRecord, FriendRecord, MediaPlayRecord, MemberRecord, MessageRecord, QuickMenuRecord, RoleRecord, UserRecord, WebhookRecord } from '../world/records.js';

/** Version of the data-dir format; a file of another version is refused, not misread. */
export const SNAPSHOT_VERSION = 1;

type Listed<T, K extends keyof T> = Omit<T, K> & { [P in K]: string[] };

/**
 * What a data dir keeps: what a real server keeps in its database. Gateway
 * sessions, presences in voice rooms and idempotency keys are not kept: a
 * restart ends them, as it would on the platform.
 */
export interface WorldSnapshot {
  version: typeof SNAPSHOT_VERSION;
  /** The last id handed out, so new ids keep increasing. */
  lastId: string;
  users: UserRecord[];
  clans: ClanRecord[];
  members: Array<Listed<MemberRecord, 'role_ids'> & { clan_id: string }>;
  channels: Array<Listed<ChannelRecord, 'members'>>;
  /** `gone`: ids of messages the channel let go (deleted or pushed out), so replies may still name them; absent in older files. */
  messages: Array<{ channel_id: string; messages: MessageRecord[]; gone?: string[] }>;
  roles: Array<Listed<RoleRecord, 'user_ids' | 'permission_ids'>>;
  friends: Array<FriendRecord & { user_id: string; other_id: string }>;
  quickMenus: QuickMenuRecord[];
  webhooks: WebhookRecord[];
  mediaPlays: MediaPlayRecord[];
  ledger: LedgerState;
  tokens: TokenState;
}

/** The world of a running emulator as plain JSON. */
export function takeSnapshot(ctx: PlatformContext, tokens: TokenState): WorldSnapshot {
  const { world } = ctx;
  return {
    version: SNAPSHOT_VERSION,
    lastId: ctx.ids.last,
    users: [...world.users.values()].map((u) => ({ ...u })),
    clans: [...world.clans.values()].map((c) => ({ ...c })),
    members: [...world.members].flatMap(([clan_id, members]) => [...members.values()].map((m) => ({ ...m, clan_id, role_ids: [...m.role_ids] }))),
    channels: [...world.channels.values()].map((c) => ({ ...c, members: [...c.members] })),
    messages: [...world.messages].map(([channel_id, log]) => ({ channel_id, messages: log.order.map((m) => ({ ...m })), gone: [...log.gone] })),
    roles: [...world.roles.values()].flatMap((roles) => [...roles.values()].map((r) => ({ ...r, user_ids: [...r.user_ids], permission_ids: [...r.permission_ids] }))),
    friends: [...world.friends].flatMap(([user_id, others]) => [...others].map(([other_id, f]) => ({ ...f, user_id, other_id }))),
    quickMenus: [...world.quickMenus.values()].map((q) => ({ ...q })),
    webhooks: [...world.webhooks.values()].map((w) => ({ ...w })),
    mediaPlays: world.mediaPlays.map((p) => ({ ...p })),
    ledger: ctx.ledger.exportState(),
    tokens,
  };
}

/** Fills an empty world from a snapshot (the indexes a world keeps are rebuilt, not stored). */
export function restoreSnapshot(ctx: PlatformContext, snapshot: WorldSnapshot): void {
  const { world } = ctx;
  ctx.ids.reserve(snapshot.lastId);
  for (const user of snapshot.users) {
    world.indexUser({ ...user });
    ctx.ledger.register(user.id, addressOf(user.id));
  }
  for (const clan of snapshot.clans) {
    world.clans.set(clan.id, { ...clan });
    world.members.set(clan.id, new Map());
    world.roles.set(clan.id, new Map());
  }
  for (const { clan_id, ...member } of snapshot.members) world.addMembership(clan_id, { ...member, role_ids: new Set(member.role_ids) });
  for (const channel of snapshot.channels) world.channels.set(channel.channel_id, { ...channel, members: new Set(channel.members) });
  for (const { channel_id, messages, gone } of snapshot.messages) {
    const log = world.messageLog(channel_id);
    for (const id of gone ?? []) log.letGo(id);
    for (const message of messages) log.add(message);
  }
  for (const role of snapshot.roles) {
    world.roles.get(role.clan_id)?.set(role.id, { ...role, user_ids: new Set(role.user_ids), permission_ids: new Set(role.permission_ids) });
    world.roleClan.set(role.id, role.clan_id);
  }
  for (const { user_id, other_id, ...friendship } of snapshot.friends) {
    let others = world.friends.get(user_id);
    if (!others) world.friends.set(user_id, (others = new Map<string, FriendRecord>()));
    others.set(other_id, friendship);
  }
  for (const menu of snapshot.quickMenus) world.quickMenus.set(menu.id, { ...menu });
  for (const webhook of snapshot.webhooks) {
    world.webhooks.set(webhook.id, { ...webhook });
    world.webhooksByToken.set(webhook.token, world.webhooks.get(webhook.id)!);
  }
  world.mediaPlays.push(...snapshot.mediaPlays);
  ctx.ledger.importState(snapshot.ledger);
}
