import { Events, isEventName } from '../../events/names.js';
import type { ChannelMessage, EventPayloadMap } from '../../events/payloads.js';
import type { World } from '../world/world.js';
import { notificationContent } from './notification-content.js';
import { messagePartsInit } from './part-lists.js';
import type { ServedDialect } from './served-dialects.js';
import { channelDescription, contentText, emojiIdOnWire, jsonPart, profile, profileOf, timestamp, type Init } from './wire-values.js';

/** What an envelope carries besides its `cid`: one request, answer or push, as an initialiser for the dialect's schema. */
export interface EnvelopeMessage {
  /** The Envelope's oneof case (`channelMessage`, `pong`, …). */
  readonly case: string;
  readonly value: Init;
}

type Translators = { [K in Events]: (payload: EventPayloadMap[K], world: World, dialect: ServedDialect) => EnvelopeMessage };

/** A channel message as production pushes it: parts as JSON text (era A) or protobuf lists (later), times as the era has them. */
export function channelMessageInit(m: ChannelMessage, world: World, dialect: ServedDialect): Init {
  return {
    clanId: m.clan_id,
    channelId: m.channel_id,
    messageId: m.message_id,
    code: m.code,
    senderId: m.sender_id,
    username: m.username,
    avatar: m.avatar,
    content: contentText(dialect, m.content),
    channelLabel: m.channel_label,
    clanLogo: world.clans.get(m.clan_id)?.logo ?? '',
    categoryName: m.category_name,
    displayName: m.display_name,
    clanNick: m.clan_nick,
    clanAvatar: m.clan_avatar,
    ...messagePartsInit(m, dialect),
    // Era A also has Timestamps; later schemas do not declare them, so they are left out there.
    createTime: timestamp(m.create_time_seconds),
    updateTime: timestamp(m.update_time_seconds),
    createTimeSeconds: m.create_time_seconds,
    updateTimeSeconds: m.update_time_seconds,
    mode: m.mode,
    isPublic: m.is_public,
    topicId: m.topic_id,
  };
}

/**
 * One translation per event: the world's payload (clanstream's field names,
 * JSON types) to the production message, for every dialect at once where the
 * field names agree (a schema ignores what it does not declare), per dialect
 * where they do not.
 */
const TRANSLATORS: Translators = {
  [Events.ChannelMessage]: (m, world, dialect) => ({ case: 'channelMessage', value: channelMessageInit(m, world, dialect) }),
  [Events.MessageReaction]: (r) => ({
    case: 'messageReactionEvent',
    value: {
      id: r.id,
      emojiId: emojiIdOnWire(r.emoji_id),
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
    },
  }),
  [Events.MessageButtonClicked]: (c) => ({
    case: 'messageButtonClicked',
    value: { messageId: c.message_id, channelId: c.channel_id, buttonId: c.button_id, senderId: c.sender_id, userId: c.user_id, extraData: c.extra_data },
  }),
  [Events.DropdownBoxSelected]: (s) => ({
    case: 'dropdownBoxSelected',
    value: { messageId: s.message_id, channelId: s.channel_id, selectboxId: s.selectbox_id, senderId: s.sender_id, userId: s.user_id, values: s.values },
  }),
  [Events.ChannelCreated]: (c, world) => ({
    case: 'channelCreatedEvent',
    value: {
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
    },
  }),
  [Events.ChannelUpdated]: (c) => ({
    case: 'channelUpdatedEvent',
    value: {
      clanId: c.clan_id,
      categoryId: c.category_id,
      creatorId: c.creator_id,
      parentId: c.parent_id,
      channelId: c.channel_id,
      channelLabel: c.channel_label,
      channelType: c.channel_type,
      status: c.status,
      meetingCode: c.meeting_code,
      // A boolean here, an integer in channel_created_event: as in production.
      channelPrivate: c.channel_private === 1,
      topic: c.topic,
      active: c.active,
    },
  }),
  [Events.ChannelDeleted]: (c) => ({
    case: 'channelDeletedEvent',
    value: { clanId: c.clan_id, categoryId: c.category_id, parentId: c.parent_id, channelId: c.channel_id, deletor: c.deletor },
  }),
  [Events.AddClanUser]: (a, world) => ({
    case: 'addClanUserEvent',
    value: { clanId: a.clan_id, user: profile(world, a.user), invitor: a.invitor },
  }),
  [Events.UserClanRemoved]: (r) => ({ case: 'userClanRemovedEvent', value: { clanId: r.clan_id, userIds: r.user_ids } }),
  [Events.UserChannelAdded]: (a, world) => {
    const created = a.channel_desc.update_time_seconds ?? 0;
    return {
      case: 'userChannelAddedEvent',
      value: {
        channelDesc: channelDescription(world, a.channel_desc),
        users: a.users.map((u) => profile(world, u)),
        status: String(a.status),
        clanId: a.clan_id,
        ...(a.caller ? { caller: profileOf(world, a.caller) } : {}),
        // Spelled without the final s in era A.
        createTimeSecond: created,
        createTimeSeconds: created,
        active: a.channel_desc.active ?? 1,
      },
    };
  },
  [Events.UserChannelRemoved]: (r) => ({
    case: 'userChannelRemovedEvent',
    value: { channelId: r.channel_id, userIds: r.user_ids, channelType: r.channel_type, clanId: r.clan_id },
  }),
  [Events.RoleEvent]: (r) => ({
    case: 'roleEvent',
    value: {
      role: {
        id: r.role.id,
        title: r.role.title,
        color: r.role.color,
        roleIcon: r.role.role_icon,
        description: r.role.description,
        creatorId: r.role.creator_id,
        clanId: r.role.clan_id,
        active: r.role.active,
      },
      status: r.status,
      userId: r.user_id,
      userAddIds: r.user_add_ids,
      userRemoveIds: r.user_remove_ids,
    },
  }),
  [Events.RoleAssign]: (r) => ({
    case: 'roleAssignEvent',
    value: { ClanId: r.clan_id, roleId: r.role_id, userIdsAssigned: r.user_ids_assigned, userIdsRemoved: r.user_ids_removed },
  }),
  [Events.VoiceStartedEvent]: (v) => ({ case: 'voiceStartedEvent', value: { id: v.id, clanId: v.clan_id, voiceChannelId: v.voice_channel_id } }),
  [Events.VoiceEndedEvent]: (v) => ({ case: 'voiceEndedEvent', value: { id: v.id, clanId: v.clan_id, voiceChannelId: v.voice_channel_id } }),
  [Events.VoiceJoinedEvent]: (v) => ({
    case: 'voiceJoinedEvent',
    value: {
      id: v.id,
      clanId: v.clan_id,
      clanName: v.clan_name,
      participant: v.participant,
      userId: v.user_id,
      voiceChannelLabel: v.voice_channel_label,
      voiceChannelId: v.voice_channel_id,
    },
  }),
  [Events.VoiceLeavedEvent]: (v) => ({
    case: 'voiceLeavedEvent',
    value: { id: v.id, clanId: v.clan_id, voiceChannelId: v.voice_channel_id, voiceUserId: v.voice_user_id },
  }),
  [Events.StreamingJoinedEvent]: (s) => ({
    case: 'streamingJoinedEvent',
    value: {
      id: s.id,
      clanId: s.clan_id,
      clanName: s.clan_name,
      participant: s.participant,
      userId: s.user_id,
      streamingChannelLabel: s.streaming_channel_label,
      streamingChannelId: s.streaming_channel_id,
    },
  }),
  [Events.StreamingLeavedEvent]: (s) => ({
    case: 'streamingLeavedEvent',
    value: { id: s.id, clanId: s.clan_id, streamingChannelId: s.streaming_channel_id, streamingUserId: s.streaming_user_id },
  }),
  [Events.WebrtcSignalingFwd]: (w) => ({
    case: 'webrtcSignalingFwd',
    value: { receiverId: w.receiver_id, dataType: w.data_type, jsonData: w.json_data, channelId: w.channel_id, callerId: w.caller_id },
  }),
  [Events.TokenSend]: (t) => ({
    case: 'tokenSentEvent',
    value: {
      senderId: t.sender_id ?? '',
      senderName: t.sender_name ?? '',
      receiverId: t.receiver_id,
      // Production carries whole tokens in an int32; the ledger's fraction, if any, stays in the world.
      amount: Math.trunc(t.amount),
      note: t.note ?? '',
      extraAttribute: t.extra_attribute ?? '',
      transactionId: t.transaction_id ?? '',
    },
  }),
  [Events.GiveCoffee]: (g) => ({
    case: 'giveCoffeeEvent',
    value: { senderId: g.sender_id, receiverId: g.receiver_id, tokenCount: g.token_count, messageRefId: g.message_ref_id, channelId: g.channel_id, clanId: g.clan_id },
  }),
  [Events.ClanEventCreated]: (e) => ({
    case: 'clanEventCreated',
    value: {
      title: e.title,
      logo: e.logo,
      description: e.description,
      clanId: e.clan_id,
      channelVoiceId: e.channel_voice_id,
      address: e.address,
      // Timestamps in era A, seconds later.
      startTime: timestamp(e.start_time_seconds),
      endTime: timestamp(e.end_time_seconds),
      startTimeSeconds: e.start_time_seconds,
      endTimeSeconds: e.end_time_seconds,
      eventId: e.event_id,
      eventStatus: e.event_status,
      channelId: e.channel_id,
      action: e.action,
      repeatType: e.repeat_type,
      creatorId: e.creator_id,
      userId: e.user_id,
      isPrivate: e.is_private,
    },
  }),
  [Events.Notifications]: (n, _world, dialect) => ({
    case: 'notifications',
    value: {
      notifications: n.notifications.map((item) => ({
        id: item.id,
        subject: item.subject,
        content: jsonPart(dialect, notificationContent(item.content)),
        code: item.code,
        senderId: item.sender_id,
        createTime: timestamp(item.create_time_seconds),
        createTimeSeconds: item.create_time_seconds,
        persistent: item.persistent,
        clanId: item.clan_id,
        channelId: item.channel_id,
        channelType: item.channel_type,
        topicId: item.topic_id,
        category: item.category,
      })),
    },
  }),
  [Events.QuickMenu]: (q, _world, dialect) => ({
    case: 'quickMenuEvent',
    value: {
      menuName: q.menu_name,
      message: {
        clanId: q.message.clan_id,
        channelId: q.message.channel_id,
        content: contentText(dialect, q.message.content),
        mode: q.message.mode,
        isPublic: q.message.is_public,
        code: q.message.code,
        topicId: q.message.topic_id,
      },
      // Era C names the bot and who picked the entry; earlier schemas leave them out.
      senderId: q.sender_id,
      messageSenderId: q.message_sender_id,
    },
  }),
  [Events.MessageTyping]: (t) => ({
    case: 'messageTypingEvent',
    value: {
      clanId: t.clan_id,
      channelId: t.channel_id,
      senderId: t.sender_id,
      mode: t.mode,
      isPublic: t.is_public,
      senderUsername: t.sender_username,
      senderDisplayName: t.sender_display_name,
      topicId: t.topic_id,
    },
  }),
};

/**
 * The production message for one gateway push frame
 * (`{"seq":…,"session_id":…,"<event>":<payload>}`, as the hub writes it), or
 * undefined for a frame that is not an event push.
 */
export function pushMessage(frame: string, world: World, dialect: ServedDialect): EnvelopeMessage | undefined {
  const parsed = JSON.parse(frame) as Record<string, unknown>;
  const type = Object.keys(parsed).find((key) => key !== 'seq' && key !== 'session_id');
  if (type === undefined || !isEventName(type)) return undefined;
  return translate(type, parsed[type] as EventPayloadMap[typeof type], world, dialect);
}

/** The production message carrying one event. */
export function translate<K extends Events>(type: K, payload: EventPayloadMap[K], world: World, dialect: ServedDialect): EnvelopeMessage {
  return TRANSLATORS[type](payload, world, dialect);
}
