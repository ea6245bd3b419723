/**
 * Marble specs of the interaction collectors (one TestScheduler per test):
 * completion on max, on the total timeout, on idle time, on deletion of the
 * message, and filtering.
 */
import { TestScheduler } from 'rxjs/testing';
import { EMPTY, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Events, type ChannelMessage, type DropdownBoxSelected, type EventPayloadMap, type MessageButtonClicked } from '../src/index.js';
import { buttonClicks$, dropdownSelections$, type InteractionSource } from '../src/interactive/index.js';

const newScheduler = (): TestScheduler => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

type Streams = {
  clicks?: Observable<MessageButtonClicked>;
  selections?: Observable<DropdownBoxSelected>;
  messages?: Observable<ChannelMessage>;
};

/** A client double whose event streams are marble observables. */
function source(streams: Streams): InteractionSource {
  return {
    stream<K extends Events>(type: K): Observable<EventPayloadMap[K]> {
      const chosen =
        type === Events.MessageButtonClicked ? streams.clicks : type === Events.DropdownBoxSelected ? streams.selections : type === Events.ChannelMessage ? streams.messages : undefined;
      return (chosen ?? EMPTY) as Observable<EventPayloadMap[K]>;
    },
  };
}

const MESSAGE = { message_id: 'm1', channel_id: 'c1' };

const click = (user: string, over: Partial<MessageButtonClicked> = {}): MessageButtonClicked => ({
  message_id: 'm1',
  channel_id: 'c1',
  button_id: 'ok',
  sender_id: 'bot',
  user_id: user,
  extra_data: '',
  ...over,
});

/** What the collector emits for a click with empty extra_data. */
const collected = (c: MessageButtonClicked) => ({ ...c, form: {} });

const removed = (messageId: string, code = 2): ChannelMessage => ({ id: messageId, message_id: messageId, channel_id: 'c1', code }) as ChannelMessage;

describe('buttonClicks$ (marbles)', () => {
  it('completes after max clicks', () => {
    newScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = { a: click('u1'), b: click('u2'), c: click('u3') };
      const clicks = hot('--a--b--c--|', values);
      const messages = hot<ChannelMessage>('-----------');
      expectObservable(buttonClicks$(source({ clicks, messages }), MESSAGE, { max: 2 })).toBe('--a--(b|)', { a: collected(values.a), b: collected(values.b) });
      expectSubscriptions(clicks.subscriptions).toBe('^----!');
      expectSubscriptions(messages.subscriptions).toBe('^----!');
    });
  });

  it('completes when the total timeout passes, however busy the stream', () => {
    newScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = { a: click('u1'), b: click('u2') };
      const clicks = hot('-a-b-a-b-a-b', values);
      expectObservable(buttonClicks$(source({ clicks }), MESSAGE, { timeout: 6 })).toBe('-a-b-a|', { a: collected(values.a), b: collected(values.b) });
      expectSubscriptions(clicks.subscriptions).toBe('^-----!');
    });
  });

  it('completes when no click arrives for the idle time; each click restarts it', () => {
    newScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = { a: click('u1'), b: click('u2') };
      const clicks = hot('--a--b------a', values);
      // idle 4: a at 2, b at 5, then nothing until 9 → complete at 9.
      expectObservable(buttonClicks$(source({ clicks }), MESSAGE, { idle: 4 })).toBe('--a--b---|', { a: collected(values.a), b: collected(values.b) });
      expectSubscriptions(clicks.subscriptions).toBe('^--------!');
    });
  });

  it('completes when the message is deleted (channel_message code 2 with its id), not on edits or other deletions', () => {
    newScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = { a: click('u1'), b: click('u2') };
      const clicks = hot('-a-----b', values);
      const messages = hot('--e-o-d', { e: removed('m1', 1), o: removed('m9'), d: removed('m1') });
      expectObservable(buttonClicks$(source({ clicks, messages }), MESSAGE)).toBe('-a----|', { a: collected(values.a) });
      expectSubscriptions(clicks.subscriptions).toBe('^-----!');
      expectSubscriptions(messages.subscriptions).toBe('^-----!');
    });
  });

  it('emits only clicks on the message that pass the filter, and counts only those toward max', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const values = { a: click('u1'), x: click('u1', { message_id: 'm2' }), y: click('u1', { channel_id: 'c9' }), n: click('u2', { button_id: 'no' }), b: click('u3') };
      const clicks = hot('-a-x-y-n-b-a', values);
      const collector = buttonClicks$(source({ clicks }), MESSAGE, { filter: (c) => c.button_id === 'ok', max: 2 });
      expectObservable(collector).toBe('-a-------(b|)', { a: collected(values.a), b: collected(values.b) });
    });
  });

  it('stops and releases its sources when unsubscribed', () => {
    newScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const values = { a: click('u1') };
      const clicks = hot('-a-a-a-a', values);
      const messages = hot<ChannelMessage>('--------');
      expectObservable(buttonClicks$(source({ clicks, messages }), MESSAGE, { timeout: 100 }), '^--!').toBe('-a-', { a: collected(values.a) });
      expectSubscriptions(clicks.subscriptions).toBe('^--!');
      expectSubscriptions(messages.subscriptions).toBe('^--!');
    });
  });
});

describe('dropdownSelections$ (marbles)', () => {
  const pick = (values: string[], over: Partial<DropdownBoxSelected> = {}): DropdownBoxSelected => ({
    message_id: 'm1',
    channel_id: 'c1',
    selectbox_id: 'pick',
    sender_id: 'bot',
    user_id: 'u1',
    values,
    ...over,
  });

  it('emits the selections of the message and completes on max', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const values = { a: pick(['x']), o: pick(['x'], { message_id: 'm2' }), b: pick(['y', 'z']) };
      const selections = hot('-a-o-b-a', values);
      expectObservable(dropdownSelections$(source({ selections }), MESSAGE, { max: 2 })).toBe('-a---(b|)', { a: values.a, b: values.b });
    });
  });

  it('completes on the total timeout even when idle is longer', () => {
    newScheduler().run(({ hot, expectObservable }) => {
      const selections = hot<DropdownBoxSelected>('----------');
      expectObservable(dropdownSelections$(source({ selections }), MESSAGE, { timeout: 3, idle: 50 })).toBe('---|');
    });
  });
});
