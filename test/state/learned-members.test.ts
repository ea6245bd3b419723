/**
 * Members learned from events (src/state/learned-members.ts): a message's
 * sender and a user added to a cached clan join its member list before any
 * listener runs, and those learned members stay within the users limit, the
 * oldest forgotten first. A listing's members are never forgotten.
 */
import { describe, expect, it } from 'vitest';
import type { ClientState } from '../../src/index.js';
import { addClanUser, CLAN, clanDesc, member, messageEvent, newStore, roleAssign } from './fixtures.js';

const memberIds = (state: ClientState, clanId = CLAN) => [...(state.members.get(clanId)?.keys() ?? [])].sort();
const from = (sender: string, over: Parameters<typeof messageEvent>[0] = {}) => messageEvent({ message_id: `m-${sender}-${over.clan_nick ?? ''}`, sender_id: sender, username: sender, ...over });

/** A store that caches clan1 without its member list. */
function withClan(users: number) {
  const made = newStore({ users });
  made.store.dispatch({ type: 'sync/clans', clans: [clanDesc(CLAN)] });
  return made;
}

describe('members learned from events', () => {
  it('stay within the users limit: the oldest learned go first, the latest sender is always in the list', () => {
    const { store } = withClan(3);
    for (const sender of ['u1', 'u2', 'u3']) store.dispatch(from(sender));
    store.dispatch(addClanUser(CLAN, 'u4'));
    expect(memberIds(store.state)).toEqual(['u2', 'u3', 'u4']);
    store.dispatch(from('u5'));
    expect(memberIds(store.state)).toEqual(['u3', 'u4', 'u5']);
    // A sender already in the list is not learned again: nothing is forgotten for them.
    store.dispatch(from('u5', { message_id: 'again' }));
    expect(memberIds(store.state)).toEqual(['u3', 'u4', 'u5']);
  });

  it("never forget a listing's members, nor a learned member a listing has listed since", () => {
    const { store } = withClan(2);
    store.dispatch({ type: 'sync/members', clanId: CLAN, members: [member('alice'), member('bob')] });
    store.dispatch(from('u1'));
    store.dispatch({ type: 'sync/members', clanId: CLAN, members: [member('u1')] });
    for (const sender of ['u2', 'u3', 'u4']) store.dispatch(from(sender));
    expect(memberIds(store.state)).toEqual(['alice', 'bob', 'u1', 'u3', 'u4']);
    expect(store.state.members.get(CLAN)?.get('u1')?.clan_nick).toBe('u1-nick');
  });

  it('forget a learned member whose nickname or roles changed since, like any other', () => {
    const { store } = withClan(1);
    store.dispatch(from('u1', { clan_nick: '' }));
    store.dispatch(from('u1', { clan_nick: 'Uno' }));
    store.dispatch(roleAssign('r1', ['u1']));
    expect(store.state.members.get(CLAN)?.get('u1')).toMatchObject({ clan_nick: 'Uno', role_ids: ['r1'] });
    store.dispatch(from('u2'));
    expect(memberIds(store.state)).toEqual(['u2']);
  });

  it('are not learned for a clan the cache does not hold', () => {
    const { store } = withClan(10);
    store.dispatch(from('u1', { clan_id: 'clan9' }));
    store.dispatch(addClanUser('clan9', 'u2'));
    expect(store.state.members.has('clan9')).toBe(false);
    expect(store.recency.members.size).toBe(0);
  });
});
