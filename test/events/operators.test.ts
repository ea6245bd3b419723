/**
 * The bot-logic operators of src/events/operators (notFromSelf,
 * newMessagesOnly, command, parseCommand, splitArgs): unit behaviour, then
 * on a logged-in client's ChannelMessage stream against the emulator.
 */
import { filter, firstValueFrom, map, of, toArray } from 'rxjs';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { command, Events, newMessagesOnly, notFromSelf, parseCommand, splitArgs, TypeMessage, type ChannelMessage, type CommandInvocation } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { Tracker } from '../client/support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

describe('splitArgs', () => {
  it('splits on any whitespace and keeps double-quoted groups', () => {
    expect(splitArgs('a b\tc\n d')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitArgs('say "hello world" now')).toEqual(['say', 'hello world', 'now']);
    expect(splitArgs('"" x')).toEqual(['', 'x']);
    expect(splitArgs('')).toEqual([]);
    expect(splitArgs('   ')).toEqual([]);
  });

  it('treats quotes inside a word and unterminated quotes as ordinary characters', () => {
    expect(splitArgs('it"s fine')).toEqual(['it"s', 'fine']);
    expect(splitArgs('"open quote')).toEqual(['"open', 'quote']);
  });

  it('keeps non-ASCII text intact', () => {
    expect(splitArgs('héllo "wörld 🌍" 日本')).toEqual(['héllo', 'wörld 🌍', '日本']);
  });
});

describe('parseCommand', () => {
  const m = (t?: string) => ({ content: t === undefined ? {} : { t } });

  it('parses name (lower-cased), args and rest', () => {
    expect(parseCommand(m('*Roll 2d6 "for luck"'))).toEqual({ name: 'roll', args: ['2d6', 'for luck'], rest: '2d6 "for luck"', message: m('*Roll 2d6 "for luck"') });
    expect(parseCommand(m('*help'))).toMatchObject({ name: 'help', args: [], rest: '' });
    expect(parseCommand(m('\n  *help me'))).toMatchObject({ name: 'help', args: ['me'] });
    expect(parseCommand(m('*multi\nline text'))).toMatchObject({ name: 'multi', args: ['line', 'text'], rest: 'line text' });
  });

  it('returns undefined for non-commands', () => {
    for (const text of ['hello', '', '*', '* roll', 'roll *x', ' ']) expect(parseCommand(m(text))).toBeUndefined();
    expect(parseCommand(m())).toBeUndefined();
    expect(parseCommand({})).toBeUndefined();
    expect(parseCommand(m('!ping'))).toBeUndefined();
    expect(parseCommand(m('*ping'), '')).toBeUndefined();
  });

  it('uses the given prefix', () => {
    expect(parseCommand(m('!ping'), '!')).toMatchObject({ name: 'ping' });
    expect(parseCommand(m('bot:status now'), 'bot:')).toMatchObject({ name: 'status', args: ['now'] });
    // The name must follow the prefix directly: a prefix used with a space must include it.
    expect(parseCommand(m('bot: status now'), 'bot:')).toBeUndefined();
    expect(parseCommand(m('bot: status now'), 'bot: ')).toMatchObject({ name: 'status', args: ['now'] });
    expect(parseCommand(m('*ping'), '!')).toBeUndefined();
  });

  it('keeps the message type', () => {
    const message = { content: { t: '*x' }, sender_id: 'U1' };
    const parsed = parseCommand(message);
    expectTypeOf(parsed).toEqualTypeOf<CommandInvocation<typeof message> | undefined>();
    expect(parsed?.message).toBe(message);
  });
});

describe('operators on plain streams', () => {
  it('notFromSelf, newMessagesOnly and command compose', async () => {
    const messages = [
      { sender_id: 'bot', code: 0, content: { t: '*echo mine' } },
      { sender_id: 'alice', code: 0, content: { t: '*echo hi' } },
      { sender_id: 'alice', code: 1, content: { t: '*echo edited' } },
      { sender_id: 'bob', code: 0, content: { t: 'no command' } },
      { sender_id: 'bob', content: { t: '*PING' } },
    ];
    const result = await firstValueFrom(
      of(...messages).pipe(
        notFromSelf('bot'),
        newMessagesOnly(),
        command(),
        map((c) => `${c.message.sender_id}:${c.name}:${c.args.join(',')}`),
        toArray(),
      ),
    );
    expect(result).toEqual(['alice:echo:hi', 'bob:ping:']);
  });
});

describe('operators on a client', () => {
  it("drop the bot's own messages, edits and deletions, and parse commands from the live stream", async () => {
    const w = await t.world();
    const client = t.client(w);
    const everything = t.record(client.stream(Events.ChannelMessage));
    const commands = t.record(client.stream(Events.ChannelMessage).pipe(notFromSelf(client), newMessagesOnly(), command('*')));
    const fromOthers = t.record(client.stream(Events.ChannelMessage).pipe(notFromSelf(client), filter((m: ChannelMessage) => m.code === TypeMessage.Chat)));
    await client.login();

    // The bot's own command, sent over its gateway connection, comes back to it and must be ignored.
    const own = await client.gateway.request('channel_message_send', { clan_id: w.clanId, channel_id: w.general, content: { t: '*roll 1' } });
    const roll = w.emu.as(w.alice.id).send(w.general, '*Roll 2 "big dice"');
    w.emu.as(w.alice.id).update(roll.message_id, '*roll 3');
    w.emu.as(w.alice.id).delete(roll.message_id);
    const chat = w.emu.as(w.bob.id).send(w.general, 'just chatting');
    const help = w.emu.as(w.bob.id).send(w.general, '*help');
    await until(() => everything.some((m) => m.message_id === help.message_id), 'the last message');

    expect(everything.map((m) => [m.sender_id, m.code, m.content.t])).toEqual([
      [w.bot.botId, 0, '*roll 1'],
      [w.alice.id, 0, '*Roll 2 "big dice"'],
      [w.alice.id, 1, '*roll 3'],
      [w.alice.id, 2, '*roll 3'],
      [w.bob.id, 0, 'just chatting'],
      [w.bob.id, 0, '*help'],
    ]);
    expect(everything[0]?.message_id).toBe(own.message_id);
    expect(commands.map((c) => ({ name: c.name, args: c.args, id: c.message.message_id }))).toEqual([
      { name: 'roll', args: ['2', 'big dice'], id: roll.message_id },
      { name: 'help', args: [], id: help.message_id },
    ]);
    expect(fromOthers.map((m) => m.message_id)).toEqual([roll.message_id, chat.message_id, help.message_id]);
  });
});
