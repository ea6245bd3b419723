/**
 * The Store (src/state/store.ts) and its reducers (src/state/reducers/*):
 * events and sync actions dispatched directly, and what the state holds
 * right after each dispatch. Also the cache bounds (src/state/bounds.ts)
 * with small limits, where reads through the client's CacheManager views
 * count as use.
 */
import { describe, expect, it } from 'vitest';
import { ClientRuntime, type RuntimeDeps } from '../../src/client/runtime.js';
import { ChannelStreamMode, ChannelType, DM_CLAN_ID, Events, InMemoryMessageStore, ProtocolError, RoleEventStatus, TypeMessage, type ClientState, type RoleEvent } from '../../src/index.js';
import { INITIAL_STATE } from '../../src/state/client-state.js';
import type { Store } from '../../src/state/store.js';
import {
  addClanUser,
  apiRole,
  apiUser,
  CHANNEL,
  CLAN,
  channelCreated,
  channelDeleted,
  channelDesc,
  channelUpdated,
  clanDesc,
  dmDesc,
  dmEvent,
  ev,
  eventRole,
  member,
  message,
  messageEvent,
  newStore,
  reactionEvent,
  roleAssign,
  roleEvent,
  SELF,
  streamingJoined,
  streamingLeft,
  userClanRemoved,
  voiceEnded,
  voiceJoined,
  voiceLeft,
  voiceStarted,
} from './fixtures.js';

const windowIds = (state: ClientState, channelId = CHANNEL) => state.messages.get(channelId)?.values().map((m) => m.message_id) ?? [];
const cached = (state: ClientState, messageId: string, channelId = CHANNEL) => state.messages.get(channelId)?.get(messageId);
const memberIds = (state: ClientState, clanId = CLAN) => [...(state.members.get(clanId)?.keys() ?? [])].sort();

/** A store that knows clan1 with channel c1 and members alice, bob and the bot. */
function seeded(limits: Parameters<typeof newStore>[0] = {}) {
  const made = newStore(limits);
  made.store.dispatch({ type: 'sync/clans', clans: [clanDesc(CLAN)] });
  made.store.dispatch({ type: 'sync/channels', channels: [channelDesc(CHANNEL, CLAN, { channel_label: 'general' })], replaceClanId: CLAN });
  made.store.dispatch({ type: 'sync/members', clanId: CLAN, members: [member('alice'), member('bob'), member(SELF)] });
  return made;
}

describe('dispatch', () => {
  it('applies synchronously: the state is new before dispatch returns', () => {
    const { store } = newStore();
    expect(store.state).toBe(INITIAL_STATE);
    store.dispatch(messageEvent());
    expect(cached(store.state, 'm1')?.content).toEqual({ t: 'text of m1' });
  });

  it('keeps the same state object for an action that changes nothing, and state$ does not emit for it', () => {
    const { store } = seeded();
    store.dispatch(messageEvent());
    const states: ClientState[] = [];
    const subscription = store.state$.subscribe((s) => states.push(s));
    const before = store.state;
    store.dispatch(voiceStarted('v1'));
    store.dispatch(ev(Events.GiveCoffee, { sender_id: 'a', receiver_id: 'b', token_count: 1, message_ref_id: 'm1', channel_id: CHANNEL, clan_id: CLAN }));
    store.dispatch({ type: 'local/message-removed', channelId: 'nowhere', messageId: 'x' });
    expect(store.state).toBe(before);
    expect(states).toEqual([before]);
    subscription.unsubscribe();
  });
});

describe('channel messages', () => {
  it('a new message enters its channel window; the channel and the sender become known', () => {
    const { store } = newStore();
    store.dispatch(messageEvent({ message_id: 'm1', channel_label: 'general' }));
    const s = store.state;
    expect(windowIds(s)).toEqual(['m1']);
    expect(s.messageCount).toBe(1);
    expect(s.channels.get(CHANNEL)).toMatchObject({ channel_id: CHANNEL, clan_id: CLAN, channel_label: 'general', type: ChannelType.CHANNEL_TYPE_CHANNEL });
    expect(s.clanChannels.get(CLAN)).toEqual([CHANNEL]);
    expect(s.users.get('alice')).toEqual({ id: 'alice', username: 'alice', display_name: 'Alice', avatar: 'https://cdn.example/alice.png' });
  });

  it('cached records are deeply frozen', () => {
    const { store } = newStore();
    store.dispatch(messageEvent({ content: { t: 'x', mk: [{ type: 'b', s: 0, e: 1 }] } }));
    const record = cached(store.state, 'm1')!;
    expect(Object.isFrozen(record)).toBe(true);
    expect(Object.isFrozen(record.content)).toBe(true);
    expect(Object.isFrozen(record.content.mk)).toBe(true);
  });

  it('messages of a thread and of a DM make channels of those types', () => {
    const { store } = newStore();
    store.dispatch(messageEvent({ channel_id: 't1', mode: ChannelStreamMode.STREAM_MODE_THREAD, channel_label: 'a thread' }));
    store.dispatch(dmEvent('dm1', 'carol'));
    expect(store.state.channels.get('t1')).toMatchObject({ type: ChannelType.CHANNEL_TYPE_THREAD, clan_id: CLAN });
    expect(store.state.channels.get('dm1')).toMatchObject({ type: ChannelType.CHANNEL_TYPE_DM, clan_id: DM_CLAN_ID });
  });

  it('a message with a new channel label renames the cached channel', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ channel_label: 'renamed' }));
    expect(store.state.channels.get(CHANNEL)?.channel_label).toBe('renamed');
    store.dispatch(messageEvent({ message_id: 'm2', channel_label: '' }));
    expect(store.state.channels.get(CHANNEL)?.channel_label).toBe('renamed');
  });

  it('a message carries the sender’s clan nickname into the membership', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ clan_nick: 'Ally', clan_avatar: 'https://cdn.example/ally.png' }));
    expect(store.state.members.get(CLAN)?.get('alice')).toMatchObject({ clan_nick: 'Ally', clan_avatar: 'https://cdn.example/ally.png' });
  });

  it('code 1 (edit) replaces content, mentions and update time, keeps reactions and position', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1', create_time_seconds: 1 }));
    store.dispatch(messageEvent({ message_id: 'm2', create_time_seconds: 2 }));
    store.dispatch(reactionEvent({ message_id: 'm1', count: 1 }));
    store.dispatch(
      messageEvent({ message_id: 'm1', code: TypeMessage.ChatUpdate, content: { t: 'edited' }, mentions: [{ user_id: 'bob', s: 0, e: 3 }], update_time_seconds: 5000, reactions: [] }),
    );
    const record = cached(store.state, 'm1');
    expect(record?.content).toEqual({ t: 'edited' });
    expect(record?.mentions).toEqual([{ user_id: 'bob', s: 0, e: 3 }]);
    expect(record?.update_time_seconds).toBe(5000);
    expect(record?.code).toBe(TypeMessage.Chat);
    expect(record?.reactions).toEqual([expect.objectContaining({ emoji_id: 'tada', count: 1 })]);
    expect(windowIds(store.state)).toEqual(['m1', 'm2']);
    expect(store.state.messageCount).toBe(2);
  });

  it('an edit of a message not cached puts it into the window in time order', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm5', create_time_seconds: 50 }));
    store.dispatch(messageEvent({ message_id: 'm3', code: TypeMessage.ChatUpdate, create_time_seconds: 30, content: { t: 'old, edited' } }));
    expect(windowIds(store.state)).toEqual(['m3', 'm5']);
    expect(cached(store.state, 'm3')?.content.t).toBe('old, edited');
  });

  it('code 2 (delete) evicts the message; the last one deleted takes the window with it', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    store.dispatch(messageEvent({ message_id: 'm2' }));
    store.dispatch(messageEvent({ message_id: 'm1', code: TypeMessage.ChatRemove }));
    expect(windowIds(store.state)).toEqual(['m2']);
    expect(store.state.messageCount).toBe(1);
    store.dispatch(messageEvent({ message_id: 'm2', code: TypeMessage.ChatRemove }));
    expect(store.state.messages.has(CHANNEL)).toBe(false);
    expect(store.state.messageCount).toBe(0);
    // The channel itself stays.
    expect(store.state.channels.has(CHANNEL)).toBe(true);
  });

  it('deleting a message that is not cached changes nothing', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    const before = store.state;
    store.dispatch(messageEvent({ message_id: 'zz', code: TypeMessage.ChatRemove }));
    expect(store.state).toBe(before);
  });

  it('ephemeral messages: code 12 is kept, 14 edits it, 15 evicts it', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'e1', code: TypeMessage.Ephemeral, content: { t: 'only you' } }));
    expect(cached(store.state, 'e1')?.content.t).toBe('only you');
    store.dispatch(messageEvent({ message_id: 'e1', code: TypeMessage.UpdateEphemeralMsg, content: { t: 'only you, edited' } }));
    expect(cached(store.state, 'e1')?.content.t).toBe('only you, edited');
    expect(store.state.messageCount).toBe(1);
    store.dispatch(messageEvent({ message_id: 'e1', code: TypeMessage.DeleteEphemeralMsg }));
    expect(cached(store.state, 'e1')).toBeUndefined();
    expect(store.state.messageCount).toBe(0);
  });

  it('code 3 (typing) and 4 (indicator) are not messages: nothing is kept and the state does not change', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    const before = store.state;
    store.dispatch(messageEvent({ message_id: 'typing-1', code: TypeMessage.Typing, content: {} }));
    store.dispatch(messageEvent({ message_id: 'read-1', code: TypeMessage.Indicator, content: {} }));
    expect(store.state).toBe(before);
    expect(windowIds(store.state)).toEqual(['m1']);
  });

  it('with messagesPerChannel 0 no message is kept; the channel and the sender are still learned', () => {
    const { store } = seeded({ messagesPerChannel: 0 });
    store.dispatch(messageEvent({ message_id: 'm1', sender_id: 'carol', username: 'carol' }));
    expect(store.state.messages.size).toBe(0);
    expect(store.state.messageCount).toBe(0);
    expect(store.state.users.get('carol')?.username).toBe('carol');
    expect(store.state.channels.has(CHANNEL)).toBe(true);
  });

  it('typing in a channel with no messages yet creates no window', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'typing-1', code: TypeMessage.Typing, content: {} }));
    expect(store.state.messages.has(CHANNEL)).toBe(false);
    expect(store.state.messageCount).toBe(0);
  });
});

describe('reactions', () => {
  it('counts and sender_ids follow adds and removals; the reaction goes at count 0', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    const reactions = () => cached(store.state, 'm1')?.reactions;

    store.dispatch(reactionEvent({ sender_id: 'bob', count: 1 }));
    expect(reactions()).toEqual([{ emoji_id: 'tada', emoji: '🎉', count: 1, sender_ids: ['bob'] }]);
    store.dispatch(reactionEvent({ sender_id: 'carol', count: 2 }));
    expect(reactions()).toEqual([{ emoji_id: 'tada', emoji: '🎉', count: 2, sender_ids: ['bob', 'carol'] }]);
    store.dispatch(reactionEvent({ emoji_id: 'heart', emoji: '❤️', sender_id: 'bob', count: 1 }));
    expect(reactions()?.map((r) => `${r.emoji_id}:${r.count}`)).toEqual(['tada:2', 'heart:1']);

    store.dispatch(reactionEvent({ sender_id: 'bob', action: true, count: 1 }));
    expect(reactions()?.[0]).toEqual({ emoji_id: 'tada', emoji: '🎉', count: 1, sender_ids: ['carol'] });
    store.dispatch(reactionEvent({ sender_id: 'carol', action: true, count: 0 }));
    expect(reactions()).toEqual([{ emoji_id: 'heart', emoji: '❤️', count: 1, sender_ids: ['bob'] }]);
    // The rest of the message is untouched.
    expect(cached(store.state, 'm1')?.content.t).toBe('text of m1');
  });

  it('the same sender reacting twice is counted as the server says, and listed once', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    store.dispatch(reactionEvent({ sender_id: 'bob', count: 1 }));
    store.dispatch(reactionEvent({ sender_id: 'bob', count: 1 }));
    expect(cached(store.state, 'm1')?.reactions).toEqual([{ emoji_id: 'tada', emoji: '🎉', count: 1, sender_ids: ['bob'] }]);
  });

  it('a reaction to a message or channel that is not cached changes nothing', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    const before = store.state;
    store.dispatch(reactionEvent({ message_id: 'unknown' }));
    store.dispatch(reactionEvent({ channel_id: 'other', message_id: 'm1' }));
    expect(store.state).toBe(before);
  });
});

describe('channels', () => {
  it('a listed description becomes the record, frozen; listing it again changes nothing; a listing with one field changed makes a new record with it', () => {
    const { store } = newStore();
    const listed = channelDesc('c1', CLAN, { channel_label: 'general', user_ids: ['u1'] });
    store.dispatch({ type: 'sync/channels', channels: [listed] });
    const record = store.state.channels.get('c1')!;
    expect(record).toBe(listed);
    expect(Object.isFrozen(record) && Object.isFrozen(record.user_ids)).toBe(true);
    const before = store.state;
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c1', CLAN, { channel_label: 'general', user_ids: ['u1'] })] });
    expect(store.state).toBe(before);
    store.dispatch({ type: 'sync/channels', channels: [{ channel_id: 'c1', clan_id: CLAN, channel_label: 'renamed' }] });
    const renamed = store.state.channels.get('c1')!;
    expect(renamed).not.toBe(record);
    expect(renamed).toEqual({ ...record, channel_label: 'renamed' });
    expect(Object.isFrozen(renamed)).toBe(true);
    expect(record.channel_label).toBe('general');
  });

  it('a listing keeps the clan index exact: new channels appended in order, one listed twice or moved to another clan indexed once, where it is', () => {
    const { store } = newStore();
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c1'), channelDesc('c2')] });
    const before = store.state;
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c3'), channelDesc('c3'), channelDesc('c4', 'clan2'), channelDesc('c2', 'clan2'), channelDesc('c5')] });
    expect(store.state.clanChannels.get(CLAN)).toEqual(['c1', 'c3', 'c5']);
    expect(store.state.clanChannels.get('clan2')).toEqual(['c4', 'c2']);
    expect(store.state.channels.get('c2')?.clan_id).toBe('clan2');
    // The state handed out before the listing is as it was.
    expect(before.clanChannels.get(CLAN)).toEqual(['c1', 'c2']);
    expect([...before.channels.keys()].sort()).toEqual(['c1', 'c2']);
  });

  it('created, then updated: the record follows and the channel keeps its message window', () => {
    const { store } = seeded();
    store.dispatch(channelCreated('c2', { channel_label: 'news' }));
    expect(store.state.channels.get('c2')).toMatchObject({ channel_id: 'c2', clan_id: CLAN, channel_label: 'news', type: ChannelType.CHANNEL_TYPE_CHANNEL, channel_private: 0 });
    expect(store.state.clanChannels.get(CLAN)).toEqual([CHANNEL, 'c2']);

    store.dispatch(messageEvent({ message_id: 'm1', channel_id: 'c2', channel_label: 'news' }));
    store.dispatch(messageEvent({ message_id: 'm2', channel_id: 'c2', channel_label: 'news' }));
    const window = store.state.messages.get('c2');
    store.dispatch(channelUpdated('c2', { channel_label: 'world news', topic: 'everything', meeting_code: 'abc-def' }));
    expect(store.state.channels.get('c2')).toMatchObject({ channel_label: 'world news', topic: 'everything', meeting_code: 'abc-def' });
    expect(store.state.messages.get('c2')).toBe(window);
    expect(windowIds(store.state, 'c2')).toEqual(['m1', 'm2']);
    expect(store.state.clanChannels.get(CLAN)).toEqual([CHANNEL, 'c2']);
    expect(store.state.messageCount).toBe(2);
  });

  it('an update that repeats the record changes nothing', () => {
    const { store } = seeded();
    store.dispatch(channelUpdated('c2', { channel_label: 'news' }));
    const before = store.state;
    store.dispatch(channelUpdated('c2', { channel_label: 'news' }));
    expect(store.state).toBe(before);
  });

  it('deleted: the channel, its window, its voice room and the DM mapping go', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    store.dispatch(messageEvent({ message_id: 'm9', channel_id: 'c9' }));
    store.dispatch(voiceJoined(CHANNEL, 'bob'));
    store.dispatch(channelDeleted(CHANNEL));
    const s = store.state;
    expect(s.channels.has(CHANNEL)).toBe(false);
    expect(s.clanChannels.get(CLAN)).toEqual(['c9']);
    expect(s.messages.has(CHANNEL)).toBe(false);
    expect(s.messageCount).toBe(1);
    expect(s.presence.has(CHANNEL)).toBe(false);

    store.dispatch(dmEvent('dm1', 'carol'));
    expect(store.state.dmChannels.get('carol')).toBe('dm1');
    store.dispatch(channelDeleted('dm1', DM_CLAN_ID));
    expect(store.state.dmChannels.has('carol')).toBe(false);
    expect(store.state.channels.has('dm1')).toBe(false);
  });

  it('user_channel_added: the channel is learned (with its clan) and so are the users', () => {
    const { store } = seeded();
    store.dispatch(
      ev(Events.UserChannelAdded, {
        channel_desc: { channel_id: 'p1', channel_label: 'staff', channel_private: 1, type: ChannelType.CHANNEL_TYPE_CHANNEL },
        users: [{ user_id: 'dave', username: 'dave', display_name: '', avatar: '' }],
        status: 1,
        clan_id: CLAN,
        caller: 'alice',
      }),
    );
    expect(store.state.channels.get('p1')).toMatchObject({ clan_id: CLAN, channel_label: 'staff', channel_private: 1 });
    expect(store.state.clanChannels.get(CLAN)).toContain('p1');
    expect(store.state.users.get('dave')).toMatchObject({ username: 'dave', display_name: 'dave' });
  });

  it('user_channel_removed: the bot losing a private channel forgets it; a public one, or someone else leaving, changes nothing', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('p1', CLAN, { channel_private: 1 })] });
    const removed = (channelId: string, userIds: string[]) => ev(Events.UserChannelRemoved, { channel_id: channelId, user_ids: userIds, channel_type: 1, clan_id: CLAN });
    const before = store.state;
    store.dispatch(removed('p1', ['bob']));
    store.dispatch(removed(CHANNEL, [SELF]));
    expect(store.state).toBe(before);
    store.dispatch(removed('p1', [SELF]));
    expect(store.state.channels.has('p1')).toBe(false);
    expect(store.state.clanChannels.get(CLAN)).toEqual([CHANNEL]);
  });
});

describe('users and members', () => {
  it('sync/members caches members (nicknames, roles) and their users', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/members', clanId: CLAN, members: [member('carol', { clan_nick: 'Caz', role_ids: ['r1'] })] });
    expect(store.state.members.get(CLAN)?.get('carol')).toEqual({ user_id: 'carol', clan_nick: 'Caz', clan_avatar: '', role_ids: ['r1'] });
    expect(store.state.users.get('carol')).toMatchObject({ id: 'carol', username: 'carol', display_name: 'CAROL', avatar: 'https://cdn.example/carol.png' });
    expect(memberIds(store.state)).toEqual(['alice', 'bob', 'bot', 'carol']);
  });

  it('sync/members with replace forgets members not listed', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/members', clanId: CLAN, members: [member('alice')], replace: true });
    expect(memberIds(store.state)).toEqual(['alice']);
  });

  it('add_clan_user: a member is added to a loaded clan; an unloaded clan stays unloaded; the user is cached either way', () => {
    const { store } = seeded();
    store.dispatch(addClanUser(CLAN, 'dave'));
    expect(store.state.members.get(CLAN)?.get('dave')).toEqual({ user_id: 'dave', clan_nick: '', clan_avatar: '', role_ids: [] });
    store.dispatch(addClanUser('clan2', 'erin'));
    expect(store.state.members.has('clan2')).toBe(false);
    expect(store.state.users.get('erin')).toMatchObject({ username: 'erin', display_name: 'ERIN' });
  });

  it('user_clan_removed: the member goes from that clan only; the user stays cached while in another clan', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('clan2')] });
    store.dispatch({ type: 'sync/members', clanId: 'clan2', members: [member('bob'), member(SELF)] });
    store.dispatch(userClanRemoved(CLAN, ['bob']));
    expect(memberIds(store.state)).toEqual(['alice', 'bot']);
    expect(memberIds(store.state, 'clan2')).toEqual(['bob', 'bot']);
    expect(store.state.users.get('bob')).toMatchObject({ username: 'bob' });
    // The clan itself stays: only the bot leaving removes it.
    expect(store.state.clans.has(CLAN)).toBe(true);
  });

  it('sync/users caches profiles (display name defaults to the username)', () => {
    const { store } = newStore();
    store.dispatch({ type: 'sync/users', users: [{ id: 'u1', username: 'one' }, { ...apiUser('u2'), is_bot: true }] });
    expect(store.state.users.get('u1')).toEqual({ id: 'u1', username: 'one', display_name: 'one', avatar: '' });
    expect(store.state.users.get('u2')).toMatchObject({ is_bot: true, display_name: 'U2' });
  });
});

describe('roles', () => {
  it('created (with members), updated, assigned, unassigned: roles and member role_ids follow', () => {
    const { store } = seeded();
    const role = (id: string) => store.state.roles.get(CLAN)?.[id];
    const rolesOf = (userId: string) => store.state.members.get(CLAN)?.get(userId)?.role_ids;

    store.dispatch(roleEvent(eventRole('r1', { title: 'Helper' }), RoleEventStatus.Created, ['alice']));
    expect(role('r1')).toMatchObject({ id: 'r1', clan_id: CLAN, title: 'Helper', color: '#ff0000', user_ids: ['alice'] });
    expect(rolesOf('alice')).toEqual(['r1']);
    expect(rolesOf('bob')).toEqual([]);

    store.dispatch(roleEvent(eventRole('r1', { title: 'Senior Helper', color: '#00ff00' }), RoleEventStatus.Updated, ['bob'], ['alice']));
    expect(role('r1')).toMatchObject({ title: 'Senior Helper', color: '#00ff00', user_ids: ['bob'] });
    expect(rolesOf('alice')).toEqual([]);
    expect(rolesOf('bob')).toEqual(['r1']);

    store.dispatch(roleAssign('r1', ['alice', SELF], ['bob']));
    expect(role('r1')?.user_ids).toEqual(['alice', SELF]);
    expect(rolesOf('alice')).toEqual(['r1']);
    expect(rolesOf(SELF)).toEqual(['r1']);
    expect(rolesOf('bob')).toEqual([]);
  });

  it('sync/roles adds to the cached roles; with replace (a complete listing) it replaces them', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/roles', clanId: CLAN, roles: [apiRole('r1', ['alice']), apiRole('r2')] });
    expect(Object.keys(store.state.roles.get(CLAN) ?? {}).sort()).toEqual(['r1', 'r2']);
    store.dispatch({ type: 'sync/roles', clanId: CLAN, roles: [apiRole('r3')] });
    expect(Object.keys(store.state.roles.get(CLAN) ?? {}).sort()).toEqual(['r1', 'r2', 'r3']);
    store.dispatch({ type: 'sync/roles', clanId: CLAN, roles: [apiRole('r2')], replace: true });
    expect(Object.keys(store.state.roles.get(CLAN) ?? {})).toEqual(['r2']);
  });

  it('deleted: the role goes', () => {
    const { store } = seeded();
    store.dispatch(roleEvent(eventRole('r1'), RoleEventStatus.Created, ['alice']));
    store.dispatch(roleEvent(eventRole('r2'), RoleEventStatus.Created));
    store.dispatch(roleEvent(eventRole('r1'), RoleEventStatus.Deleted));
    expect(Object.keys(store.state.roles.get(CLAN) ?? {})).toEqual(['r2']);
  });

  // reducers/members.ts only applies user_add_ids/user_remove_ids of a role_event, whatever its status,
  // so members of a deleted role keep its id in role_ids.
  it('deleted: members no longer list the deleted role in role_ids', () => {
    const { store } = seeded();
    store.dispatch(roleEvent(eventRole('r1'), RoleEventStatus.Created, ['alice']));
    store.dispatch(roleEvent(eventRole('r1'), RoleEventStatus.Deleted));
    expect(store.state.members.get(CLAN)?.get('alice')?.role_ids).toEqual([]);
  });

  it('an assignment of a role not cached still updates member role_ids', () => {
    const { store } = seeded();
    store.dispatch(roleAssign('r9', ['bob']));
    expect(store.state.roles.get(CLAN)?.r9).toBeUndefined();
    expect(store.state.members.get(CLAN)?.get('bob')?.role_ids).toEqual(['r9']);
  });
});

describe('voice and streaming', () => {
  it('joined and left: who is in which room; the last to leave closes the room', () => {
    const { store } = seeded();
    store.dispatch(voiceJoined('v1', 'alice'));
    store.dispatch(voiceJoined('v1', 'bob'));
    expect(store.state.presence.get('v1')).toEqual({
      alice: { id: 'p-alice', user_id: 'alice', channel_id: 'v1', clan_id: CLAN, participant: 'ALICE', kind: 'voice' },
      bob: { id: 'p-bob', user_id: 'bob', channel_id: 'v1', clan_id: CLAN, participant: 'BOB', kind: 'voice' },
    });
    store.dispatch(voiceLeft('v1', 'alice'));
    expect(Object.keys(store.state.presence.get('v1') ?? {})).toEqual(['bob']);
    const before = store.state;
    store.dispatch(voiceLeft('v1', 'alice'));
    expect(store.state).toBe(before);
    store.dispatch(voiceLeft('v1', 'bob'));
    expect(store.state.presence.has('v1')).toBe(false);
  });

  it('voice ended empties the room; voice started changes nothing', () => {
    const { store } = seeded();
    const before = store.state;
    store.dispatch(voiceStarted('v1'));
    expect(store.state).toBe(before);
    store.dispatch(voiceJoined('v1', 'alice'));
    store.dispatch(voiceJoined('v1', 'bob'));
    store.dispatch(voiceEnded('v1'));
    expect(store.state.presence.has('v1')).toBe(false);
  });

  it('streaming joined and left', () => {
    const { store } = seeded();
    store.dispatch(streamingJoined('s1', 'carol'));
    expect(store.state.presence.get('s1')?.carol).toMatchObject({ kind: 'streaming', channel_id: 's1', participant: 'CAROL' });
    store.dispatch(streamingLeft('s1', 'carol'));
    expect(store.state.presence.has('s1')).toBe(false);
  });

  it('sync/presence adds listed users with the kind asked for', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/presence', clanId: CLAN, kind: 'voice', users: [{ id: 'p1', user_id: 'bob', channel_id: 'v1', participant: 'Bob' }] });
    expect(store.state.presence.get('v1')?.bob).toEqual({ id: 'p1', user_id: 'bob', channel_id: 'v1', clan_id: CLAN, participant: 'Bob', kind: 'voice' });
  });
});

describe('DM channels', () => {
  it('learned from a direct message: the sender maps to the channel, which is cached as a DM', () => {
    const { store } = newStore();
    store.dispatch(dmEvent('dm1', 'carol'));
    expect(store.state.dmChannels.get('carol')).toBe('dm1');
    expect(store.state.channels.get('dm1')).toMatchObject({ clan_id: DM_CLAN_ID, type: ChannelType.CHANNEL_TYPE_DM });
    expect(store.state.clanChannels.get(DM_CLAN_ID)).toEqual(['dm1']);
  });

  it('the bot’s own direct messages map nothing', () => {
    const { store } = newStore();
    store.dispatch(dmEvent('dm1', SELF));
    expect(store.state.dmChannels.size).toBe(0);
  });

  it('learned from listings: DM channels map their other participant; group channels map nobody', () => {
    const { store } = newStore();
    store.dispatch({ type: 'sync/dm-channels', channels: [dmDesc('dm1', 'carol'), dmDesc('g1', 'dave', ChannelType.CHANNEL_TYPE_GROUP)] });
    expect(Object.fromEntries(store.state.dmChannels)).toEqual({ carol: 'dm1' });
    expect(store.state.channels.get('g1')).toMatchObject({ clan_id: DM_CLAN_ID, type: ChannelType.CHANNEL_TYPE_GROUP });
  });

  it('a listing with replace forgets DM channels no longer listed', () => {
    const { store } = newStore();
    store.dispatch({ type: 'sync/dm-channels', channels: [dmDesc('dm1', 'carol'), dmDesc('dm2', 'dave')] });
    store.dispatch({ type: 'sync/dm-channels', channels: [dmDesc('dm2', 'dave')], replace: true });
    expect(Object.fromEntries(store.state.dmChannels)).toEqual({ dave: 'dm2' });
    expect(store.state.channels.has('dm1')).toBe(false);
    expect(store.state.clanChannels.get(DM_CLAN_ID)).toEqual(['dm2']);
  });

  // reducers/dm-channels.ts answers every sync/dm-channels with dms.setMany(...), and PersistentMap.setMany
  // returns a new map for any non-empty batch, so a listing that changes nothing still makes a new state.
  it('a listing that repeats what is cached changes nothing (same state, no state$ emission)', () => {
    const { store } = newStore();
    store.dispatch({ type: 'sync/dm-channels', channels: [dmDesc('dm1', 'carol')] });
    const before = store.state;
    store.dispatch({ type: 'sync/dm-channels', channels: [dmDesc('dm1', 'carol')] });
    expect(store.state).toBe(before);
  });
});

describe('the bot removed from a clan', () => {
  function twoClans() {
    const made = seeded();
    const { store } = made;
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('clan2')] });
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c2', CLAN), channelDesc('x1', 'clan2')] });
    store.dispatch({ type: 'sync/members', clanId: 'clan2', members: [member('alice'), member(SELF)] });
    store.dispatch({ type: 'sync/roles', clanId: CLAN, roles: [apiRole('r1')] });
    store.dispatch({ type: 'sync/roles', clanId: 'clan2', roles: [apiRole('q1', [], 'clan2')] });
    store.dispatch(messageEvent({ message_id: 'm1' }));
    store.dispatch(messageEvent({ message_id: 'x-m1', channel_id: 'x1', clan_id: 'clan2' }));
    return made;
  }

  it('forgets that clan, its channels, members and roles; the other clan stays whole', () => {
    const { store } = twoClans();
    store.dispatch(userClanRemoved(CLAN, [SELF]));
    const s = store.state;
    expect([...s.clans.keys()]).toEqual(['clan2']);
    expect(s.channels.has(CHANNEL)).toBe(false);
    expect(s.channels.has('c2')).toBe(false);
    expect(s.clanChannels.has(CLAN)).toBe(false);
    expect(s.members.has(CLAN)).toBe(false);
    expect(s.roles.has(CLAN)).toBe(false);
    expect(s.channels.has('x1')).toBe(true);
    expect(memberIds(s, 'clan2')).toEqual(['alice', 'bot']);
    expect(Object.keys(s.roles.get('clan2') ?? {})).toEqual(['q1']);
    expect(windowIds(s, 'x1')).toEqual(['x-m1']);
    // Users stay cached (alice is still in clan2).
    expect(s.users.has('alice')).toBe(true);
  });

  // reducers/messages.ts has no case for the bot leaving a clan: the windows of the forgotten
  // channels stay in state.messages and in messageCount.
  it('forgets the message windows of that clan’s channels too', () => {
    const { store } = twoClans();
    store.dispatch(userClanRemoved(CLAN, [SELF]));
    expect(store.state.messages.has(CHANNEL)).toBe(false);
    expect(store.state.messageCount).toBe(1);
  });
});

describe('sync with replace', () => {
  it('sync/clans replace forgets clans no longer listed, with their channels and members; DM channels stay', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('clan2')] });
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('x1', 'clan2')], replaceClanId: 'clan2' });
    store.dispatch({ type: 'sync/dm-channels', channels: [dmDesc('dm1', 'carol')] });
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('clan2')], replace: true });
    const s = store.state;
    expect([...s.clans.keys()]).toEqual(['clan2']);
    expect(s.channels.has(CHANNEL)).toBe(false);
    expect(s.clanChannels.has(CLAN)).toBe(false);
    expect(s.members.has(CLAN)).toBe(false);
    expect(s.channels.has('x1')).toBe(true);
    expect(s.channels.has('dm1')).toBe(true);
    expect(s.dmChannels.get('carol')).toBe('dm1');
  });

  // reducers/roles.ts does not handle sync/clans with replace: roles of a clan the bot is no longer in stay.
  it('sync/clans replace forgets the roles of clans no longer listed', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/roles', clanId: CLAN, roles: [apiRole('r1')] });
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('clan2')], replace: true });
    expect(store.state.roles.has(CLAN)).toBe(false);
  });

  it('sync/channels with replaceClanId forgets that clan’s channels not listed, and no other clan’s', () => {
    const { store } = seeded();
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c2'), channelDesc('c3'), channelDesc('x1', 'clan2')] });
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c3', CLAN, { channel_label: 'renamed' }), channelDesc('c4')], replaceClanId: CLAN });
    const s = store.state;
    expect([...(s.clanChannels.get(CLAN) ?? [])].sort()).toEqual(['c3', 'c4']);
    expect(s.channels.has(CHANNEL)).toBe(false);
    expect(s.channels.has('c2')).toBe(false);
    expect(s.channels.get('c3')?.channel_label).toBe('renamed');
    expect(s.channels.has('x1')).toBe(true);
  });

  // Same cause as for the bot leaving a clan: reducers/messages.ts ignores channels forgotten by a listing.
  it('sync/channels with replaceClanId forgets the windows of the channels it forgets', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c2')], replaceClanId: CLAN });
    expect(store.state.channels.has(CHANNEL)).toBe(false);
    expect(store.state.messages.has(CHANNEL)).toBe(false);
  });

  it('sync/messages with replace makes the list the whole window; without, merges by time', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1', create_time_seconds: 10 }));
    store.dispatch(messageEvent({ message_id: 'm2', create_time_seconds: 20 }));
    store.dispatch({ type: 'sync/messages', channelId: CHANNEL, messages: [message({ message_id: 'm0', create_time_seconds: 5 })] });
    expect(windowIds(store.state)).toEqual(['m0', 'm1', 'm2']);
    expect(store.state.messageCount).toBe(3);
    store.dispatch({ type: 'sync/messages', channelId: CHANNEL, messages: [message({ message_id: 'm2', create_time_seconds: 20 }), message({ message_id: 'm3', create_time_seconds: 30 })], replace: true });
    expect(windowIds(store.state)).toEqual(['m2', 'm3']);
    expect(store.state.messageCount).toBe(2);
    store.dispatch({ type: 'sync/messages', channelId: CHANNEL, messages: [], replace: true });
    expect(store.state.messages.has(CHANNEL)).toBe(false);
    expect(store.state.messageCount).toBe(0);
  });

  // MessageWindow.merge puts the held messages after the new ones before de-duplicating by id, so a
  // fetched (newer) copy of a cached message loses: messages.fetch(id, { force: true }) cannot refresh it.
  it('sync/messages (a forced fetch) with a newer copy of a cached message replaces the cached copy', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1', content: { t: 'old' }, update_time_seconds: 10 }));
    store.dispatch({ type: 'sync/messages', channelId: CHANNEL, messages: [message({ message_id: 'm1', content: { t: 'new' }, update_time_seconds: 20 })] });
    expect(cached(store.state, 'm1')?.content.t).toBe('new');
  });

  it('local/message-removed evicts one message; local/reset forgets everything', () => {
    const { store } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    store.dispatch(messageEvent({ message_id: 'm2' }));
    store.dispatch({ type: 'local/message-removed', channelId: CHANNEL, messageId: 'm1' });
    expect(windowIds(store.state)).toEqual(['m2']);
    store.dispatch(dmEvent('dm1', 'carol'));
    store.dispatch(voiceJoined('v1', 'bob'));
    store.dispatch({ type: 'sync/roles', clanId: CLAN, roles: [apiRole('r1')] });
    store.dispatch({ type: 'local/reset' });
    const s = store.state;
    for (const key of ['clans', 'channels', 'clanChannels', 'users', 'members', 'messages', 'dmChannels', 'roles', 'presence'] as const) {
      expect(s[key].size, key).toBe(0);
    }
    expect(s.messageCount).toBe(0);
  });
});

describe('a reducer that throws', () => {
  it('is reported as a ProtocolError naming the action; the state is kept and the store goes on', () => {
    const { store, errors } = seeded();
    store.dispatch(messageEvent({ message_id: 'm1' }));
    const before = store.state;
    const states: ClientState[] = [];
    const subscription = store.state$.subscribe((s) => states.push(s));
    // A role_event without a role: the roles reducer reads role.clan_id.
    store.dispatch(ev(Events.RoleEvent, {} as RoleEvent));
    expect(store.state).toBe(before);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ProtocolError);
    expect(errors[0]?.message).toMatch(/could not apply role_event/);

    store.dispatch(messageEvent({ message_id: 'm2' }));
    expect(windowIds(store.state)).toEqual(['m1', 'm2']);
    expect(states).toHaveLength(2);
    expect(errors).toHaveLength(1);
    subscription.unsubscribe();
  });
});

describe('state$ and select', () => {
  it('state$ replays the current state, then emits each new one', () => {
    const { store } = newStore();
    const states: ClientState[] = [];
    const subscription = store.state$.subscribe((s) => states.push(s));
    store.dispatch(messageEvent({ message_id: 'm1' }));
    store.dispatch(messageEvent({ message_id: 'm2' }));
    expect(states).toHaveLength(3);
    expect(states[0]).toBe(INITIAL_STATE);
    expect(states[2]).toBe(store.state);
    expect(windowIds(states[1]!)).toEqual(['m1']);
    subscription.unsubscribe();
  });

  it('select emits a slice only when it changes', () => {
    const { store } = seeded();
    const counts: number[] = [];
    const channelMaps: Array<ClientState['channels']> = [];
    const a = store.select((s) => s.channels.size).subscribe((n) => counts.push(n));
    const b = store.select((s) => s.channels).subscribe((c) => channelMaps.push(c));
    store.dispatch(messageEvent({ message_id: 'm1' }));
    store.dispatch(messageEvent({ message_id: 'm2' }));
    store.dispatch(channelCreated('c2'));
    store.dispatch(channelUpdated('c2', { channel_label: 'renamed' }));
    expect(counts).toEqual([1, 2]);
    expect(channelMaps).toHaveLength(3);
    a.unsubscribe();
    b.unsubscribe();
  });

  it('dispose completes state$', () => {
    const { store } = newStore();
    let completed = false;
    store.state$.subscribe({ complete: () => (completed = true) });
    store.dispose();
    expect(completed).toBe(true);
  });
});

// ---------------- cache bounds ----------------

/** The client's cache views over a store, with every network dependency refused. */
function runtimeOver(store: Store): ClientRuntime {
  const refuse = (): never => {
    throw new Error('no network in this test');
  };
  const deps: RuntimeDeps = {
    api: refuse,
    outbox: refuse,
    clientId: () => SELF,
    sessionToken: () => undefined,
    sendToken: refuse,
    createDmChannel: refuse,
    listClanMembers: refuse,
    listClanChannels: refuse,
  };
  return new ClientRuntime(deps, store, new InMemoryMessageStore(100));
}

describe('cache bounds', () => {
  it('messagesPerChannel: a channel keeps its newest messages', () => {
    const { store } = seeded({ messagesPerChannel: 3 });
    for (let i = 1; i <= 5; i += 1) store.dispatch(messageEvent({ message_id: `m${i}`, create_time_seconds: i }));
    expect(windowIds(store.state)).toEqual(['m3', 'm4', 'm5']);
    expect(store.state.messageCount).toBe(3);
  });

  it('messages (total): whole windows go, least recently active channel first', () => {
    const { store } = seeded({ messagesPerChannel: 3, messages: 5 });
    for (let i = 1; i <= 3; i += 1) store.dispatch(messageEvent({ message_id: `a${i}`, channel_id: 'ca' }));
    for (let i = 1; i <= 2; i += 1) store.dispatch(messageEvent({ message_id: `b${i}`, channel_id: 'cb' }));
    expect(store.state.messageCount).toBe(5);
    store.dispatch(messageEvent({ message_id: 'b3', channel_id: 'cb' }));
    expect(store.state.messages.has('ca')).toBe(false);
    expect(windowIds(store.state, 'cb')).toEqual(['b1', 'b2', 'b3']);
    expect(store.state.messageCount).toBe(3);
    // The channel itself stays cached.
    expect(store.state.channels.has('ca')).toBe(true);
  });

  it('messages (total): reading a channel’s messages counts as activity', () => {
    const { store } = seeded({ messagesPerChannel: 3, messages: 4 });
    const runtime = runtimeOver(store);
    store.dispatch(messageEvent({ message_id: 'a1', channel_id: 'ca' }));
    store.dispatch(messageEvent({ message_id: 'b1', channel_id: 'cb' }));
    store.dispatch(messageEvent({ message_id: 'c1', channel_id: 'cc' }));
    expect(runtime.channelMessages('ca').get('a1')?.message_id).toBe('a1');
    store.dispatch(messageEvent({ message_id: 'c2', channel_id: 'cc' }));
    store.dispatch(messageEvent({ message_id: 'c3', channel_id: 'cc' }));
    expect([...store.state.messages.keys()].sort()).toEqual(['ca', 'cc']);
  });

  it('users: least recently used go first; a read through client.users counts as use', () => {
    const { store } = newStore({ users: 2 });
    const runtime = runtimeOver(store);
    store.dispatch({ type: 'sync/users', users: [apiUser('u1')] });
    store.dispatch({ type: 'sync/users', users: [apiUser('u2')] });
    expect(runtime.users.get('u1')?.username).toBe('u1');
    store.dispatch({ type: 'sync/users', users: [apiUser('u3')] });
    expect([...store.state.users.keys()].sort()).toEqual(['u1', 'u3']);
    expect(runtime.users.get('u2')).toBeUndefined();
    // has() is not a use: u1 goes next.
    expect(runtime.users.has('u1')).toBe(true);
    store.dispatch(messageEvent({ sender_id: 'u4', username: 'u4' }));
    expect([...store.state.users.keys()].sort()).toEqual(['u3', 'u4']);
  });

  it('channels: least recently used go first, with their windows; the clan index follows', () => {
    const { store } = newStore({ channels: 2 });
    const runtime = runtimeOver(store);
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c1')] });
    store.dispatch(messageEvent({ message_id: 'm1', channel_id: 'c2' }));
    expect(runtime.channels.get('c1')?.id).toBe('c1');
    store.dispatch(channelCreated('c3'));
    expect([...store.state.channels.keys()].sort()).toEqual(['c1', 'c3']);
    expect(store.state.messages.has('c2')).toBe(false);
    expect(store.state.messageCount).toBe(0);
    expect([...(store.state.clanChannels.get(CLAN) ?? [])].sort()).toEqual(['c1', 'c3']);
  });

  // src/state/bounds.ts:84 spreads evictWindows(next, gone) last; when none of the evicted channels has a
  // message window it returns `next` itself (the whole state), whose channels/clanChannels undo the eviction.
  it('channels: channels without cached messages are evicted too (the limit holds)', () => {
    const { store } = newStore({ channels: 2 });
    store.dispatch({ type: 'sync/channels', channels: [channelDesc('c1'), channelDesc('c2'), channelDesc('c3')] });
    expect(store.state.channels.size).toBe(2);
    expect(store.state.channels.has('c1')).toBe(false);
    expect(store.state.clanChannels.get(CLAN)).toEqual(['c2', 'c3']);
  });

  it('clans: least recently used go first; a read through client.clans counts as use', () => {
    const { store } = newStore({ clans: 2 });
    const runtime = runtimeOver(store);
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('k1')] });
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('k2')] });
    expect(runtime.clans.get('k1')?.name).toBe('Clan k1');
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('k3')] });
    expect([...store.state.clans.keys()].sort()).toEqual(['k1', 'k3']);
  });

  it('recency stays bounded when entries leave the caches without an eviction (channels written to, then deleted)', () => {
    const { store } = newStore({ channels: 100_000 });
    for (let i = 0; i < 3_000; i += 1) {
      store.dispatch(messageEvent({ message_id: `m${i}`, channel_id: `c${i}`, sender_id: `u${i}`, username: `u${i}` }));
      store.dispatch(channelDeleted(`c${i}`));
    }
    expect(store.state.channels.size).toBe(0);
    expect(store.state.messages.size).toBe(0);
    // Stale keys are dropped once a recency holds more than twice its cache's entries plus a slack of 1,024.
    expect(store.recency.channels.size).toBeLessThanOrEqual(1_025);
    expect(store.recency.windows.size).toBeLessThanOrEqual(1_025);
    expect(store.recency.users.size).toBe(3_000);
  });

  it('within the limits nothing is evicted', () => {
    const { store } = newStore({ users: 10, channels: 10, clans: 10, messages: 100, messagesPerChannel: 10 });
    store.dispatch({ type: 'sync/clans', clans: [clanDesc('k1'), clanDesc('k2')] });
    for (let i = 0; i < 10; i += 1) store.dispatch(messageEvent({ message_id: `m${i}`, channel_id: `c${i % 5}`, sender_id: `u${i}`, username: `u${i}` }));
    expect(store.state.users.size).toBe(10);
    expect(store.state.channels.size).toBe(5);
    expect(store.state.messageCount).toBe(10);
    expect(store.state.clans.size).toBe(2);
  });
});
