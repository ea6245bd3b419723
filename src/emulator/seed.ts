import { ChannelType } from '../model/enums.js';

/** A channel of a seeded clan. */
export interface ChannelSeed {
  name: string;
  id?: string;
  /** A `ChannelType` number (from `clanstream`) or its short name: text, voice, stream, thread, forum, app, announcement, service_voice. */
  type?: ChannelType | keyof typeof CHANNEL_TYPE_NAMES;
  private?: boolean;
  /** Name of the parent channel (threads). */
  parent?: string;
  /** Usernames allowed into a private channel. */
  members?: string[];
}

/** A clan of a `WorldSeed`: its members, channels and roles, all named by username or channel name. */
export interface ClanSeed {
  name: string;
  id?: string;
  /** Username of the owner (becomes a member). */
  owner?: string;
  /** Usernames of the other members. */
  members?: string[];
  /** Name of the welcome channel (default "general"). */
  welcome?: string;
  channels?: ChannelSeed[];
  roles?: Array<{ title: string; color?: string; members?: string[] }>;
  /** Webhooks whose URLs `clanstream emulator` prints. */
  webhooks?: WebhookSeed[];
}

/** A webhook of a seeded clan: a channel webhook with `channel`, a clan webhook without. */
export interface WebhookSeed {
  /** Display name of the webhook's bot user. */
  name: string;
  /** Name of a channel of the clan. */
  channel?: string;
  /** A fixed token (URL-safe, 16-128 characters); without one it is derived from the emulator's secret. */
  token?: string;
}

/** A bot or user of a `WorldSeed`. Without `id` and `token`, fresh ones are generated. */
export interface AccountSeed {
  username: string;
  display_name?: string;
  avatar?: string;
  id?: string;
  /** A fixed API key; without one it is derived from the emulator's secret (stable with a fixed secret). */
  token?: string;
}

/**
 * A world to create when the emulator starts (`--seed world.json`). Accounts
 * are referred to by username. The format is schemas/world-seed.schema.json.
 */
export interface WorldSeed {
  bots?: AccountSeed[];
  users?: AccountSeed[];
  clans?: ClanSeed[];
  /** Username → tokens to credit. */
  balances?: Record<string, number | string>;
}

/** The short names a seed may give a channel's `type` instead of its number. */
export const CHANNEL_TYPE_NAMES = {
  text: ChannelType.CHANNEL_TYPE_CHANNEL,
  voice: ChannelType.CHANNEL_TYPE_GMEET_VOICE,
  stream: ChannelType.CHANNEL_TYPE_STREAMING,
  thread: ChannelType.CHANNEL_TYPE_THREAD,
  forum: ChannelType.CHANNEL_TYPE_FORUM,
  app: ChannelType.CHANNEL_TYPE_APP,
  announcement: ChannelType.CHANNEL_TYPE_ANNOUNCEMENT,
  service_voice: ChannelType.CHANNEL_TYPE_SERVICE_VOICE,
} as const;

/** The world `clanstream emulator` and the demo start with. */
export const DEFAULT_WORLD: WorldSeed = {
  bots: [{ username: 'clanbot', display_name: 'Clan Bot' }],
  users: [
    { username: 'alice', display_name: 'Alice' },
    { username: 'bob', display_name: 'Bob' },
    { username: 'carol', display_name: 'Carol' },
  ],
  clans: [
    {
      name: 'Demo Clan',
      owner: 'alice',
      members: ['bob', 'carol', 'clanbot'],
      channels: [
        { name: 'random' },
        { name: 'lounge', type: 'voice' },
        { name: 'stage', type: 'stream' },
        { name: 'staff', private: true, members: ['alice', 'clanbot'] },
      ],
      roles: [{ title: 'Moderator', color: '#e67e22', members: ['alice'] }],
      webhooks: [{ name: 'Deploys', channel: 'general' }, { name: 'Notices' }],
    },
  ],
  balances: { alice: 100, bob: 50, clanbot: 1000 },
};

/** Resolves a seed channel type to a {@link ChannelType}. */
export function channelTypeOf(type: ChannelSeed['type']): ChannelType {
  if (type === undefined) return ChannelType.CHANNEL_TYPE_CHANNEL;
  if (typeof type === 'number') return type;
  const resolved = (CHANNEL_TYPE_NAMES as Record<string, ChannelType>)[type];
  if (resolved === undefined) throw new Error(`unknown channel type "${String(type)}" in the seed`);
  return resolved;
}
