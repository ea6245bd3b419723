import type { ApiClanMember, ApiVoiceChannelUser } from '../model/api.js';
import { DM_CLAN_ID } from '../model/enums.js';
import type { StoreAction } from '../state/actions.js';
import type { ClientState } from '../state/client-state.js';

/** The gateway's caches as data a worker reduces with the same reducers: the listings that rebuild them. */
export interface CacheSnapshot {
  readonly version: 1;
  /** The bot's user id (the reducers need it). */
  readonly selfId: string | undefined;
  readonly actions: readonly StoreAction[];
}

/**
 * The state as the sync actions that rebuild it. Each cache goes in as the
 * listing it would come from over REST, so a worker's store reduces it with
 * the reducers of one process and keeps the limits it was configured with.
 */
export function snapshotOf(state: ClientState, selfId: string | undefined): CacheSnapshot {
  const actions: StoreAction[] = [{ type: 'local/reset' }];
  actions.push({
    type: 'sync/clans',
    clans: [...state.clans.values()].map((c) => ({ clan_id: c.id, clan_name: c.name, welcome_channel_id: c.welcome_channel_id, creator_id: c.creator_id, logo: c.logo, banner: c.banner })),
  });
  const channels = [...state.channels.values()];
  actions.push({ type: 'sync/channels', channels: channels.filter((c) => c.clan_id !== DM_CLAN_ID) });
  actions.push({ type: 'sync/dm-channels', channels: channels.filter((c) => c.clan_id === DM_CLAN_ID) });
  actions.push({ type: 'sync/users', users: [...state.users.values()].map((u) => ({ id: u.id, username: u.username, display_name: u.display_name, avatar_url: u.avatar, ...(u.is_bot !== undefined ? { is_bot: u.is_bot } : {}) })) });
  for (const [clanId, members] of state.members) {
    const listed: ApiClanMember[] = [];
    for (const member of members.values()) {
      const user = state.users.get(member.user_id);
      if (!user) continue;
      listed.push({ user: { id: user.id, username: user.username, display_name: user.display_name, avatar_url: user.avatar }, clan_nick: member.clan_nick, clan_avatar: member.clan_avatar, role_ids: [...member.role_ids] });
    }
    actions.push({ type: 'sync/members', clanId, members: listed, replace: true });
  }
  for (const [clanId, roles] of state.roles) actions.push({ type: 'sync/roles', clanId, roles: Object.values(roles), replace: true });
  for (const room of state.presence.values()) {
    const byKind = new Map<string, { clanId: string; kind: 'voice' | 'streaming'; users: ApiVoiceChannelUser[] }>();
    for (const p of Object.values(room)) {
      const key = `${p.clan_id}/${p.kind}`;
      let group = byKind.get(key);
      if (!group) byKind.set(key, (group = { clanId: p.clan_id, kind: p.kind, users: [] }));
      group.users.push({ id: p.id, user_id: p.user_id, channel_id: p.channel_id, participant: p.participant });
    }
    for (const group of byKind.values()) actions.push({ type: 'sync/presence', clanId: group.clanId, kind: group.kind, users: group.users });
  }
  for (const [channelId, window] of state.messages) actions.push({ type: 'sync/messages', channelId, messages: window.values(), replace: true });
  return { version: 1, selfId, actions };
}

/** Reads a snapshot written by {@link snapshotOf}; undefined when the text is not one. */
export function parseSnapshot(text: string | null | undefined): CacheSnapshot | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as Partial<CacheSnapshot>;
    return value.version === 1 && Array.isArray(value.actions) ? (value as CacheSnapshot) : undefined;
  } catch {
    return undefined;
  }
}
