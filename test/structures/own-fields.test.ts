/**
 * The structures' data fields (src/structures/*.ts): own, enumerable properties
 * in the order the classes declare them, whatever the build, so spreads,
 * JSON.stringify and inspect show them the same way. The classes declare them
 * and their constructors assign them (no field defined empty first).
 */
import { describe, expect, it } from 'vitest';
import { Clan, Message, TextChannel, User } from '../../src/index.js';
import type { ClientContext } from '../../src/structures/context.js';
import type { ChannelState, ClanState, MemberState, MessageState, UserState } from '../../src/state/records.js';

// The data fields never call into the client: an empty context is enough to make the structures.
const ctx = {} as ClientContext;

const ownFields = (value: object): Array<[string, unknown]> => Object.entries(Object.getOwnPropertyDescriptors(value)).map(([key, d]) => [key, d.enumerable && d.writable ? d.value : 'not a plain field']);

describe('structure fields', () => {
  it('Message: every field of the record, then the record, as own enumerable properties in declaration order', () => {
    const record = {
      message_id: 'm1', clan_id: 'c1', channel_id: 'ch1', sender_id: 'u1', username: 'alice', display_name: 'Alice', clan_nick: 'Al', clan_avatar: 'ca', avatar: 'av',
      content: { t: 'hi' }, mentions: [], attachments: [], reactions: [], references: [], topic_id: 't1', code: 0, mode: 2, create_time_seconds: 1, update_time_seconds: 2,
    } as unknown as MessageState;
    const message = new Message(ctx, record);
    expect(ownFields(message)).toEqual([
      ['id', 'm1'], ['message_id', 'm1'], ['clan_id', 'c1'], ['channel_id', 'ch1'], ['sender_id', 'u1'], ['username', 'alice'], ['display_name', 'Alice'], ['clan_nick', 'Al'],
      ['clan_avatar', 'ca'], ['avatar', 'av'], ['content', { t: 'hi' }], ['mentions', []], ['attachments', []], ['reactions', []], ['references', []], ['topic_id', 't1'],
      ['code', 0], ['mode', 2], ['create_time_seconds', 1], ['update_time_seconds', 2], ['record', record],
    ]);
  });

  it('TextChannel, Clan and User: their fields, then the record (and a user\'s membership), in declaration order', () => {
    const channel = { channel_id: 'ch1', channel_label: 'general', channel_private: 1, type: 1, category_id: 'k1', category_name: 'Text', parent_id: '', meeting_code: 'mc', clan_id: 'c1' } as unknown as ChannelState;
    expect(ownFields(new TextChannel(ctx, channel))).toEqual([
      ['id', 'ch1'], ['name', 'general'], ['is_private', true], ['channel_type', 1], ['category_id', 'k1'], ['category_name', 'Text'], ['parent_id', undefined], ['meeting_code', 'mc'], ['clan_id', 'c1'], ['record', channel],
    ]);
    const clan = { id: 'c1', name: 'Clan', welcome_channel_id: 'ch1', creator_id: 'u1' } as unknown as ClanState;
    expect(ownFields(new Clan(ctx, clan))).toEqual([['id', 'c1'], ['name', 'Clan'], ['welcome_channel_id', 'ch1'], ['creator_id', 'u1'], ['record', clan]]);
    const user = { id: 'u1', username: 'alice', display_name: 'Alice', avatar: 'av' } as unknown as UserState;
    const member = { clan_nick: 'Al', clan_avatar: 'ca' } as unknown as MemberState;
    expect(ownFields(new User(ctx, user, member))).toEqual([
      ['id', 'u1'], ['username', 'alice'], ['display_name', 'Alice'], ['clan_nick', 'Al'], ['clan_avatar', 'ca'], ['avartar', 'av'], ['record', user], ['member', member],
    ]);
    expect(ownFields(new User(ctx, user)).map(([key]) => key)).toEqual(['id', 'username', 'display_name', 'clan_nick', 'clan_avatar', 'avartar', 'record', 'member']);
  });
});
