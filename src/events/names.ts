/**
 * The events a client receives, each mapped to its wire name: the value is
 * what travels in a gateway push envelope (docs/PROTOCOL.md §5).
 */
export enum Events {
  ChannelMessage = 'channel_message',
  MessageReaction = 'message_reaction_event',
  MessageButtonClicked = 'message_button_clicked',
  DropdownBoxSelected = 'dropdown_box_selected',
  ChannelCreated = 'channel_created_event',
  ChannelUpdated = 'channel_updated_event',
  ChannelDeleted = 'channel_deleted_event',
  AddClanUser = 'add_clan_user_event',
  UserClanRemoved = 'user_clan_removed_event',
  UserChannelAdded = 'user_channel_added_event',
  UserChannelRemoved = 'user_channel_removed_event',
  RoleEvent = 'role_event',
  RoleAssign = 'role_assign_event',
  VoiceStartedEvent = 'voice_started_event',
  VoiceEndedEvent = 'voice_ended_event',
  VoiceJoinedEvent = 'voice_joined_event',
  VoiceLeavedEvent = 'voice_leaved_event',
  StreamingJoinedEvent = 'streaming_joined_event',
  StreamingLeavedEvent = 'streaming_leaved_event',
  WebrtcSignalingFwd = 'webrtc_signaling_fwd',
  TokenSend = 'token_sent_event',
  GiveCoffee = 'give_coffee_event',
  ClanEventCreated = 'clan_event_created',
  Notifications = 'notifications',
  QuickMenu = 'quick_menu_event',
  MessageTyping = 'message_typing_event',
}

/** Every wire event name, in the order of {@link Events}. */
export const ALL_EVENTS: readonly Events[] = Object.freeze(Object.values(Events));

const wireNames: ReadonlySet<string> = new Set<string>(ALL_EVENTS);

/** Whether a string is the wire name of an event. */
export function isEventName(name: string): name is Events {
  return wireNames.has(name);
}
