/**
 * Events and sync actions for store tests (test/state/store.test.ts,
 * marbles/store.marbles.ts): every payload complete and typed, with
 * defaults that describe one clan "clan1" with a channel "c1".
 */
import { ChannelStreamMode, ChannelType, DM_CLAN_ID, Events, RoleEventStatus, TypeMessage, type ApiChannelDescription, type ApiClanDesc, type ApiClanMember, type ApiRole, type ApiUser, type CacheLimits, type ChannelMessage, type ClanstreamError, type EventOf, type EventPayloadMap, type EventRole, type MessageReaction } from '../../src/index.js';
import { Store } from '../../src/state/store.js';

export const SELF = 'bot';
export const CLAN = 'clan1';
export const CHANNEL = 'c1';

let nextSeq = 0;

/** An event envelope as the gateway delivers it. */
export function ev<K extends Events>(type: K, data: EventPayloadMap[K]): EventOf<K> {
  nextSeq += 1;
  return { type, seq: nextSeq, data } as unknown as EventOf<K>;
}

/** A store whose logged-in user is {@link SELF}, with the errors it reported. */
export function newStore(limits: Partial<CacheLimits> = {}): { store: Store; errors: ClanstreamError[] } {
  const errors: ClanstreamError[] = [];
  const store = new Store({ limits, selfId: () => SELF, report: (error) => errors.push(error) });
  return { store, errors };
}

/** A channel message (code 0 in channel c1 of clan1 from alice unless told otherwise). */
export function message(over: Partial<ChannelMessage> = {}): ChannelMessage {
  const id = over.message_id ?? over.id ?? 'm1';
  return {
    id,
    message_id: id,
    channel_id: CHANNEL,
    clan_id: CLAN,
    channel_label: 'general',
    mode: ChannelStreamMode.STREAM_MODE_CHANNEL,
    code: TypeMessage.Chat,
    sender_id: 'alice',
    username: 'alice',
    display_name: 'Alice',
    clan_nick: '',
    clan_avatar: '',
    avatar: 'https://cdn.example/alice.png',
    content: { t: `text of ${id}` },
    mentions: [],
    attachments: [],
    reactions: [],
    references: [],
    is_public: true,
    create_time_seconds: 1000,
    update_time_seconds: 1000,
    topic_id: '',
    category_name: '',
    ...over,
  };
}

export const messageEvent = (over: Partial<ChannelMessage> = {}) => ev(Events.ChannelMessage, message(over));

/** A direct message from `from` in DM channel `channelId`. */
export const dmEvent = (channelId: string, from: string, over: Partial<ChannelMessage> = {}) =>
  messageEvent({ channel_id: channelId, clan_id: DM_CLAN_ID, mode: ChannelStreamMode.STREAM_MODE_DM, channel_label: '', sender_id: from, username: from, display_name: from, ...over });

export function reactionEvent(over: Partial<MessageReaction> = {}) {
  return ev(Events.MessageReaction, {
    id: 'r1',
    emoji_id: 'tada',
    emoji: '🎉',
    sender_id: 'bob',
    sender_name: 'bob',
    action: false,
    count: 1,
    channel_id: CHANNEL,
    message_id: 'm1',
    clan_id: CLAN,
    mode: ChannelStreamMode.STREAM_MODE_CHANNEL,
    message_sender_id: 'alice',
    is_public: true,
    topic_id: '',
    ...over,
  });
}

/** The fields channel_created and channel_updated share, for a public text channel of the clan. */
function channelFields(channelId: string) {
  return {
    clan_id: CLAN,
    category_id: '',
    creator_id: 'alice',
    parent_id: '',
    channel_id: channelId,
    channel_label: `label-${channelId}`,
    channel_private: 0,
    channel_type: ChannelType.CHANNEL_TYPE_CHANNEL,
    status: 1,
    app_url: '',
  };
}

export function channelCreated(channelId: string, over: Partial<EventPayloadMap[Events.ChannelCreated]> = {}) {
  return ev(Events.ChannelCreated, { ...channelFields(channelId), ...over });
}

export function channelUpdated(channelId: string, over: Partial<EventPayloadMap[Events.ChannelUpdated]> = {}) {
  return ev(Events.ChannelUpdated, {
    ...channelFields(channelId),
    meeting_code: '',
    topic: '',
    active: 1,
    ...over,
  });
}

export const channelDeleted = (channelId: string, clanId = CLAN) => ev(Events.ChannelDeleted, { clan_id: clanId, category_id: '', parent_id: '', channel_id: channelId, deletor: 'alice' });

export const eventUser = (id: string) => ({ user_id: id, username: id, avatar: `https://cdn.example/${id}.png`, display_name: id.toUpperCase() });

export const addClanUser = (clanId: string, userId: string) => ev(Events.AddClanUser, { clan_id: clanId, user: eventUser(userId), invitor: 'alice' });

export const userClanRemoved = (clanId: string, userIds: string[]) => ev(Events.UserClanRemoved, { clan_id: clanId, user_ids: userIds });

export function eventRole(id: string, over: Partial<EventRole> = {}): EventRole {
  return { id, title: `role ${id}`, color: '#ff0000', clan_id: CLAN, role_icon: '', description: '', creator_id: 'alice', active: 1, ...over };
}

export const roleEvent = (role: EventRole, status: RoleEventStatus, add: string[] = [], remove: string[] = []) =>
  ev(Events.RoleEvent, { role, status, user_id: 'alice', user_add_ids: add, user_remove_ids: remove });

export const roleAssign = (roleId: string, assigned: string[], removed: string[] = [], clanId = CLAN) =>
  ev(Events.RoleAssign, { clan_id: clanId, role_id: roleId, user_ids_assigned: assigned, user_ids_removed: removed });

export const voiceJoined = (channelId: string, userId: string) =>
  ev(Events.VoiceJoinedEvent, { id: `p-${userId}`, clan_id: CLAN, clan_name: 'Clan', participant: userId.toUpperCase(), user_id: userId, voice_channel_label: 'Lounge', voice_channel_id: channelId });
export const voiceLeft = (channelId: string, userId: string) => ev(Events.VoiceLeavedEvent, { id: `p-${userId}`, clan_id: CLAN, voice_channel_id: channelId, voice_user_id: userId });
export const voiceEnded = (channelId: string) => ev(Events.VoiceEndedEvent, { id: 'v1', clan_id: CLAN, voice_channel_id: channelId });
export const voiceStarted = (channelId: string) => ev(Events.VoiceStartedEvent, { id: 'v1', clan_id: CLAN, voice_channel_id: channelId });
export const streamingJoined = (channelId: string, userId: string) =>
  ev(Events.StreamingJoinedEvent, { id: `s-${userId}`, clan_id: CLAN, clan_name: 'Clan', participant: userId.toUpperCase(), user_id: userId, streaming_channel_label: 'Stage', streaming_channel_id: channelId });
export const streamingLeft = (channelId: string, userId: string) => ev(Events.StreamingLeavedEvent, { id: `s-${userId}`, clan_id: CLAN, streaming_channel_id: channelId, streaming_user_id: userId });

// ---------------- REST shapes for sync actions ----------------

export const clanDesc = (id: string): ApiClanDesc => ({ clan_id: id, clan_name: `Clan ${id}`, welcome_channel_id: `${id}-welcome`, creator_id: 'alice' });

export const channelDesc = (id: string, clanId = CLAN, over: ApiChannelDescription = {}): ApiChannelDescription => ({
  channel_id: id,
  clan_id: clanId,
  channel_label: `label-${id}`,
  type: ChannelType.CHANNEL_TYPE_CHANNEL,
  channel_private: 0,
  ...over,
});

export const dmDesc = (id: string, peer: string, type: ChannelType = ChannelType.CHANNEL_TYPE_DM): ApiChannelDescription => ({
  channel_id: id,
  clan_id: DM_CLAN_ID,
  type,
  channel_label: peer,
  user_ids: [SELF, peer],
});

export const apiUser = (id: string): ApiUser => ({ id, username: id, display_name: id.toUpperCase(), avatar_url: `https://cdn.example/${id}.png` });

export const member = (id: string, over: Partial<ApiClanMember> = {}): ApiClanMember => ({ user: apiUser(id), clan_nick: `${id}-nick`, clan_avatar: '', role_ids: [], ...over });

export const apiRole = (id: string, userIds: string[] = [], clanId = CLAN): ApiRole => ({ id, clan_id: clanId, title: `role ${id}`, user_ids: userIds, permission_ids: [] });
