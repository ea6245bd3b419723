import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { EventUser } from '../../events/payloads.js';
import type { ApiChannelDescription } from '../../model/api.js';
import type { World } from '../world/world.js';
import { contentForDialect } from './content-shapes.js';
import type { ServedDialect } from './served-dialects.js';

/**
 * Values as the production wire carries them, per dialect: what a
 * translator or an answer builds a message from. Messages are given as plain
 * initialisers (protobuf-es builds them for the dialect's schema, which
 * ignores a field it does not declare), so one initialiser serves every era
 * where the field names agree; the helpers here hide where they do not.
 */

/** A message initialiser for whichever dialect's schema it is built with. */
export type Init = Record<string, unknown>;

/** An emoji id as production's int64 carries it: the world keeps a unicode emoji as its own id, which goes as 0 (no custom emoji). */
export const emojiIdOnWire = (id: string | undefined): string => (id !== undefined && /^\d{1,19}$/.test(id) ? id : '0');

/** A time as era A's Timestamp. */
export const timestamp = (seconds: number): Timestamp => timestampFromMs(seconds * 1000);

/** JSON text as the dialect carries a message part or a notification's content: text (era A) or its UTF-8 bytes (later). */
export function jsonPart(dialect: ServedDialect, json: string): string | Uint8Array {
  return dialect.partsAsBytes ? new TextEncoder().encode(json) : json;
}

/** A message's content as the dialect's clients read it: JSON text, hashtags spelled their way. */
export function contentText(dialect: ServedDialect, content: unknown): string {
  return JSON.stringify(contentForDialect(content, dialect));
}

/** A user profile as events carry it. */
export function profile(world: World, user: EventUser): Init {
  return {
    userId: user.user_id,
    username: user.username,
    avatar: user.avatar,
    displayName: user.display_name,
    isBot: world.users.get(user.user_id)?.is_bot ?? false,
  };
}

export function profileOf(world: World, userId: string): Init {
  const user = world.users.get(userId);
  return profile(world, { user_id: userId, username: user?.username ?? '', avatar: user?.avatar ?? '', display_name: user?.display_name ?? '' });
}

/** A channel as events and RPC answers describe it. */
export function channelDescription(world: World, channel: ApiChannelDescription & { usernames?: string[] }): Init {
  return {
    clanId: channel.clan_id ?? '',
    parentId: channel.parent_id ?? '',
    channelId: channel.channel_id ?? '',
    categoryId: channel.category_id ?? '',
    categoryName: channel.category_name ?? '',
    type: channel.type ?? 0,
    creatorId: channel.creator_id ?? '',
    channelLabel: channel.channel_label ?? '',
    channelPrivate: channel.channel_private ?? 0,
    userIds: channel.user_ids ?? [],
    usernames: channel.usernames ?? [],
    meetingCode: channel.meeting_code ?? '',
    active: channel.active ?? 1,
    createTimeSeconds: channel.create_time_seconds ?? 0,
    updateTimeSeconds: channel.update_time_seconds ?? 0,
    clanName: world.clans.get(channel.clan_id ?? '')?.name ?? '',
    topic: channel.topic ?? '',
  };
}

/**
 * An id a request leaves unset: empty text (era A) or 0 (an int64 of a later
 * era, which reads as "0"). Gives the id, or undefined when it is unset.
 */
export function givenId(id: string): string | undefined {
  return id === '' || id === '0' ? undefined : id;
}

/** Encodes an initialiser with a schema (an RPC answer, a Session): protobuf-es builds the message, ignoring what the schema does not declare. */
export function encodeInit(schema: DescMessage, init: Init): Uint8Array {
  return toBinary(schema, create(schema, init as MessageInitShape<DescMessage>));
}
