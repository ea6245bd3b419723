/**
 * The bot-logic operators of src/events/operators: notFromSelf,
 * newMessagesOnly and command. One TestScheduler per test; one character is
 * one frame.
 */
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { command, newMessagesOnly, notFromSelf, TypeMessage, type CommandInvocation } from '../src/index.js';

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

interface Msg {
  sender_id?: string;
  code?: number;
  content?: { t?: string };
}

const from = (sender: string, t = ''): Msg => ({ sender_id: sender, code: 0, content: { t } });

describe('notFromSelf', () => {
  it("drops the bot's own messages (self given as an id)", () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const values = { a: from('alice'), b: from('bot'), c: from('carol'), d: from('bot') };
      const source = '  a-b-c-d|';
      const expected = 'a---c--|';
      expectObservable(cold(source, values).pipe(notFromSelf<Msg>('bot'))).toBe(expected, values);
    });
  });

  it('reads clientId of a client-like object at each value: nothing is dropped before login sets it', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const client: { clientId?: string } = {};
      const values = { a: from('bot', 'before login'), b: from('bot', 'after login'), c: from('alice') };
      // clientId becomes "bot" at frame 2 (login), between a and b.
      scheduler.schedule(() => (client.clientId = 'bot'), 2);
      const source = '  a---b-c|';
      const expected = 'a-----c|';
      expectObservable(cold(source, values).pipe(notFromSelf<Msg>(client))).toBe(expected, values);
    });
  });

  it('keeps values without a sender', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const values = { a: { code: 0 } as Msg, b: from('bot') };
      expectObservable(cold('ab|', values).pipe(notFromSelf<Msg>('bot'))).toBe('a-|', values);
    });
  });
});

describe('newMessagesOnly', () => {
  it('keeps new messages (code 0 or none) and drops edits, deletions, ephemerals and their updates', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const values = {
        n: { code: TypeMessage.Chat },
        e: { code: TypeMessage.ChatUpdate },
        d: { code: TypeMessage.ChatRemove },
        p: { code: TypeMessage.Ephemeral },
        u: {},
        x: { code: 14 },
      };
      const source = '  n-e-d-p-u-x-n|';
      const expected = 'n-------u---n|';
      expectObservable(cold(source, values).pipe(newMessagesOnly<{ code?: number }>())).toBe(expected, values);
    });
  });
});

describe('command', () => {
  const msg = (t?: string): Msg => (t === undefined ? { sender_id: 'alice', code: 0, content: {} } : { sender_id: 'alice', code: 0, content: { t } });
  const invocation = (message: Msg, name: string, args: string[], rest: string): CommandInvocation<Msg> => ({ name, args, rest, message });

  it('turns prefixed messages into {name, args, rest, message} and drops the rest', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const m = {
        a: msg('*Roll 2 "big dice"'),
        b: msg('hello there'),
        c: msg('*help'),
        d: msg('*'),
        e: msg(),
        f: msg('  *PING   now  '),
        g: msg('*say "" x'),
      };
      const source = '  a-b-c-d-e-f-g|';
      const expected = 'A---C-----F-G|';
      expectObservable(cold(source, m).pipe(command<Msg>('*'))).toBe(expected, {
        // the name is lower-cased; double quotes group words; rest is everything after the name, trimmed
        A: invocation(m.a, 'roll', ['2', 'big dice'], '2 "big dice"'),
        C: invocation(m.c, 'help', [], ''),
        // leading whitespace before the prefix is ignored; runs of spaces separate arguments
        F: invocation(m.f, 'ping', ['now'], 'now'),
        // an empty quoted argument is kept as ""
        G: invocation(m.g, 'say', ['', 'x'], '"" x'),
      });
    });
  });

  it('uses the given prefix (several characters allowed) and is case-insensitive on the name only', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const m = { a: msg('!!Deploy Prod "EU West"'), b: msg('!single'), c: msg('*other') };
      const source = '  a-b-c|';
      const expected = 'A----|';
      expectObservable(cold(source, m).pipe(command<Msg>('!!'))).toBe(expected, {
        A: invocation(m.a, 'deploy', ['Prod', 'EU West'], 'Prod "EU West"'),
      });
    });
  });

  it('treats an unterminated quote as an ordinary word', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const m = { a: msg('*say "hi there') };
      expectObservable(cold('a|', m).pipe(command<Msg>())).toBe('A|', { A: invocation(m.a, 'say', ['"hi', 'there'], '"hi there') });
    });
  });

  it('drops everything when the prefix is empty', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const m = { a: msg('roll 2'), b: msg('*roll') };
      expectObservable(cold('ab|', m).pipe(command<Msg>(''))).toBe('--|');
    });
  });

  it('passes errors and completion through', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const m = { a: msg('*x') };
      expectObservable(cold('a-#', m, new Error('socket gone')).pipe(command<Msg>())).toBe('A-#', { A: invocation(m.a, 'x', [], '') }, new Error('socket gone'));
    });
  });
});
