/**
 * The channel_message path of the reducer (src/state/reducers/channel-message.ts):
 * it must give the state the generic path (one reducer per resource,
 * src/state/reducer.ts `reduceEach`) gives, for any sequence of messages —
 * new ones, edits, deletions, ephemerals, typing, DMs, renamed channels,
 * unknown channels and senders, changed profiles and nicknames, senders of
 * a cached clan whose member list was never loaded and of a clan not cached.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChannelStreamMode, DM_CLAN_ID, Events, TypeMessage, type ChannelMessage, type ClientState } from '../../../src/index.js';
import type { ReduceContext, StoreAction } from '../../../src/state/actions.js';
import { INITIAL_STATE } from '../../../src/state/client-state.js';
import { newEditToken } from '../../../src/state/edit-token.js';
import { reduce, reduceEach } from '../../../src/state/reducer.js';
import { CHANNEL, CLAN, channelDesc, clanDesc, dmDesc, ev, member, message, SELF } from '../fixtures.js';

/** Everything a state holds, as plain sorted data. */
function plain(state: ClientState): unknown {
  const entries = <V>(map: Iterable<[string, V]>, f: (v: V) => unknown = (v) => v) => [...map].map(([k, v]) => [k, f(v)] as const).sort(([a], [b]) => a.localeCompare(b));
  return {
    clans: entries(state.clans),
    channels: entries(state.channels),
    clanChannels: entries(state.clanChannels, (ids) => [...ids].sort()),
    users: entries(state.users),
    members: entries(state.members, (clan) => entries(clan)),
    messages: entries(state.messages, (window) => window.values()),
    messageCount: state.messageCount,
    dmChannels: entries(state.dmChannels),
    roles: entries(state.roles),
    presence: entries(state.presence),
  };
}

/** A clan the cache holds without its member list, and one it does not hold at all. */
const UNLOADED = 'clan2';
const UNKNOWN = 'clan3';

const setup: StoreAction[] = [
  { type: 'sync/clans', clans: [clanDesc(CLAN), clanDesc(UNLOADED)] },
  { type: 'sync/channels', channels: [channelDesc(CHANNEL, CLAN, { channel_label: 'general' }), channelDesc('c2', CLAN, { channel_label: 'random' })], replaceClanId: CLAN },
  { type: 'sync/channels', channels: [channelDesc('c4', UNLOADED)], replaceClanId: UNLOADED },
  { type: 'sync/dm-channels', channels: [dmDesc('dm1', 'alice')] },
  { type: 'sync/members', clanId: CLAN, members: [member('alice'), member('bob')] },
];

const codes = [TypeMessage.Chat, TypeMessage.Chat, TypeMessage.Chat, TypeMessage.ChatUpdate, TypeMessage.ChatRemove, TypeMessage.Typing, TypeMessage.Ephemeral, TypeMessage.UpdateEphemeralMsg, TypeMessage.DeleteEphemeralMsg, TypeMessage.Welcome];

/** One message of a small world: known and unknown channels and senders, profiles that change now and then. */
const messageArb: fc.Arbitrary<ChannelMessage> = fc
  .record({
    id: fc.integer({ min: 1, max: 12 }),
    code: fc.constantFrom(...codes),
    place: fc.constantFrom('c1', 'c2', 'c3', 'c4', 'c5', 'dm1', 'dm2'),
    sender: fc.constantFrom('alice', 'bob', 'carol', SELF),
    label: fc.constantFrom('general', 'random', 'renamed', ''),
    nick: fc.constantFrom('', 'alice-nick', 'bob-nick', 'Ally'),
    name: fc.constantFrom('', 'Alice', 'ALICE', 'Bob'),
    text: fc.constantFrom('a', 'b', 'c'),
    mentioned: fc.boolean(),
  })
  .map((m) => {
    const dm = m.place.startsWith('dm');
    const clanId = dm ? DM_CLAN_ID : m.place === 'c4' ? UNLOADED : m.place === 'c5' ? UNKNOWN : CLAN;
    return message({
      message_id: String(1000 + m.id),
      code: m.code,
      channel_id: m.place,
      clan_id: clanId,
      mode: dm ? ChannelStreamMode.STREAM_MODE_DM : ChannelStreamMode.STREAM_MODE_CHANNEL,
      channel_label: dm ? '' : m.label,
      sender_id: m.sender,
      username: m.sender,
      display_name: m.name,
      clan_nick: dm ? '' : m.nick,
      content: { t: m.text },
      mentions: m.mentioned ? [{ user_id: 'bob', s: 0, e: 1 }] : [],
      create_time_seconds: 1000 + m.id,
    });
  });

function run(reducer: typeof reduce, messages: readonly ChannelMessage[], context: ReduceContext): ClientState {
  let state = INITIAL_STATE;
  for (const action of setup) state = reducer(state, action, context);
  // Each path gets its own copy: keeping a message freezes it in place.
  for (const m of messages) state = reducer(state, ev(Events.ChannelMessage, structuredClone(m)), context);
  return state;
}

describe('the channel_message path of the reducer', () => {
  it('gives the state the generic path gives, for any sequence of messages (with and without an edit token)', () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 40 }), fc.boolean(), fc.integer({ min: 0, max: 4 }), (messages, withToken, perChannel) => {
        const context = (): ReduceContext => ({ selfId: SELF, messagesPerChannel: perChannel, ...(withToken ? { token: newEditToken() } : {}) });
        expect(plain(run(reduce, messages, context()))).toEqual(plain(run(reduceEach, messages, context())));
      }),
      { numRuns: 300 },
    );
  });

  it('returns the same state when a message changes nothing (typing from a known sender in a known channel)', () => {
    const context: ReduceContext = { selfId: SELF, messagesPerChannel: 10 };
    let state = INITIAL_STATE;
    for (const action of setup) state = reduce(state, action, context);
    state = reduce(state, ev(Events.ChannelMessage, message({ code: TypeMessage.Chat, display_name: 'Alice', clan_nick: 'alice-nick' })), context);
    const typing = ev(Events.ChannelMessage, message({ message_id: 'm9', code: TypeMessage.Typing, display_name: 'Alice', clan_nick: 'alice-nick' }));
    expect(reduce(state, typing, context)).toBe(state);
  });
});
