import type { Events } from './names.js';
import type { ChannelStreamMode, RoleEventStatus } from '../model/enums.js';
import type { ApiChannelDescription } from '../model/api.js';
import type { ChannelMessage } from '../model/channel-message.js';

export type { ChannelMessage } from '../model/channel-message.js';

/** A reaction added or removed (`message_reaction_event`). */
export interface MessageReaction {
  id: string;
  emoji_id: string;
  emoji: string;
  sender_id: string;
  sender_name: string;
  /** true when the reaction was removed. */
  action: boolean;
  /** Number of users reacting with this emoji after the change. */
  count: number;
  channel_id: string;
  message_id: string;
  clan_id: string;
  mode: ChannelStreamMode;
  message_sender_id: string;
  is_public: boolean;
  topic_id: string;
}

/** A button of a message was clicked (`message_button_clicked`). */
export interface MessageButtonClicked {
  message_id: string;
  channel_id: string;
  button_id: string;
  /** Owner of the message (the bot). */
  sender_id: string;
  /** Who clicked. */
  user_id: string;
  /** JSON of form values keyed by input id; may be "". */
  extra_data: string;
}

/** An option of a dropdown was selected (`dropdown_box_selected`). */
export interface DropdownBoxSelected {
  message_id: string;
  channel_id: string;
  selectbox_id: string;
  sender_id: string;
  user_id: string;
  values: string[];
}

/** `channel_created_event`. */
export interface ChannelCreatedEvent {
  clan_id: string;
  category_id: string;
  creator_id: string;
  parent_id: string;
  channel_id: string;
  channel_label: string;
  /** 1 private, 0 public. */
  channel_private: number;
  channel_type: number;
  status: number;
  app_url: string;
}

/** `channel_updated_event`. */
export interface ChannelUpdatedEvent extends ChannelCreatedEvent {
  meeting_code: string;
  topic: string;
  /** 1 active, 0 inactive. */
  active: number;
}

/** `channel_deleted_event`. */
export interface ChannelDeletedEvent {
  clan_id: string;
  category_id: string;
  parent_id: string;
  channel_id: string;
  /** Who deleted it. */
  deletor: string;
}

/** A user summary as carried by membership events. */
export interface EventUser {
  user_id: string;
  username: string;
  avatar: string;
  display_name: string;
}

/** `add_clan_user_event`. */
export interface AddClanUserEvent {
  clan_id: string;
  user: EventUser;
  invitor: string;
}

/** `user_clan_removed_event`. */
export interface UserClanRemovedEvent {
  clan_id: string;
  user_ids: string[];
}

/** `user_channel_added_event`. */
export interface UserChannelAddedEvent {
  channel_desc: ApiChannelDescription;
  users: EventUser[];
  status: number;
  clan_id: string;
  caller: string;
}

/** `user_channel_removed_event`. */
export interface UserChannelRemoved {
  channel_id: string;
  user_ids: string[];
  channel_type: number;
  clan_id: string;
}

/** A role as carried by `role_event`. */
export interface EventRole {
  id: string;
  title: string;
  color: string;
  clan_id: string;
  role_icon: string;
  description: string;
  creator_id: string;
  active: number;
}

/** `role_event`: a role created, updated or deleted. */
export interface RoleEvent {
  role: EventRole;
  status: RoleEventStatus;
  /** Who made the change. */
  user_id: string;
  user_add_ids: string[];
  user_remove_ids: string[];
}

/** `role_assign_event`. */
export interface RoleAssignedEvent {
  clan_id: string;
  role_id: string;
  user_ids_assigned: string[];
  user_ids_removed: string[];
}

/** `voice_started_event`. */
export interface VoiceStartedEvent {
  id: string;
  clan_id: string;
  voice_channel_id: string;
}

/** `voice_ended_event`. */
export interface VoiceEndedEvent {
  id: string;
  clan_id: string;
  voice_channel_id: string;
}

/** `voice_joined_event`. */
export interface VoiceJoinedEvent {
  id: string;
  clan_id: string;
  clan_name: string;
  participant: string;
  user_id: string;
  voice_channel_label: string;
  voice_channel_id: string;
}

/** `voice_leaved_event`. */
export interface VoiceLeavedEvent {
  id: string;
  clan_id: string;
  voice_channel_id: string;
  voice_user_id: string;
}

/** `streaming_joined_event`. */
export interface StreamingJoinedEvent {
  id: string;
  clan_id: string;
  clan_name: string;
  participant: string;
  user_id: string;
  streaming_channel_label: string;
  streaming_channel_id: string;
}

/** `streaming_leaved_event`. */
export interface StreamingLeavedEvent {
  id: string;
  clan_id: string;
  streaming_channel_id: string;
  streaming_user_id: string;
}

/** `webrtc_signaling_fwd`. */
export interface WebrtcSignalingFwd {
  receiver_id: string;
  data_type: number;
  json_data: string;
  channel_id: string;
  caller_id: string;
}

/** `token_sent_event`: a transfer between users (docs/PROTOCOL.md §5.21). */
export interface TokenSentEvent {
  sender_id?: string;
  sender_name?: string;
  receiver_id: string;
  /** In tokens (not units). */
  amount: number;
  note?: string;
  extra_attribute?: string;
  transaction_id?: string;
}

/** `give_coffee_event`. */
export interface GiveCoffeeEvent {
  sender_id: string;
  receiver_id: string;
  token_count: number;
  message_ref_id: string;
  channel_id: string;
  clan_id: string;
}

/** `clan_event_created` (the platform's SDK names its payload CreateEventRequest). */
export interface CreateEventRequest {
  event_id: string;
  title: string;
  description: string;
  logo: string;
  clan_id: string;
  channel_id: string;
  channel_voice_id: string;
  address: string;
  start_time_seconds: number;
  end_time_seconds: number;
  event_status: number;
  action: number;
  repeat_type: number;
  creator_id: string;
  user_id: string;
  is_private: boolean;
}

/** One notification. */
export interface Notification {
  id: string;
  subject: string;
  content: string;
  code: number;
  sender_id: string;
  create_time_seconds: number;
  persistent: boolean;
  clan_id: string;
  channel_id: string;
  channel_type: number;
  topic_id: string;
  category: number;
}

/** `notifications`. */
export interface Notifications {
  notifications: Notification[];
}

/** `quick_menu_event`: a user picked one of a bot's quick-menu entries. */
export interface QuickMenuEvent {
  menu_name: string;
  /** The message the user was composing when they picked the entry. */
  message: ChannelMessage;
  /** The bot the menu belongs to. */
  sender_id: string;
  /** The user who picked the entry. */
  message_sender_id: string;
}

/**
 * Someone is typing in a channel (`message_typing_event`). A notice, not a message: it has no id,
 * nothing of it is stored (by the server or the client's caches), and nothing can reply to it.
 */
export interface MessageTypingEvent {
  /** `"0"` in the DM space. */
  clan_id: string;
  channel_id: string;
  /** Who is typing. */
  sender_id: string;
  mode: ChannelStreamMode;
  is_public: boolean;
  sender_username: string;
  sender_display_name: string;
  /** The topic (thread) typed in; `""` when none. */
  topic_id: string;
}

/** Wire event name → payload type. */
export interface EventPayloadMap {
  [Events.ChannelMessage]: ChannelMessage;
  [Events.MessageReaction]: MessageReaction;
  [Events.MessageButtonClicked]: MessageButtonClicked;
  [Events.DropdownBoxSelected]: DropdownBoxSelected;
  [Events.ChannelCreated]: ChannelCreatedEvent;
  [Events.ChannelUpdated]: ChannelUpdatedEvent;
  [Events.ChannelDeleted]: ChannelDeletedEvent;
  [Events.AddClanUser]: AddClanUserEvent;
  [Events.UserClanRemoved]: UserClanRemovedEvent;
  [Events.UserChannelAdded]: UserChannelAddedEvent;
  [Events.UserChannelRemoved]: UserChannelRemoved;
  [Events.RoleEvent]: RoleEvent;
  [Events.RoleAssign]: RoleAssignedEvent;
  [Events.VoiceStartedEvent]: VoiceStartedEvent;
  [Events.VoiceEndedEvent]: VoiceEndedEvent;
  [Events.VoiceJoinedEvent]: VoiceJoinedEvent;
  [Events.VoiceLeavedEvent]: VoiceLeavedEvent;
  [Events.StreamingJoinedEvent]: StreamingJoinedEvent;
  [Events.StreamingLeavedEvent]: StreamingLeavedEvent;
  [Events.WebrtcSignalingFwd]: WebrtcSignalingFwd;
  [Events.TokenSend]: TokenSentEvent;
  [Events.GiveCoffee]: GiveCoffeeEvent;
  [Events.ClanEventCreated]: CreateEventRequest;
  [Events.Notifications]: Notifications;
  [Events.QuickMenu]: QuickMenuEvent;
  [Events.MessageTyping]: MessageTypingEvent;
}

/** One event as the client delivers it: a discriminated union on `type`. */
export type ClanstreamEvent = {
  [K in Events]: { readonly type: K; readonly seq: number; readonly data: EventPayloadMap[K] };
}[Events];

/** The event of one wire name. */
export type EventOf<K extends Events> = Extract<ClanstreamEvent, { type: K }>;
