/**
 * A deterministic bench world: clans, their channels, DM channels and users,
 * as the REST API lists them (docs/PROTOCOL.md §3.4, §3.5), plus samplers
 * that pick channels and senders for channel_message events.
 *
 * The default "large" world is 1,000 clans, 10,000 clan channels and
 * 100,000 users. Channel counts per clan are skewed (every clan has at least
 * 2 channels; the rest follow 1/rank over a shuffled clan order), so a few
 * clans span several pages of 100 and most fit in one.
 */
import type { ApiChannelDescription, ApiClanDesc, ApiUser } from '../../src/model/api.js';
import { BENCH_BOT_ID, BENCH_CLAN_ID, CHANNEL_IDS, CHANNEL_LABELS } from './channel-message-frames.js';
import { mulberry32 } from '../../test/support/prng.js';

export interface WorldShape {
  clans: number;
  /** Clan channels over all clans (at least 2 per clan in generated worlds). */
  channels: number;
  users: number;
  /** DM channels of the bot (each with one user). */
  dmChannels: number;
}

export const LARGE_WORLD: WorldShape = Object.freeze({ clans: 1_000, channels: 10_000, users: 100_000, dmChannels: 200 });

/** A small deterministic generator: the suite's mulberry32, so worlds are the same in every run. */
export const generator = mulberry32;

/** A seeded permutation of 0..n-1. */
export function permutation(n: number, random: () => number): Uint32Array {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = out[i]!;
    out[i] = out[j]!;
    out[j] = t;
  }
  return out;
}

export interface WorldChannel {
  readonly id: string;
  readonly clanId: string;
  readonly label: string;
}

export interface WorldUser {
  readonly id: string;
  readonly username: string;
  readonly displayName: string;
  readonly avatar: string;
}

export interface BenchWorld {
  readonly shape: WorldShape;
  /** Sorted by id (the order GET /v2/clans lists them). */
  readonly clans: readonly ApiClanDesc[];
  /** Clan id → its channels, sorted by id. */
  readonly channelsByClan: ReadonlyMap<string, readonly ApiChannelDescription[]>;
  /** Every clan channel, for event generation. */
  readonly channels: readonly WorldChannel[];
  readonly dmChannels: readonly ApiChannelDescription[];
  readonly userCount: number;
  /** User i (0-based). */
  user(index: number): WorldUser;
  /** The user with this id, or undefined. */
  userById(id: string): ApiUser | undefined;
}

const CLAN_BASE = 1860000000000000000n;
const CHANNEL_BASE = 1870000000000000000n;
const USER_BASE = 1880000000000000000n;
const DM_BASE = 1890000000000000000n;
const CREATED = 1_795_000_000;

const userIdOf = (index: number): string => String(USER_BASE + BigInt(index));

function worldUser(index: number): WorldUser {
  return { id: userIdOf(index), username: `user${index}`, displayName: `User ${index}`, avatar: `https://cdn.example/a/${index}.png` };
}

function apiUserOf(user: WorldUser): ApiUser {
  return { id: user.id, username: user.username, display_name: user.displayName, avatar_url: user.avatar, is_bot: false, create_time_seconds: CREATED };
}

const BOT_USER: ApiUser = { id: BENCH_BOT_ID, username: 'benchbot', display_name: 'Bench Bot', avatar_url: '', is_bot: true, create_time_seconds: CREATED };

function channelDescription(id: string, clanId: string, label: string, index: number): ApiChannelDescription {
  return {
    channel_id: id,
    channel_label: label,
    clan_id: clanId,
    type: 1,
    channel_private: 0,
    category_id: String(CHANNEL_BASE - 1n - BigInt(index % 4)),
    category_name: 'Text Channels',
    parent_id: '0',
    meeting_code: '',
    creator_id: BENCH_BOT_ID,
    create_time_seconds: CREATED + index,
    update_time_seconds: CREATED + index,
    topic: '',
    status: 0,
    active: 1,
    app_url: '',
  };
}

function finish(shape: WorldShape, clans: ApiClanDesc[], byClan: Map<string, ApiChannelDescription[]>, userCount: number): BenchWorld {
  const channels: WorldChannel[] = [];
  for (const list of byClan.values()) for (const c of list) channels.push({ id: c.channel_id!, clanId: c.clan_id!, label: c.channel_label! });
  channels.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const dmChannels: ApiChannelDescription[] = [];
  for (let d = 0; d < shape.dmChannels; d++) {
    const peer = userIdOf((d * 7919) % Math.max(1, userCount));
    dmChannels.push({
      channel_id: String(DM_BASE + BigInt(d)),
      channel_label: `user${(d * 7919) % Math.max(1, userCount)}`,
      clan_id: '0',
      type: 3,
      channel_private: 1,
      creator_id: BENCH_BOT_ID,
      create_time_seconds: CREATED + d,
      update_time_seconds: CREATED + d,
      user_ids: [BENCH_BOT_ID, peer],
      status: 0,
      active: 1,
    });
  }
  const user = (index: number) => worldUser(index);
  return {
    shape,
    clans,
    channelsByClan: byClan,
    channels,
    dmChannels,
    userCount,
    user,
    userById: (id) => {
      if (id === BENCH_BOT_ID) return BOT_USER;
      if (!/^\d{19}$/.test(id)) return undefined;
      const index = Number(BigInt(id) - USER_BASE);
      return index >= 0 && index < userCount ? apiUserOf(worldUser(index)) : undefined;
    },
  };
}

/**
 * Channels per clan: at least 2 each; the rest split by weight 1/rank, ranks
 * over a shuffled clan order (so the largest clan is not simply the first).
 */
export function channelsPerClan(clans: number, channels: number, random: () => number): Uint32Array {
  const counts = new Uint32Array(clans);
  const floor = Math.min(2, Math.floor(channels / clans));
  counts.fill(floor);
  const rest = channels - floor * clans;
  const order = permutation(clans, random);
  let harmonic = 0;
  for (let r = 0; r < clans; r++) harmonic += 1 / (r + 1);
  let given = 0;
  for (let r = 0; r < clans; r++) {
    const share = Math.floor((rest / harmonic) * (1 / (r + 1)));
    counts[order[r]!]! += share;
    given += share;
  }
  // What rounding left over goes one each to the largest clans.
  for (let r = 0; given < rest; r = (r + 1) % clans, given++) counts[order[r]!]! += 1;
  return counts;
}

/** The large (or any generated) world, deterministic for a seed. */
export function buildWorld(shape: WorldShape = LARGE_WORLD, seed = 0x3011d): BenchWorld {
  const random = generator(seed);
  const counts = channelsPerClan(shape.clans, shape.channels, random);
  const clans: ApiClanDesc[] = [];
  const byClan = new Map<string, ApiChannelDescription[]>();
  let next = 0;
  for (let i = 0; i < shape.clans; i++) {
    const clanId = String(CLAN_BASE + BigInt(i));
    const list: ApiChannelDescription[] = [];
    for (let k = 0; k < counts[i]!; k++) {
      const index = next++;
      list.push(channelDescription(String(CHANNEL_BASE + BigInt(index)), clanId, k === 0 ? 'welcome' : `channel-${index}`, index));
    }
    clans.push({ clan_id: clanId, clan_name: `Clan ${i}`, welcome_channel_id: list[0]!.channel_id!, creator_id: BENCH_BOT_ID, logo: '', banner: '' });
    byClan.set(clanId, list);
  }
  return finish(shape, clans, byClan, shape.users);
}

/**
 * The world of the original inbound benchmark: one clan, the four channels
 * and forty senders that `buildChannelMessageFrames` uses, no DM channels.
 */
export function smallWorld(): BenchWorld {
  const list = CHANNEL_IDS.map((id, i) => channelDescription(id, BENCH_CLAN_ID, CHANNEL_LABELS[i]!, i));
  const clans: ApiClanDesc[] = [{ clan_id: BENCH_CLAN_ID, clan_name: 'Bench Clan', welcome_channel_id: CHANNEL_IDS[0], creator_id: BENCH_BOT_ID, logo: '', banner: '' }];
  // Senders of the small frames are 1840000000000000100 + 0..39; they are served by userById below.
  const world = finish({ clans: 1, channels: list.length, users: 40, dmChannels: 0 }, clans, new Map([[BENCH_CLAN_ID, list]]), 0);
  return {
    ...world,
    userCount: 40,
    user: (i) => ({ id: String(1840000000000000100n + BigInt(i)), username: `user${i}`, displayName: `User ${i}`, avatar: `https://cdn.example/a/${i}.png` }),
    userById: (id) => {
      if (id === BENCH_BOT_ID) return BOT_USER;
      if (!/^\d{19}$/.test(id)) return undefined;
      const i = Number(BigInt(id) - 1840000000000000100n);
      return i >= 0 && i < 40 ? { id, username: `user${i}`, display_name: `User ${i}`, avatar_url: `https://cdn.example/a/${i}.png`, is_bot: false, create_time_seconds: CREATED } : undefined;
    },
  };
}

/** How channels and senders of generated events are picked. */
export type Distribution = 'zipf' | 'uniform';

/** Picks an index in [0, n): uniformly, or Zipf-like (weight 1/rank^s, ranks shuffled over the indices). */
export function sampler(n: number, distribution: Distribution, random: () => number, exponent = 1): () => number {
  if (distribution === 'uniform') return () => Math.floor(random() * n);
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) {
    sum += 1 / Math.pow(r + 1, exponent);
    cdf[r] = sum;
  }
  const order = permutation(n, random);
  return () => {
    const x = random() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return order[lo]!;
  };
}
