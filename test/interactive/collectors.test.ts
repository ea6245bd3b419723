/**
 * Collectors and awaits over a test double of the client: filtering by
 * message, form values from extra_data, how awaits settle, and that nothing
 * (subscription or timer) is left behind.
 */
import { Subject, VirtualTimeScheduler, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  ClosedError,
  Events,
  ProtocolError,
  TimeoutError,
  ValidationError,
  type ChannelMessage,
  type DropdownBoxSelected,
  type EventPayloadMap,
  type MessageButtonClicked,
} from '../../src/index.js';
import {
  awaitButton,
  awaitSelection,
  buttonClicks$,
  dropdownSelections$,
  formNumber,
  formString,
  formStrings,
  MessageDeletedError,
  parseExtraData,
  type ButtonClick,
  type InteractionSource,
} from '../../src/interactive/index.js';
import { rejection } from '../helpers/outcomes.js';

/** A client double: one Subject per event type, so tests can push events and count subscribers. */
class FakeClient implements InteractionSource {
  readonly clicks = new Subject<MessageButtonClicked>();
  readonly selections = new Subject<DropdownBoxSelected>();
  readonly messages = new Subject<ChannelMessage>();

  stream<K extends Events>(type: K): Observable<EventPayloadMap[K]> {
    const subjects: Partial<Record<Events, Observable<unknown>>> = {
      [Events.MessageButtonClicked]: this.clicks.asObservable(),
      [Events.DropdownBoxSelected]: this.selections.asObservable(),
      [Events.ChannelMessage]: this.messages.asObservable(),
    };
    const subject = subjects[type];
    if (!subject) throw new Error(`unexpected stream ${type}`);
    return subject as Observable<EventPayloadMap[K]>;
  }

  get observed(): boolean {
    return this.clicks.observed || this.selections.observed || this.messages.observed;
  }
}

const MESSAGE = { message_id: 'm1', channel_id: 'c1' };

const click = (over: Partial<MessageButtonClicked> = {}): MessageButtonClicked => ({
  message_id: 'm1',
  channel_id: 'c1',
  button_id: 'ok',
  sender_id: 'bot',
  user_id: 'u1',
  extra_data: '',
  ...over,
});

const selection = (over: Partial<DropdownBoxSelected> = {}): DropdownBoxSelected => ({
  message_id: 'm1',
  channel_id: 'c1',
  selectbox_id: 'pick',
  sender_id: 'bot',
  user_id: 'u1',
  values: ['a'],
  ...over,
});

const deletion = (messageId = 'm1', channelId = 'c1'): ChannelMessage => ({ message_id: messageId, id: messageId, channel_id: channelId, code: 2 }) as ChannelMessage;

describe('extra_data form values', () => {
  it('parses "" to {}, a JSON object to its values, and reports (never throws) anything else', () => {
    expect(parseExtraData('')).toEqual({ values: {} });
    expect(parseExtraData('{"name":"Ann","age":"41","n":3,"tags":["a","b"]}')).toEqual({ values: { name: 'Ann', age: '41', n: 3, tags: ['a', 'b'] } });
    for (const bad of ['{not json', '42', '"text"', '[1,2]', 'null']) {
      const parsed = parseExtraData(bad);
      expect(parsed.values).toEqual({});
      expect(parsed.error).toBeInstanceOf(ProtocolError);
    }
  });

  it('reads typed values', () => {
    const { values } = parseExtraData('{"name":"Ann","age":"41","n":3,"ok":true,"tags":["a","b"],"obj":{}}');
    expect(formString(values, 'name')).toBe('Ann');
    expect(formString(values, 'n')).toBe('3');
    expect(formString(values, 'obj')).toBeUndefined();
    expect(formNumber(values, 'age')).toBe(41);
    expect(formNumber(values, 'name')).toBeUndefined();
    expect(formStrings(values, 'tags')).toEqual(['a', 'b']);
    expect(formStrings(values, 'name')).toEqual(['Ann']);
    expect(formStrings(values, 'missing')).toBeUndefined();
  });
});

describe('buttonClicks$ and dropdownSelections$', () => {
  it('emit only the interactions of the message (id and channel), with parsed forms', () => {
    const client = new FakeClient();
    const seen: ButtonClick[] = [];
    const subscription = buttonClicks$(client, MESSAGE).subscribe((c) => seen.push(c));
    client.clicks.next(click({ extra_data: '{"note":"hi"}' }));
    client.clicks.next(click({ message_id: 'other' }));
    client.clicks.next(click({ channel_id: 'c2' }));
    client.clicks.next(click({ button_id: 'no', extra_data: '{broken' }));
    expect(seen.map((c) => [c.button_id, c.form])).toEqual([
      ['ok', { note: 'hi' }],
      ['no', {}],
    ]);
    expect(seen[0]!.formError).toBeUndefined();
    expect(seen[1]!.formError).toBeInstanceOf(ProtocolError);
    subscription.unsubscribe();
    expect(client.observed).toBe(false);
  });

  it('accept a message given by id (a ChannelMessage) and complete when it is deleted', () => {
    const client = new FakeClient();
    const seen: DropdownBoxSelected[] = [];
    let completed = false;
    dropdownSelections$(client, { id: 'm1', channel_id: 'c1' }).subscribe({ next: (s) => seen.push(s), complete: () => (completed = true) });
    client.selections.next(selection());
    client.messages.next(deletion('m2'));
    client.messages.next({ ...deletion(), code: 1 });
    expect(completed).toBe(false);
    client.messages.next(deletion());
    expect(completed).toBe(true);
    expect(seen).toEqual([selection()]);
    expect(client.observed).toBe(false);
  });

  it('are cold: nothing is subscribed until used, and each subscriber gets its own collector', () => {
    const client = new FakeClient();
    const clicks$ = buttonClicks$(client, MESSAGE, { max: 1 });
    expect(client.observed).toBe(false);
    const a: string[] = [];
    const b: string[] = [];
    clicks$.subscribe((c) => a.push(c.user_id));
    client.clicks.next(click({ user_id: 'first' }));
    clicks$.subscribe((c) => b.push(c.user_id));
    client.clicks.next(click({ user_id: 'second' }));
    expect([a, b]).toEqual([['first'], ['second']]);
    expect(client.observed).toBe(false);
  });

  it('refuse a message without id or channel, and bad options, at once', () => {
    const client = new FakeClient();
    expect(() => buttonClicks$(client, { channel_id: 'c1' })).toThrow(ValidationError);
    expect(() => buttonClicks$(client, { message_id: 'm1' } as never)).toThrow(/message\.channel_id/);
    expect(() => buttonClicks$(client, MESSAGE, { max: 0 })).toThrow(/max/);
    expect(() => dropdownSelections$(client, MESSAGE, { timeout: -5 })).toThrow(/timeout/);
    expect(() => dropdownSelections$(client, MESSAGE, { idle: Number.NaN })).toThrow(/idle/);
  });
});

describe('awaitButton and awaitSelection', () => {
  it('resolve with the first matching interaction and release everything', async () => {
    const client = new FakeClient();
    const scheduler = new VirtualTimeScheduler();
    const pending = awaitButton(client, MESSAGE, { filter: (c) => c.user_id === 'u2', scheduler });
    client.clicks.next(click({ user_id: 'u1' }));
    client.clicks.next(click({ user_id: 'u2', extra_data: '{"a":1}' }));
    const result = await pending;
    expect(result).toMatchObject({ user_id: 'u2', form: { a: 1 } });
    expect(client.observed).toBe(false);
    expect(scheduler.actions).toHaveLength(0);

    const picked = awaitSelection(client, MESSAGE, { scheduler });
    client.selections.next(selection({ values: ['x', 'y'] }));
    expect((await picked).values).toEqual(['x', 'y']);
    expect(client.observed).toBe(false);
  });

  it('reject with a TimeoutError after the timeout', async () => {
    const client = new FakeClient();
    const scheduler = new VirtualTimeScheduler();
    const pending = awaitButton(client, MESSAGE, { timeout: 5000, scheduler });
    scheduler.flush();
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(5000);
    expect(client.observed).toBe(false);
  });

  it('reject with a MessageDeletedError (a ClosedError) when the message is deleted', async () => {
    const client = new FakeClient();
    const scheduler = new VirtualTimeScheduler();
    const pending = awaitButton(client, MESSAGE, { scheduler });
    client.messages.next(deletion());
    const error = await rejection(pending);
    expect(error).toBeInstanceOf(MessageDeletedError);
    expect(error).toBeInstanceOf(ClosedError);
    expect((error as MessageDeletedError).messageId).toBe('m1');
    expect((error as Error).message).toBe('awaitButton was cancelled: message m1 was deleted');
    expect(scheduler.actions).toHaveLength(0);
    expect(client.observed).toBe(false);
  });

  it('reject with a ClosedError when the client stream completes (client destroyed)', async () => {
    const client = new FakeClient();
    const scheduler = new VirtualTimeScheduler();
    const pending = awaitButton(client, MESSAGE, { scheduler });
    client.clicks.complete();
    expect(await rejection(pending)).toBeInstanceOf(ClosedError);
    expect(scheduler.actions).toHaveLength(0);
    expect(client.observed).toBe(false);
  });

  it('reject with the abort reason, also when already aborted, and remove the abort listener', async () => {
    const client = new FakeClient();
    const scheduler = new VirtualTimeScheduler();
    const controller = new AbortController();
    const pending = awaitButton(client, MESSAGE, { scheduler, signal: controller.signal });
    const reason = new Error('user cancelled');
    controller.abort(reason);
    expect(await rejection(pending)).toBe(reason);
    expect(await rejection(awaitButton(client, MESSAGE, { scheduler, signal: controller.signal }))).toBe(reason);
    expect(scheduler.actions).toHaveLength(0);
    expect(client.observed).toBe(false);
  });

  it('reject a bad message reference with a ValidationError', async () => {
    expect(await rejection(awaitButton(new FakeClient(), { channel_id: '' }))).toBeInstanceOf(ValidationError);
  });

  it('a thousand awaits that time out leave no subscription and no timer behind', async () => {
    const client = new FakeClient();
    const scheduler = new VirtualTimeScheduler();
    const pending = Array.from({ length: 1000 }, (_, i) => awaitButton(client, { message_id: `m${i}`, channel_id: 'c1' }, { timeout: 1000 + i, scheduler }));
    expect(client.clicks.observers.length).toBeGreaterThan(0);
    expect(scheduler.actions).toHaveLength(1000);
    scheduler.flush();
    const results = await Promise.allSettled(pending);
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof TimeoutError)).toBe(true);
    expect(client.observed).toBe(false);
    expect(client.clicks.observers).toHaveLength(0);
    expect(client.messages.observers).toHaveLength(0);
    expect(scheduler.actions).toHaveLength(0);
  });

  it('a thousand awaits that resolve leave no timer behind either', async () => {
    const client = new FakeClient();
    const scheduler = new VirtualTimeScheduler();
    const pending = Array.from({ length: 1000 }, () => awaitButton(client, MESSAGE, { scheduler }));
    client.clicks.next(click());
    expect((await Promise.all(pending)).every((c) => c.button_id === 'ok')).toBe(true);
    expect(client.observed).toBe(false);
    expect(scheduler.actions).toHaveLength(0);
  });
});

describe('a message given as a send in flight (a promise)', () => {
  /** A send the test settles by hand. */
  function inFlight(): { sent: Promise<typeof MESSAGE>; ack: () => Promise<void>; fail: (error: Error) => Promise<void> } {
    let settle!: (outcome: { ok: typeof MESSAGE } | { error: Error }) => void;
    const sent = new Promise<typeof MESSAGE>((resolve, reject) => (settle = (o) => ('ok' in o ? resolve(o.ok) : reject(o.error))));
    // Resolution runs in a microtask: let it (and the collector's continuation) run before returning.
    const flush = () => new Promise<void>((r) => setTimeout(r, 0));
    return { sent, ack: () => (settle({ ok: MESSAGE }), flush()), fail: (error) => (settle({ error }), flush()) };
  }

  it('holds what arrives before the send resolves, then emits it in order and goes on live', async () => {
    const client = new FakeClient();
    const send = inFlight();
    const seen: string[] = [];
    const subscription = buttonClicks$(client, send.sent).subscribe((c) => seen.push(`${c.message_id}:${c.button_id}`));
    client.clicks.next(click({ button_id: 'early-1' }));
    client.clicks.next(click({ message_id: 'other', button_id: 'elsewhere' }));
    client.clicks.next(click({ button_id: 'early-2', extra_data: '{"n":1}' }));
    expect(seen).toEqual([]);
    await send.ack();
    expect(seen).toEqual(['m1:early-1', 'm1:early-2']);
    client.clicks.next(click({ button_id: 'late' }));
    expect(seen).toEqual(['m1:early-1', 'm1:early-2', 'm1:late']);
    subscription.unsubscribe();
    expect(client.observed).toBe(false);
  });

  it('awaitSelection resolves with a selection that came before the send resolved', async () => {
    const client = new FakeClient();
    const send = inFlight();
    const picked = awaitSelection(client, send.sent, { scheduler: new VirtualTimeScheduler() });
    client.selections.next(selection({ values: ['early'] }));
    await send.ack();
    expect((await picked).values).toEqual(['early']);
    expect(client.observed).toBe(false);
  });

  it('a deletion that came before the send resolved completes the collector and rejects the await', async () => {
    const client = new FakeClient();
    const send = inFlight();
    let completed = false;
    buttonClicks$(client, send.sent).subscribe({ complete: () => (completed = true) });
    const waiting = rejection(awaitButton(client, send.sent, { scheduler: new VirtualTimeScheduler() }));
    client.messages.next(deletion());
    await send.ack();
    expect(completed).toBe(true);
    expect(await waiting).toBeInstanceOf(MessageDeletedError);
    expect(client.observed).toBe(false);
  });

  it('a failed send is the error of the collector and of the await; nothing stays subscribed', async () => {
    const client = new FakeClient();
    const send = inFlight();
    let failure: unknown;
    buttonClicks$(client, send.sent).subscribe({ error: (error: unknown) => (failure = error) });
    const waiting = rejection(awaitButton(client, send.sent));
    client.clicks.next(click());
    const refused = new Error('forbidden');
    await send.fail(refused);
    expect(failure).toBe(refused);
    expect(await waiting).toBe(refused);
    expect(client.observed).toBe(false);
  });

  it('a send that resolves to no message reference is a ValidationError, not a throw', async () => {
    const client = new FakeClient();
    let failure: unknown;
    buttonClicks$(client, Promise.resolve({ channel_id: 'c1' })).subscribe({ error: (error: unknown) => (failure = error) });
    expect(await rejection(awaitButton(client, Promise.resolve({ message_id: 'm1' } as never)))).toBeInstanceOf(ValidationError);
    await new Promise((r) => setTimeout(r, 0));
    expect(failure).toBeInstanceOf(ValidationError);
    expect(client.observed).toBe(false);
  });

  it('unsubscribing or aborting before the send resolves releases everything at once', async () => {
    const client = new FakeClient();
    const send = inFlight();
    const subscription = buttonClicks$(client, send.sent).subscribe();
    expect(client.clicks.observed && client.messages.observed).toBe(true);
    subscription.unsubscribe();
    expect(client.observed).toBe(false);

    const controller = new AbortController();
    const scheduler = new VirtualTimeScheduler();
    const waiting = rejection(awaitButton(client, send.sent, { signal: controller.signal, scheduler }));
    client.clicks.next(click({ message_id: 'other' }));
    const reason = new Error('stop');
    controller.abort(reason);
    expect(await waiting).toBe(reason);
    expect(client.observed).toBe(false);
    expect(scheduler.actions).toHaveLength(0);
  });

  it('timeout and idle count from the moment the send resolves', async () => {
    const client = new FakeClient();
    const send = inFlight();
    const scheduler = new VirtualTimeScheduler();
    let completed = false;
    buttonClicks$(client, send.sent, { timeout: 1000, scheduler }).subscribe({ complete: () => (completed = true) });
    const waiting = rejection(awaitButton(client, send.sent, { timeout: 1000, scheduler }));
    // Nothing is timed while the send is in flight.
    expect(scheduler.actions).toHaveLength(0);
    await send.ack();
    expect(scheduler.actions).toHaveLength(2);
    scheduler.flush();
    expect(completed).toBe(true);
    expect(await waiting).toBeInstanceOf(TimeoutError);
    expect(client.observed).toBe(false);
  });
});
