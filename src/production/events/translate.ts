import { Events, type ChannelMessage, type ChannelMessageContent, type ChannelStreamMode, type EventPayloadMap, type RoleEventStatus, type TypeMessage } from '../core.js';
import type * as B from '../schema/sdk-2.8.37_pb.js';
import { channelDescription, eventUser } from './channel-shapes.js';
import { idList, idText } from './ids.js';
import { attachmentsOf, mentionsOf, reactionsOf, referencesOf } from './parts.js';

/**
 * Production pushes → clanstream's typed event payloads
 * (docs/guides/connecting-to-the-platform.md, "Events"). Every dialect's
 * messages arrive here in era B's shapes (ids as text; sdk-2.8.33's are
 * reshaped first by `era-a.ts`). What production lacks is filled as the
 * event table of the guide says; what it adds is dropped.
 */

/** What a translation may need besides the message. */
export interface TranslateContext {
  /** The bot's user id: the quick-menu owner where the wire does not name it (before sdk-2.8.44). */
  readonly selfId: () => string;
}

/** A translated payload, or why the push cannot be used; `problems` are parts read as empty, to report. */
export type Translated<K extends Events> = { data: EventPayloadMap[K]; problems: string[] } | { invalid: string };

/** The case of each event in the Envelope, and the message it carries (era B's shape). */
export interface PushMessages {
  channelMessage: B.ChannelMessage;
  messageReactionEvent: B.MessageReaction;
  messageButtonClicked: B.MessageButtonClicked;
  dropdownBoxSelected: B.DropdownBoxSelected;
  channelCreatedEvent: B.ChannelCreatedEvent;
  channelUpdatedEvent: B.ChannelUpdatedEvent;
  channelDeletedEvent: B.ChannelDeletedEvent;
  addClanUserEvent: B.AddClanUserEvent;
  userClanRemovedEvent: B.UserClanRemoved;
  userChannelAddedEvent: B.UserChannelAdded;
  userChannelRemovedEvent: B.UserChannelRemoved;
  roleEvent: B.RoleEvent;
  roleAssignEvent: B.RoleAssignedEvent;
  voiceStartedEvent: B.VoiceStartedEvent;
  voiceEndedEvent: B.VoiceEndedEvent;
  voiceJoinedEvent: B.VoiceJoinedEvent;
  voiceLeavedEvent: B.VoiceLeavedEvent;
  streamingJoinedEvent: B.StreamingJoinedEvent;
  streamingLeavedEvent: B.StreamingLeavedEvent;
  webrtcSignalingFwd: B.WebrtcSignalingFwd;
  tokenSentEvent: B.TokenSentEvent;
  giveCoffeeEvent: B.GiveCoffeeEvent;
  clanEventCreated: B.CreateEventRequest;
  notifications: B.Notifications;
  /** sdk-2.8.44 adds who owns the menu and who picked it. */
  quickMenuEvent: B.QuickMenuDataEvent & { senderId?: string; messageSenderId?: string };
  messageTypingEvent: B.MessageTypingEvent;
}

export type PushCase = keyof PushMessages;

/** The event each push case becomes. */
export const EVENT_OF_CASE = {
  channelMessage: Events.ChannelMessage,
  messageReactionEvent: Events.MessageReaction,
  messageButtonClicked: Events.MessageButtonClicked,
  dropdownBoxSelected: Events.DropdownBoxSelected,
  channelCreatedEvent: Events.ChannelCreated,
  channelUpdatedEvent: Events.ChannelUpdated,
  channelDeletedEvent: Events.ChannelDeleted,
  addClanUserEvent: Events.AddClanUser,
  userClanRemovedEvent: Events.UserClanRemoved,
  userChannelAddedEvent: Events.UserChannelAdded,
  userChannelRemovedEvent: Events.UserChannelRemoved,
  roleEvent: Events.RoleEvent,
  roleAssignEvent: Events.RoleAssign,
  voiceStartedEvent: Events.VoiceStartedEvent,
  voiceEndedEvent: Events.VoiceEndedEvent,
  voiceJoinedEvent: Events.VoiceJoinedEvent,
  voiceLeavedEvent: Events.VoiceLeavedEvent,
  streamingJoinedEvent: Events.StreamingJoinedEvent,
  streamingLeavedEvent: Events.StreamingLeavedEvent,
  webrtcSignalingFwd: Events.WebrtcSignalingFwd,
  tokenSentEvent: Events.TokenSend,
  giveCoffeeEvent: Events.GiveCoffee,
  clanEventCreated: Events.ClanEventCreated,
  notifications: Events.Notifications,
  quickMenuEvent: Events.QuickMenu,
  messageTypingEvent: Events.MessageTyping,
} as const satisfies { [C in PushCase]: Events };

type EventOfCase<C extends PushCase> = (typeof EVENT_OF_CASE)[C];

export function isPushCase(name: string | undefined): name is PushCase {
  return name !== undefined && Object.hasOwn(EVENT_OF_CASE, name);
}

/** The content of a message: its JSON text parsed; text that is not a JSON object is kept as the message's text. */
export function contentOf(text: string): ChannelMessageContent {
  if (text === '') return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as ChannelMessageContent;
  } catch {
    // Not JSON: the text itself.
  }
  return { t: text };
}

/** A `channel_message` (case 6), or why it cannot be used. */
export function channelMessage(m: B.ChannelMessage, problems: string[]): ChannelMessage | string {
  const messageId = idText(m.messageId);
  const channelId = idText(m.channelId);
  if (messageId === '') return 'a channel_message without message_id';
  if (channelId === '') return 'a channel_message without channel_id';
  return {
    id: messageId,
    message_id: messageId,
    channel_id: channelId,
    clan_id: m.clanId,
    channel_label: m.channelLabel,
    mode: m.mode as ChannelStreamMode,
    code: m.code as TypeMessage,
    sender_id: idText(m.senderId),
    username: m.username,
    display_name: m.displayName,
    clan_nick: m.clanNick,
    clan_avatar: m.clanAvatar,
    avatar: m.avatar,
    content: contentOf(m.content),
    mentions: mentionsOf(m.mentions, problems),
    attachments: attachmentsOf(m.attachments, problems),
    reactions: reactionsOf(m.reactions, problems),
    references: referencesOf(m.references, problems),
    is_public: m.isPublic,
    create_time_seconds: m.createTimeSeconds,
    update_time_seconds: m.updateTimeSeconds,
    topic_id: idText(m.topicId),
    category_name: m.categoryName,
  };
}

/** The message a user was composing when they picked a quick-menu entry (production sends it as a write). */
function composed(send: B.ChannelMessageSend | undefined, senderId: string): ChannelMessage {
  return {
    id: '',
    message_id: '',
    channel_id: idText(send?.channelId ?? ''),
    clan_id: send?.clanId ?? '',
    channel_label: '',
    mode: (send?.mode ?? 0) as ChannelStreamMode,
    code: (send?.code ?? 0) as TypeMessage,
    sender_id: senderId,
    username: '',
    display_name: '',
    clan_nick: '',
    clan_avatar: '',
    avatar: send?.avatar ?? '',
    content: contentOf(send?.content ?? ''),
    mentions: [],
    attachments: [],
    reactions: [],
    references: [],
    is_public: send?.isPublic ?? false,
    create_time_seconds: 0,
    update_time_seconds: 0,
    topic_id: idText(send?.topicId ?? ''),
    category_name: '',
  };
}

type Translators = { [C in PushCase]: (m: PushMessages[C], ctx: TranslateContext, problems: string[]) => EventPayloadMap[EventOfCase<C>] | string };

const TRANSLATORS: Translators = {
  channelMessage: (m, _ctx, problems) => channelMessage(m, problems),
  messageReactionEvent: (r) => ({
    id: idText(r.id),
    emoji_id: idText(r.emojiId),
    emoji: r.emoji,
    sender_id: idText(r.senderId),
    sender_name: r.senderName,
    action: r.action,
    count: r.count,
    channel_id: idText(r.channelId),
    message_id: idText(r.messageId),
    clan_id: r.clanId,
    mode: r.mode as ChannelStreamMode,
    message_sender_id: idText(r.messageSenderId),
    is_public: r.isPublic,
    topic_id: idText(r.topicId),
  }),
  messageButtonClicked: (c) => ({
    message_id: idText(c.messageId),
    channel_id: idText(c.channelId),
    button_id: c.buttonId,
    sender_id: idText(c.senderId),
    user_id: idText(c.userId),
    extra_data: c.extraData,
  }),
  dropdownBoxSelected: (s) => ({
    message_id: idText(s.messageId),
    channel_id: idText(s.channelId),
    selectbox_id: s.selectboxId,
    sender_id: idText(s.senderId),
    user_id: idText(s.userId),
    values: [...s.values],
  }),
  channelCreatedEvent: (c) => ({
    clan_id: c.clanId,
    category_id: idText(c.categoryId),
    creator_id: idText(c.creatorId),
    parent_id: idText(c.parentId),
    channel_id: idText(c.channelId),
    channel_label: c.channelLabel,
    channel_private: c.channelPrivate,
    channel_type: c.channelType,
    status: c.status,
    // No wire field carries it (production sends `app_id`).
    app_url: '',
  }),
  channelUpdatedEvent: (c) => ({
    clan_id: c.clanId,
    category_id: idText(c.categoryId),
    creator_id: idText(c.creatorId),
    parent_id: idText(c.parentId),
    channel_id: idText(c.channelId),
    channel_label: c.channelLabel,
    channel_private: c.channelPrivate ? 1 : 0,
    channel_type: c.channelType,
    status: c.status,
    app_url: '',
    meeting_code: c.meetingCode,
    topic: c.topic,
    active: c.active,
  }),
  channelDeletedEvent: (c) => ({
    clan_id: c.clanId,
    category_id: idText(c.categoryId),
    parent_id: idText(c.parentId),
    channel_id: idText(c.channelId),
    deletor: idText(c.deletor),
  }),
  addClanUserEvent: (a) => ({ clan_id: a.clanId, user: eventUser(a.user), invitor: idText(a.invitor) }),
  userClanRemovedEvent: (r) => ({ clan_id: r.clanId, user_ids: idList(r.userIds) }),
  userChannelAddedEvent: (a) => {
    const status = Number(a.status);
    return {
      channel_desc: channelDescription(a.channelDesc),
      users: a.users.map(eventUser),
      status: Number.isFinite(status) ? status : 0,
      clan_id: a.clanId,
      caller: idText(a.caller?.userId ?? ''),
    };
  },
  userChannelRemovedEvent: (r) => ({ channel_id: idText(r.channelId), user_ids: idList(r.userIds), channel_type: r.channelType, clan_id: r.clanId }),
  roleEvent: (r) => ({
    role: {
      id: idText(r.role?.id ?? ''),
      title: r.role?.title ?? '',
      color: r.role?.color ?? '',
      clan_id: r.role?.clanId ?? '',
      role_icon: r.role?.roleIcon ?? '',
      description: r.role?.description ?? '',
      creator_id: idText(r.role?.creatorId ?? ''),
      active: r.role?.active ?? 0,
    },
    status: r.status as RoleEventStatus,
    user_id: idText(r.userId),
    user_add_ids: idList(r.userAddIds),
    user_remove_ids: idList(r.userRemoveIds),
  }),
  roleAssignEvent: (r) => ({ clan_id: r.ClanId, role_id: idText(r.roleId), user_ids_assigned: idList(r.userIdsAssigned), user_ids_removed: idList(r.userIdsRemoved) }),
  voiceStartedEvent: (v) => ({ id: v.id, clan_id: v.clanId, voice_channel_id: idText(v.voiceChannelId) }),
  voiceEndedEvent: (v) => ({ id: idText(v.id), clan_id: v.clanId, voice_channel_id: v.voiceChannelId }),
  voiceJoinedEvent: (v) => ({
    id: v.id,
    clan_id: v.clanId,
    clan_name: v.clanName,
    participant: v.participant,
    user_id: idText(v.userId),
    voice_channel_label: v.voiceChannelLabel,
    voice_channel_id: idText(v.voiceChannelId),
  }),
  voiceLeavedEvent: (v) => ({ id: v.id, clan_id: v.clanId, voice_channel_id: idText(v.voiceChannelId), voice_user_id: idText(v.voiceUserId) }),
  streamingJoinedEvent: (s) => ({
    id: idText(s.id),
    clan_id: s.clanId,
    clan_name: s.clanName,
    participant: s.participant,
    user_id: idText(s.userId),
    streaming_channel_label: s.streamingChannelLabel,
    streaming_channel_id: idText(s.streamingChannelId),
  }),
  streamingLeavedEvent: (s) => ({ id: idText(s.id), clan_id: s.clanId, streaming_channel_id: s.streamingChannelId, streaming_user_id: s.streamingUserId }),
  webrtcSignalingFwd: (w) => ({ receiver_id: idText(w.receiverId), data_type: w.dataType, json_data: w.jsonData, channel_id: idText(w.channelId), caller_id: idText(w.callerId) }),
  tokenSentEvent: (t) => ({
    sender_id: idText(t.senderId),
    sender_name: t.senderName,
    receiver_id: idText(t.receiverId),
    // Whole tokens: production has no fractions.
    amount: t.amount,
    note: t.note,
    extra_attribute: t.extraAttribute,
    transaction_id: t.transactionId,
  }),
  giveCoffeeEvent: (g) => ({
    sender_id: idText(g.senderId),
    receiver_id: idText(g.receiverId),
    token_count: g.tokenCount,
    message_ref_id: idText(g.messageRefId),
    channel_id: idText(g.channelId),
    clan_id: g.clanId,
  }),
  clanEventCreated: (e) => ({
    event_id: idText(e.eventId),
    title: e.title,
    description: e.description,
    logo: e.logo,
    clan_id: e.clanId,
    channel_id: idText(e.channelId),
    channel_voice_id: idText(e.channelVoiceId),
    address: e.address,
    start_time_seconds: e.startTimeSeconds,
    end_time_seconds: e.endTimeSeconds,
    event_status: e.eventStatus,
    action: e.action,
    repeat_type: e.repeatType,
    creator_id: idText(e.creatorId),
    user_id: idText(e.userId),
    is_private: e.isPrivate,
  }),
  notifications: (n) => ({
    notifications: n.notifications.map((item) => ({
      id: idText(item.id),
      subject: item.subject,
      content: new TextDecoder().decode(item.content),
      code: item.code,
      sender_id: idText(item.senderId),
      create_time_seconds: item.createTimeSeconds,
      persistent: item.persistent,
      clan_id: item.clanId,
      channel_id: idText(item.channelId),
      channel_type: item.channelType,
      topic_id: idText(item.topicId),
      category: item.category,
    })),
  }),
  quickMenuEvent: (q, ctx) => {
    // Before sdk-2.8.44 the wire names neither: the menu is the bot's own, and who picked it is unknown ("").
    const picker = idText(q.messageSenderId ?? '');
    return { menu_name: q.menuName, message: composed(q.message, picker), sender_id: idText(q.senderId ?? '') || ctx.selfId(), message_sender_id: picker };
  },
  messageTypingEvent: (t) => ({
    clan_id: t.clanId,
    channel_id: idText(t.channelId),
    sender_id: idText(t.senderId),
    mode: t.mode as ChannelStreamMode,
    is_public: t.isPublic,
    sender_username: t.senderUsername,
    sender_display_name: t.senderDisplayName,
    topic_id: idText(t.topicId),
  }),
};

/** One push translated into its event's payload. */
export function translatePush<C extends PushCase>(pushCase: C, message: PushMessages[C], ctx: TranslateContext): Translated<EventOfCase<C>> {
  const problems: string[] = [];
  const data = (TRANSLATORS[pushCase] as (m: PushMessages[C], c: TranslateContext, p: string[]) => EventPayloadMap[EventOfCase<C>] | string)(message, ctx, problems);
  return typeof data === 'string' ? { invalid: data } : { data, problems };
}
