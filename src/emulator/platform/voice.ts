import { Events } from '../../events/names.js';
import { ChannelType } from '../../model/enums.js';
import { EmulatorError } from '../errors.js';
import type { ChannelRecord, PresenceRecord } from '../world/records.js';
import type { PlatformContext } from './context.js';

function roomOf(ctx: PlatformContext, channelId: string, userId: string, streaming: boolean): ChannelRecord {
  const channel = ctx.world.accessibleChannel(channelId, userId);
  const ok = streaming
    ? channel.type === ChannelType.CHANNEL_TYPE_STREAMING
    : channel.type === ChannelType.CHANNEL_TYPE_GMEET_VOICE || channel.type === ChannelType.CHANNEL_TYPE_SERVICE_VOICE;
  if (!ok) throw EmulatorError.badRequest(`channel ${channelId} is not a ${streaming ? 'streaming' : 'voice'} channel`);
  return channel;
}

function presenceMap(ctx: PlatformContext, channelId: string, streaming: boolean): Map<string, PresenceRecord> {
  const rooms = streaming ? ctx.world.streaming : ctx.world.voice;
  let map = rooms.get(channelId);
  if (!map) rooms.set(channelId, (map = new Map<string, PresenceRecord>()));
  return map;
}

/** A user joins a voice room: `voice_joined_event`. Joining twice changes nothing. */
export function joinVoice(ctx: PlatformContext, userId: string, channelId: string): PresenceRecord {
  const channel = roomOf(ctx, channelId, userId, false);
  const user = ctx.world.user(userId);
  const map = presenceMap(ctx, channelId, false);
  const existing = map.get(userId);
  if (existing) return existing;
  const presence: PresenceRecord = { id: ctx.ids.id(), user_id: userId, channel_id: channelId, participant: user.display_name };
  map.set(userId, presence);
  ctx.hub.emit(
    Events.VoiceJoinedEvent,
    {
      id: presence.id,
      clan_id: channel.clan_id,
      clan_name: ctx.world.clans.get(channel.clan_id)?.name ?? '',
      participant: presence.participant,
      user_id: userId,
      voice_channel_label: channel.channel_label,
      voice_channel_id: channelId,
    },
    { channel },
  );
  return presence;
}

/** A user leaves a voice room: `voice_leaved_event`. */
export function leaveVoice(ctx: PlatformContext, userId: string, channelId: string): boolean {
  const channel = roomOf(ctx, channelId, userId, false);
  const map = presenceMap(ctx, channelId, false);
  const presence = map.get(userId);
  if (!presence) return false;
  map.delete(userId);
  ctx.hub.emit(Events.VoiceLeavedEvent, { id: presence.id, clan_id: channel.clan_id, voice_channel_id: channelId, voice_user_id: userId }, { channel });
  return true;
}

/** A user joins a streaming room: `streaming_joined_event`. */
export function joinStream(ctx: PlatformContext, userId: string, channelId: string): PresenceRecord {
  const channel = roomOf(ctx, channelId, userId, true);
  const user = ctx.world.user(userId);
  const map = presenceMap(ctx, channelId, true);
  const existing = map.get(userId);
  if (existing) return existing;
  const presence: PresenceRecord = { id: ctx.ids.id(), user_id: userId, channel_id: channelId, participant: user.display_name };
  map.set(userId, presence);
  ctx.hub.emit(
    Events.StreamingJoinedEvent,
    {
      id: presence.id,
      clan_id: channel.clan_id,
      clan_name: ctx.world.clans.get(channel.clan_id)?.name ?? '',
      participant: presence.participant,
      user_id: userId,
      streaming_channel_label: channel.channel_label,
      streaming_channel_id: channelId,
    },
    { channel },
  );
  return presence;
}

/** A user leaves a streaming room: `streaming_leaved_event`. */
export function leaveStream(ctx: PlatformContext, userId: string, channelId: string): boolean {
  const channel = roomOf(ctx, channelId, userId, true);
  const map = presenceMap(ctx, channelId, true);
  const presence = map.get(userId);
  if (!presence) return false;
  map.delete(userId);
  ctx.hub.emit(
    Events.StreamingLeavedEvent,
    { id: presence.id, clan_id: channel.clan_id, streaming_channel_id: channelId, streaming_user_id: userId },
    { channel },
  );
  return true;
}

/** A voice session starts in a room: `voice_started_event`. */
export function startVoice(ctx: PlatformContext, channelId: string): string {
  const channel = ctx.world.channel(channelId);
  if (channel.type !== ChannelType.CHANNEL_TYPE_GMEET_VOICE && channel.type !== ChannelType.CHANNEL_TYPE_SERVICE_VOICE) {
    throw EmulatorError.badRequest(`channel ${channelId} is not a voice channel`);
  }
  const id = ctx.world.voiceSessions.get(channelId) ?? ctx.ids.id();
  ctx.world.voiceSessions.set(channelId, id);
  ctx.hub.emit(Events.VoiceStartedEvent, { id, clan_id: channel.clan_id, voice_channel_id: channelId }, { channel });
  return id;
}

/** The voice session of a room ends: `voice_ended_event`. */
export function endVoice(ctx: PlatformContext, channelId: string): string {
  const channel = ctx.world.channel(channelId);
  const id = ctx.world.voiceSessions.get(channelId);
  if (!id) throw EmulatorError.badRequest(`no voice session is running in channel ${channelId}`);
  ctx.world.voiceSessions.delete(channelId);
  ctx.hub.emit(Events.VoiceEndedEvent, { id, clan_id: channel.clan_id, voice_channel_id: channelId }, { channel });
  return id;
}
