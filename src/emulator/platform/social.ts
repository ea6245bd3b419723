import { Events } from '../../events/names.js';
import type { CreateEventRequest, GiveCoffeeEvent, Notification, WebrtcSignalingFwd } from '../../events/payloads.js';
import { EmulatorError } from '../errors.js';
import { nowSeconds, type PlatformContext } from './context.js';
import { findVisibleMessage } from './interactions.js';

/** Sends (or completes) a friend request by username. */
export function addFriend(ctx: PlatformContext, userId: string, otherId: string): 'invite_sent' | 'accepted' {
  if (userId === otherId) throw EmulatorError.badRequest('cannot befriend yourself');
  const theirs = ctx.world.friendship(otherId, userId)?.state;
  const mine = ctx.world.friendship(userId, otherId)?.state;
  if (theirs === 'blocked') throw EmulatorError.forbidden('this user does not accept requests');
  if (mine === 'accepted') return 'accepted';
  if (mine === 'invite_received') return acceptFriend(ctx, userId, otherId);
  ctx.world.setFriendship(userId, otherId, 'invite_sent');
  ctx.world.setFriendship(otherId, userId, 'invite_received');
  return 'invite_sent';
}

/** Accepts a pending friend request. */
export function acceptFriend(ctx: PlatformContext, userId: string, otherId: string): 'accepted' {
  const mine = ctx.world.friendship(userId, otherId)?.state;
  if (mine === 'accepted') return 'accepted';
  if (mine !== 'invite_received') throw EmulatorError.badRequest('there is no friend request from this user to accept');
  ctx.world.setFriendship(userId, otherId, 'accepted');
  ctx.world.setFriendship(otherId, userId, 'accepted');
  return 'accepted';
}

/** Gives a coffee for a message: `give_coffee_event` to giver and receiver. */
export function giveCoffee(ctx: PlatformContext, senderId: string, receiverId: string, messageId: string): GiveCoffeeEvent {
  ctx.world.user(senderId);
  ctx.world.user(receiverId);
  const found = findVisibleMessage(ctx, senderId, messageId);
  const event: GiveCoffeeEvent = {
    sender_id: senderId,
    receiver_id: receiverId,
    token_count: 1,
    message_ref_id: messageId,
    channel_id: found.channel_id,
    clan_id: found.clan_id,
  };
  ctx.hub.emit(Events.GiveCoffee, event, { users: [senderId, receiverId] });
  return event;
}

/** Sends a notification to a user: `notifications`. */
export function notify(ctx: PlatformContext, userId: string, input: Partial<Omit<Notification, 'id'>> & { subject: string }): Notification {
  ctx.world.user(userId);
  const notification: Notification = {
    id: ctx.ids.id(),
    subject: input.subject,
    content: input.content ?? '',
    code: input.code ?? 0,
    sender_id: input.sender_id ?? '',
    create_time_seconds: input.create_time_seconds ?? nowSeconds(),
    persistent: input.persistent ?? true,
    clan_id: input.clan_id ?? '',
    channel_id: input.channel_id ?? '',
    channel_type: input.channel_type ?? (input.channel_id ? (ctx.world.channels.get(input.channel_id)?.type ?? 0) : 0),
    topic_id: input.topic_id ?? '',
    category: input.category ?? 0,
  };
  ctx.hub.emit(Events.Notifications, { notifications: [notification] }, { users: [userId] });
  return notification;
}

/** Creates a clan event: `clan_event_created` to the clan. */
export function createClanEvent(ctx: PlatformContext, clanId: string, input: Partial<Omit<CreateEventRequest, 'event_id' | 'clan_id'>> & { title: string }): CreateEventRequest {
  ctx.world.clan(clanId);
  const now = nowSeconds();
  const event: CreateEventRequest = {
    event_id: ctx.ids.id(),
    title: input.title,
    description: input.description ?? '',
    logo: input.logo ?? '',
    clan_id: clanId,
    channel_id: input.channel_id ?? '',
    channel_voice_id: input.channel_voice_id ?? '',
    address: input.address ?? '',
    start_time_seconds: input.start_time_seconds ?? now + 3600,
    end_time_seconds: input.end_time_seconds ?? now + 7200,
    event_status: input.event_status ?? 0,
    action: input.action ?? 0,
    repeat_type: input.repeat_type ?? 0,
    creator_id: input.creator_id ?? '',
    user_id: input.user_id ?? input.creator_id ?? '',
    is_private: input.is_private ?? false,
  };
  ctx.hub.emit(Events.ClanEventCreated, event, { clanId });
  return event;
}

/** Forwards a WebRTC signal to its receiver: `webrtc_signaling_fwd`. */
export function forwardSignal(ctx: PlatformContext, input: WebrtcSignalingFwd): WebrtcSignalingFwd {
  ctx.world.user(input.caller_id);
  ctx.world.user(input.receiver_id);
  const event = { ...input };
  ctx.hub.emit(Events.WebrtcSignalingFwd, event, { users: [input.receiver_id] });
  return event;
}
