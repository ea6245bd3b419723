import { isEventName, type ChannelMessage, type ChannelMessageContent, type EventPayloadMap, type Events } from '../core.js';
import type * as B from '../schema/sdk-2.8.37_pb.js';
import { channelDescription, eventUser } from './channel-shapes.js';
import { fields } from './fields.js';
import { idText } from './ids.js';
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

/** The event each push case becomes: the case's name in snake_case (clanstream names its events as production's cases). */
interface CaseEvents {
  channelMessage: Events.ChannelMessage;
  messageReactionEvent: Events.MessageReaction;
  messageButtonClicked: Events.MessageButtonClicked;
  dropdownBoxSelected: Events.DropdownBoxSelected;
  channelCreatedEvent: Events.ChannelCreated;
  channelUpdatedEvent: Events.ChannelUpdated;
  channelDeletedEvent: Events.ChannelDeleted;
  addClanUserEvent: Events.AddClanUser;
  userClanRemovedEvent: Events.UserClanRemoved;
  userChannelAddedEvent: Events.UserChannelAdded;
  userChannelRemovedEvent: Events.UserChannelRemoved;
  roleEvent: Events.RoleEvent;
  roleAssignEvent: Events.RoleAssign;
  voiceStartedEvent: Events.VoiceStartedEvent;
  voiceEndedEvent: Events.VoiceEndedEvent;
  voiceJoinedEvent: Events.VoiceJoinedEvent;
  voiceLeavedEvent: Events.VoiceLeavedEvent;
  streamingJoinedEvent: Events.StreamingJoinedEvent;
  streamingLeavedEvent: Events.StreamingLeavedEvent;
  webrtcSignalingFwd: Events.WebrtcSignalingFwd;
  tokenSentEvent: Events.TokenSend;
  giveCoffeeEvent: Events.GiveCoffee;
  clanEventCreated: Events.ClanEventCreated;
  notifications: Events.Notifications;
  quickMenuEvent: Events.QuickMenu;
  messageTypingEvent: Events.MessageTyping;
}

export type EventOfCase<C extends PushCase> = CaseEvents[C];

/** A push case's event name. */
/** Case names are a fixed set, read for every push: each is converted once. */
const eventNames = new Map<string, string>();

export function eventOfCase<C extends PushCase>(pushCase: C): EventOfCase<C> {
  let name = eventNames.get(pushCase);
  if (name === undefined) eventNames.set(pushCase, (name = pushCase.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)));
  return name as EventOfCase<C>;
}

export function isPushCase(name: string | undefined): name is PushCase {
  return name !== undefined && !name.includes('_') && isEventName(eventOfCase(name as PushCase));
}

/** A payload built by `fields`, typed as the event's (test/production/events.test.ts checks every one). */
const as = <T>(value: unknown): T => value as T;

/**
 * A text-only content, `{"t":"…"}` with nothing escaped (no quote, backslash
 * or control character below U+0020 in the text): what most messages carry.
 * It is read without the JSON parser, which gives the same object for it.
 */
const PLAIN_TEXT = /^\{"t":"[\u0020\u0021\u0023-\u005b\u005d-\uffff]*"\}$/;

/** The content of a message: its JSON text parsed; text that is not a JSON object is kept as the message's text. */
export function contentOf(text: string): ChannelMessageContent {
  if (text === '') return {};
  if (PLAIN_TEXT.test(text)) return { t: text.slice(6, -2) };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
  } catch {
    // Not JSON: the text itself.
  }
  return { t: text };
}

/**
 * A `channel_message` (case 6), or why it cannot be used. Nearly every push
 * is one: its payload is written out as one literal (the fields `fields`
 * would copy for the spec 'message_id* channel_id* clan_id channel_label mode
 * code sender_id* username display_name clan_nick clan_avatar avatar
 * is_public create_time_seconds update_time_seconds topic_id*
 * category_name', in that order), so it is built in one step.
 */
export function channelMessage(m: B.ChannelMessage, problems: string[]): ChannelMessage | string {
  const messageId = idText(m.messageId);
  if (messageId === '') return 'a channel_message without message_id';
  const channelId = idText(m.channelId);
  if (channelId === '') return 'a channel_message without channel_id';
  return {
    id: messageId,
    message_id: messageId,
    channel_id: channelId,
    clan_id: m.clanId,
    channel_label: m.channelLabel,
    mode: m.mode,
    code: m.code,
    sender_id: idText(m.senderId),
    username: m.username,
    display_name: m.displayName,
    clan_nick: m.clanNick,
    clan_avatar: m.clanAvatar,
    avatar: m.avatar,
    is_public: m.isPublic,
    create_time_seconds: m.createTimeSeconds,
    update_time_seconds: m.updateTimeSeconds,
    topic_id: idText(m.topicId),
    category_name: m.categoryName,
    content: contentOf(m.content),
    mentions: mentionsOf(m.mentions, problems),
    attachments: attachmentsOf(m.attachments, problems),
    reactions: reactionsOf(m.reactions, problems),
    references: referencesOf(m.references, problems),
  };
}

/** The message a user was composing when they picked a quick-menu entry (production sends it as a write). */
function composed(send: B.ChannelMessageSend | undefined, senderId: string): ChannelMessage {
  const none = { id: '', message_id: '', channel_label: '', username: '', display_name: '', clan_nick: '', clan_avatar: '', create_time_seconds: 0, update_time_seconds: 0, category_name: '' };
  const empty = { clan_id: '', channel_id: '', mode: 0, code: 0, avatar: '', is_public: false, topic_id: '' };
  return as<ChannelMessage>({
    ...none,
    ...(send ? fields(send, 'clan_id channel_id* mode code avatar is_public topic_id*') : empty),
    sender_id: senderId,
    content: contentOf(send?.content ?? ''),
    mentions: [],
    attachments: [],
    reactions: [],
    references: [],
  });
}

type Translators = { [C in PushCase]: (m: PushMessages[C], ctx: TranslateContext, problems: string[]) => EventPayloadMap[EventOfCase<C>] | string };

const TRANSLATORS: Translators = {
  channelMessage: (m, _ctx, problems) => channelMessage(m, problems),
  messageReactionEvent: (r) => as(fields(r, 'id* emoji_id* emoji sender_id* sender_name action count channel_id* message_id* clan_id mode message_sender_id* is_public topic_id*')),
  messageButtonClicked: (c) => as(fields(c, 'message_id* channel_id* button_id sender_id* user_id* extra_data')),
  dropdownBoxSelected: (s) => as(fields(s, 'message_id* channel_id* selectbox_id sender_id* user_id* values')),
  // `app_url` has no wire field (production sends `app_id`).
  channelCreatedEvent: (c) => as({ ...fields(c, 'clan_id category_id* creator_id* parent_id* channel_id* channel_label channel_private channel_type status'), app_url: '' }),
  channelUpdatedEvent: (c) => as({ ...fields(c, 'clan_id category_id* creator_id* parent_id* channel_id* channel_label channel_type status meeting_code topic active'), channel_private: c.channelPrivate ? 1 : 0, app_url: '' }),
  channelDeletedEvent: (c) => as(fields(c, 'clan_id category_id* parent_id* channel_id* deletor*')),
  addClanUserEvent: (a) => ({ clan_id: a.clanId, user: eventUser(a.user), invitor: idText(a.invitor) }),
  userClanRemovedEvent: (r) => as(fields(r, 'clan_id user_ids+')),
  userChannelAddedEvent: (a) => {
    const status = Number(a.status);
    return { channel_desc: channelDescription(a.channelDesc), users: a.users.map(eventUser), status: Number.isFinite(status) ? status : 0, clan_id: a.clanId, caller: idText(a.caller?.userId ?? '') };
  },
  userChannelRemovedEvent: (r) => as(fields(r, 'channel_id* user_ids+ channel_type clan_id')),
  roleEvent: (r) => as({ role: fields(r.role ?? {}, 'id* title color clan_id role_icon description creator_id* active'), ...fields(r, 'status user_id* user_add_ids+ user_remove_ids+') }),
  roleAssignEvent: (r) => as({ clan_id: r.ClanId, ...fields(r, 'role_id* user_ids_assigned+ user_ids_removed+') }),
  voiceStartedEvent: (v) => as(fields(v, 'id clan_id voice_channel_id*')),
  voiceEndedEvent: (v) => as(fields(v, 'id* clan_id voice_channel_id')),
  voiceJoinedEvent: (v) => as(fields(v, 'id clan_id clan_name participant user_id* voice_channel_label voice_channel_id*')),
  voiceLeavedEvent: (v) => as(fields(v, 'id clan_id voice_channel_id* voice_user_id*')),
  streamingJoinedEvent: (s) => as(fields(s, 'id* clan_id clan_name participant user_id* streaming_channel_label streaming_channel_id*')),
  streamingLeavedEvent: (s) => as(fields(s, 'id* clan_id streaming_channel_id streaming_user_id')),
  webrtcSignalingFwd: (w) => as(fields(w, 'receiver_id* data_type json_data channel_id* caller_id*')),
  // Whole tokens: production has no fractions.
  tokenSentEvent: (t) => as(fields(t, 'sender_id* sender_name receiver_id* amount note extra_attribute transaction_id')),
  giveCoffeeEvent: (g) => as(fields(g, 'sender_id* receiver_id* token_count message_ref_id* channel_id* clan_id')),
  clanEventCreated: (e) =>
    as(fields(e, 'event_id* title description logo clan_id channel_id* channel_voice_id* address start_time_seconds end_time_seconds event_status action repeat_type creator_id* user_id* is_private')),
  notifications: (n) => ({
    notifications: n.notifications.map((item) =>
      as({ ...fields(item, 'id* subject code sender_id* create_time_seconds persistent clan_id channel_id* channel_type topic_id* category'), content: notificationText(new TextDecoder().decode(item.content)) }),
    ),
  }),
  quickMenuEvent: (q, ctx) => {
    // Before sdk-2.8.44 the wire names neither: the menu is the bot's own, and who picked it is unknown ("").
    const picker = idText(q.messageSenderId ?? '');
    return { menu_name: q.menuName, message: composed(q.message, picker), sender_id: idText(q.senderId ?? '') || ctx.selfId(), message_sender_id: picker };
  },
  messageTypingEvent: (t) => as(fields(t, 'clan_id channel_id* sender_id* mode is_public sender_username sender_display_name topic_id*')),
};

/** Production's content is JSON text: plain text travels as a JSON string, read back as its words. */
function notificationText(json: string): string {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'string' ? value : json;
  } catch {
    return json;
  }
}

/** One push translated into its event's payload. */
export function translatePush<C extends PushCase>(pushCase: C, message: PushMessages[C], ctx: TranslateContext): Translated<EventOfCase<C>> {
  const problems: string[] = [];
  const data = (TRANSLATORS[pushCase] as unknown as (m: PushMessages[C], c: TranslateContext, p: string[]) => EventPayloadMap[EventOfCase<C>] | string)(message, ctx, problems);
  return typeof data === 'string' ? { invalid: data } : { data, problems };
}
