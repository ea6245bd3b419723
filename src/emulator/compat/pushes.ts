import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Events, isEventName } from '../../events/names.js';
import type { EventPayloadMap, EventUser } from '../../events/payloads.js';
import type { ApiChannelDescription } from '../../model/api.js';
import type { World } from '../world/world.js';
import {
  AddClanUserEventSchema,
  ChannelCreatedEventSchema,
  ChannelDeletedEventSchema,
  ChannelDescriptionSchema,
  ChannelMessageSchema,
  ChannelMessageSendSchema,
  ChannelUpdatedEventSchema,
  CreateEventRequestSchema,
  DropdownBoxSelectedSchema,
  GiveCoffeeEventSchema,
  MessageButtonClickedSchema,
  MessageReactionSchema,
  MessageTypingEventSchema,
  NotificationSchema,
  NotificationsSchema,
  QuickMenuDataEventSchema,
  RoleAssignedEventSchema,
  RoleEventSchema,
  RoleSchema,
  StreamingJoinedEventSchema,
  StreamingLeavedEventSchema,
  TokenSentEventSchema,
  UserChannelAddedSchema,
  UserChannelRemovedSchema,
  UserClanRemovedSchema,
  UserProfileRedisSchema,
  VoiceEndedEventSchema,
  VoiceJoinedEventSchema,
  VoiceLeavedEventSchema,
  VoiceStartedEventSchema,
  WebrtcSignalingFwdSchema,
  type ChannelDescription,
  type Envelope,
  type UserProfileRedis,
} from '../../production/schema/sdk-2.8.33_pb.js';

/** What an envelope carries besides its `cid`: one request, answer or push. */
export type EnvelopeMessage = Exclude<Envelope['message'], { case: undefined }>;

const seconds = (value: number) => timestampFromMs(value * 1000);

function profile(world: World, user: EventUser): UserProfileRedis {
  return create(UserProfileRedisSchema, {
    userId: user.user_id,
    username: user.username,
    avatar: user.avatar,
    displayName: user.display_name,
    isBot: world.users.get(user.user_id)?.is_bot ?? false,
  });
}

function profileOf(world: World, userId: string): UserProfileRedis {
  const user = world.users.get(userId);
  return profile(world, { user_id: userId, username: user?.username ?? '', avatar: user?.avatar ?? '', display_name: user?.display_name ?? '' });
}

/** A channel as the production socket describes it. */
export function channelDescription(world: World, channel: ApiChannelDescription): ChannelDescription {
  return create(ChannelDescriptionSchema, {
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
    meetingCode: channel.meeting_code ?? '',
    active: channel.active ?? 1,
    createTimeSeconds: channel.create_time_seconds ?? 0,
    updateTimeSeconds: channel.update_time_seconds ?? 0,
    clanName: world.clans.get(channel.clan_id ?? '')?.name ?? '',
    topic: channel.topic ?? '',
  });
}

type Translators = { [K in Events]: (payload: EventPayloadMap[K], world: World) => EnvelopeMessage };

/**
 * One translation per event: the world's payload (clanstream's field names, JSON
 * types) to the production message. Message parts travel as JSON text and
 * times as both seconds and timestamps, as production sends them.
 */
const TRANSLATORS: Translators = {
  [Events.ChannelMessage]: (m, world) => ({
    case: 'channelMessage',
    value: create(ChannelMessageSchema, {
      clanId: m.clan_id,
      channelId: m.channel_id,
      messageId: m.message_id,
      code: m.code,
      senderId: m.sender_id,
      username: m.username,
      avatar: m.avatar,
      content: JSON.stringify(m.content),
      createTime: seconds(m.create_time_seconds),
      updateTime: seconds(m.update_time_seconds),
      channelLabel: m.channel_label,
      clanLogo: world.clans.get(m.clan_id)?.logo ?? '',
      categoryName: m.category_name,
      displayName: m.display_name,
      clanNick: m.clan_nick,
      clanAvatar: m.clan_avatar,
      reactions: JSON.stringify(m.reactions),
      mentions: JSON.stringify(m.mentions),
      attachments: JSON.stringify(m.attachments),
      references: JSON.stringify(m.references),
      createTimeSeconds: m.create_time_seconds,
      updateTimeSeconds: m.update_time_seconds,
      mode: m.mode,
      isPublic: m.is_public,
      topicId: m.topic_id,
    }),
  }),
  [Events.MessageReaction]: (r) => ({
    case: 'messageReactionEvent',
    value: create(MessageReactionSchema, {
      id: r.id,
      emojiId: r.emoji_id,
      emoji: r.emoji,
      senderId: r.sender_id,
      senderName: r.sender_name,
      action: r.action,
      count: r.count,
      channelId: r.channel_id,
      messageId: r.message_id,
      clanId: r.clan_id,
      mode: r.mode,
      messageSenderId: r.message_sender_id,
      isPublic: r.is_public,
      topicId: r.topic_id,
    }),
  }),
  [Events.MessageButtonClicked]: (c) => ({
    case: 'messageButtonClicked',
    value: create(MessageButtonClickedSchema, {
      messageId: c.message_id,
      channelId: c.channel_id,
      buttonId: c.button_id,
      senderId: c.sender_id,
      userId: c.user_id,
      extraData: c.extra_data,
    }),
  }),
  [Events.DropdownBoxSelected]: (s) => ({
    case: 'dropdownBoxSelected',
    value: create(DropdownBoxSelectedSchema, {
      messageId: s.message_id,
      channelId: s.channel_id,
      selectboxId: s.selectbox_id,
      senderId: s.sender_id,
      userId: s.user_id,
      values: s.values,
    }),
  }),
  [Events.ChannelCreated]: (c, world) => ({
    case: 'channelCreatedEvent',
    value: create(ChannelCreatedEventSchema, {
      clanId: c.clan_id,
      categoryId: c.category_id,
      creatorId: c.creator_id,
      parentId: c.parent_id,
      channelId: c.channel_id,
      channelLabel: c.channel_label,
      channelPrivate: c.channel_private,
      channelType: c.channel_type,
      status: c.status,
      clanName: world.clans.get(c.clan_id)?.name ?? '',
    }),
  }),
  [Events.ChannelUpdated]: (c) => ({
    case: 'channelUpdatedEvent',
    value: create(ChannelUpdatedEventSchema, {
      clanId: c.clan_id,
      categoryId: c.category_id,
      creatorId: c.creator_id,
      parentId: c.parent_id,
      channelId: c.channel_id,
      channelLabel: c.channel_label,
      channelType: c.channel_type,
      status: c.status,
      meetingCode: c.meeting_code,
      channelPrivate: c.channel_private === 1,
      topic: c.topic,
      active: c.active,
    }),
  }),
  [Events.ChannelDeleted]: (c) => ({
    case: 'channelDeletedEvent',
    value: create(ChannelDeletedEventSchema, {
      clanId: c.clan_id,
      categoryId: c.category_id,
      parentId: c.parent_id,
      channelId: c.channel_id,
      deletor: c.deletor,
    }),
  }),
  [Events.AddClanUser]: (a, world) => ({
    case: 'addClanUserEvent',
    value: create(AddClanUserEventSchema, { clanId: a.clan_id, user: profile(world, a.user), invitor: a.invitor }),
  }),
  [Events.UserClanRemoved]: (r) => ({
    case: 'userClanRemovedEvent',
    value: create(UserClanRemovedSchema, { clanId: r.clan_id, userIds: r.user_ids }),
  }),
  [Events.UserChannelAdded]: (a, world) => ({
    case: 'userChannelAddedEvent',
    value: create(UserChannelAddedSchema, {
      channelDesc: channelDescription(world, a.channel_desc),
      users: a.users.map((u) => profile(world, u)),
      status: String(a.status),
      clanId: a.clan_id,
      ...(a.caller ? { caller: profileOf(world, a.caller) } : {}),
      createTimeSecond: a.channel_desc.update_time_seconds ?? 0,
      active: a.channel_desc.active ?? 1,
    }),
  }),
  [Events.UserChannelRemoved]: (r) => ({
    case: 'userChannelRemovedEvent',
    value: create(UserChannelRemovedSchema, { channelId: r.channel_id, userIds: r.user_ids, channelType: r.channel_type, clanId: r.clan_id }),
  }),
  [Events.RoleEvent]: (r) => ({
    case: 'roleEvent',
    value: create(RoleEventSchema, {
      role: create(RoleSchema, {
        id: r.role.id,
        title: r.role.title,
        color: r.role.color,
        roleIcon: r.role.role_icon,
        description: r.role.description,
        creatorId: r.role.creator_id,
        clanId: r.role.clan_id,
        active: r.role.active,
      }),
      status: r.status,
      userId: r.user_id,
      userAddIds: r.user_add_ids,
      userRemoveIds: r.user_remove_ids,
    }),
  }),
  [Events.RoleAssign]: (r) => ({
    case: 'roleAssignEvent',
    value: create(RoleAssignedEventSchema, { ClanId: r.clan_id, roleId: r.role_id, userIdsAssigned: r.user_ids_assigned, userIdsRemoved: r.user_ids_removed }),
  }),
  [Events.VoiceStartedEvent]: (v) => ({
    case: 'voiceStartedEvent',
    value: create(VoiceStartedEventSchema, { id: v.id, clanId: v.clan_id, voiceChannelId: v.voice_channel_id }),
  }),
  [Events.VoiceEndedEvent]: (v) => ({
    case: 'voiceEndedEvent',
    value: create(VoiceEndedEventSchema, { id: v.id, clanId: v.clan_id, voiceChannelId: v.voice_channel_id }),
  }),
  [Events.VoiceJoinedEvent]: (v) => ({
    case: 'voiceJoinedEvent',
    value: create(VoiceJoinedEventSchema, {
      id: v.id,
      clanId: v.clan_id,
      clanName: v.clan_name,
      participant: v.participant,
      userId: v.user_id,
      voiceChannelLabel: v.voice_channel_label,
      voiceChannelId: v.voice_channel_id,
    }),
  }),
  [Events.VoiceLeavedEvent]: (v) => ({
    case: 'voiceLeavedEvent',
    value: create(VoiceLeavedEventSchema, { id: v.id, clanId: v.clan_id, voiceChannelId: v.voice_channel_id, voiceUserId: v.voice_user_id }),
  }),
  [Events.StreamingJoinedEvent]: (s) => ({
    case: 'streamingJoinedEvent',
    value: create(StreamingJoinedEventSchema, {
      id: s.id,
      clanId: s.clan_id,
      clanName: s.clan_name,
      participant: s.participant,
      userId: s.user_id,
      streamingChannelLabel: s.streaming_channel_label,
      streamingChannelId: s.streaming_channel_id,
    }),
  }),
  [Events.StreamingLeavedEvent]: (s) => ({
    case: 'streamingLeavedEvent',
    value: create(StreamingLeavedEventSchema, { id: s.id, clanId: s.clan_id, streamingChannelId: s.streaming_channel_id, streamingUserId: s.streaming_user_id }),
  }),
  [Events.WebrtcSignalingFwd]: (w) => ({
    case: 'webrtcSignalingFwd',
    value: create(WebrtcSignalingFwdSchema, { receiverId: w.receiver_id, dataType: w.data_type, jsonData: w.json_data, channelId: w.channel_id, callerId: w.caller_id }),
  }),
  [Events.TokenSend]: (t) => ({
    case: 'tokenSentEvent',
    value: create(TokenSentEventSchema, {
      senderId: t.sender_id ?? '',
      senderName: t.sender_name ?? '',
      receiverId: t.receiver_id,
      // Production carries whole tokens in an int32; the ledger's fraction, if any, stays in the world.
      amount: Math.trunc(t.amount),
      note: t.note ?? '',
      extraAttribute: t.extra_attribute ?? '',
      transactionId: t.transaction_id ?? '',
    }),
  }),
  [Events.GiveCoffee]: (g) => ({
    case: 'giveCoffeeEvent',
    value: create(GiveCoffeeEventSchema, {
      senderId: g.sender_id,
      receiverId: g.receiver_id,
      tokenCount: g.token_count,
      messageRefId: g.message_ref_id,
      channelId: g.channel_id,
      clanId: g.clan_id,
    }),
  }),
  [Events.ClanEventCreated]: (e) => ({
    case: 'clanEventCreated',
    value: create(CreateEventRequestSchema, {
      title: e.title,
      logo: e.logo,
      description: e.description,
      clanId: e.clan_id,
      channelVoiceId: e.channel_voice_id,
      address: e.address,
      startTime: seconds(e.start_time_seconds),
      endTime: seconds(e.end_time_seconds),
      eventId: e.event_id,
      eventStatus: e.event_status,
      channelId: e.channel_id,
      action: e.action,
      repeatType: e.repeat_type,
      creatorId: e.creator_id,
      userId: e.user_id,
      isPrivate: e.is_private,
    }),
  }),
  [Events.Notifications]: (n) => ({
    case: 'notifications',
    value: create(NotificationsSchema, {
      notifications: n.notifications.map((item) =>
        create(NotificationSchema, {
          id: item.id,
          subject: item.subject,
          content: item.content,
          code: item.code,
          senderId: item.sender_id,
          createTime: seconds(item.create_time_seconds),
          persistent: item.persistent,
          clanId: item.clan_id,
          channelId: item.channel_id,
          channelType: item.channel_type,
          topicId: item.topic_id,
          category: item.category,
        }),
      ),
    }),
  }),
  [Events.QuickMenu]: (q) => ({
    case: 'quickMenuEvent',
    value: create(QuickMenuDataEventSchema, {
      menuName: q.menu_name,
      message: create(ChannelMessageSendSchema, {
        clanId: q.message.clan_id,
        channelId: q.message.channel_id,
        content: JSON.stringify(q.message.content),
        mode: q.message.mode,
        isPublic: q.message.is_public,
        code: q.message.code,
        topicId: q.message.topic_id,
      }),
    }),
  }),
  [Events.MessageTyping]: (t) => ({
    case: 'messageTypingEvent',
    value: create(MessageTypingEventSchema, {
      clanId: t.clan_id,
      channelId: t.channel_id,
      senderId: t.sender_id,
      mode: t.mode,
      isPublic: t.is_public,
      senderUsername: t.sender_username,
      senderDisplayName: t.sender_display_name,
      topicId: t.topic_id,
    }),
  }),
};

/**
 * The production message for one gateway push frame
 * (`{"seq":…,"session_id":…,"<event>":<payload>}`, as the hub writes it), or
 * undefined for a frame that is not an event push.
 */
export function pushMessage(frame: string, world: World): EnvelopeMessage | undefined {
  const parsed = JSON.parse(frame) as Record<string, unknown>;
  const type = Object.keys(parsed).find((key) => key !== 'seq' && key !== 'session_id');
  if (type === undefined || !isEventName(type)) return undefined;
  return translate(type, parsed[type] as EventPayloadMap[typeof type], world);
}

/** The production message carrying one event. */
export function translate<K extends Events>(type: K, payload: EventPayloadMap[K], world: World): EnvelopeMessage {
  return TRANSLATORS[type](payload, world);
}
