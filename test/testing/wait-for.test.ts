import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ClosedError, Events, isClanstreamError, type ClanstreamEvent } from '../../src/index.js';
import { buttonClickEvent, createMarbleClient, messageEvent, nextEvent, TESTING_DEFAULTS, waitFor, WaitTimeoutError } from '../../src/testing/index.js';

/** The rejection of a wait, once the virtual clock has run out. */
async function failureOf(wait: Promise<unknown>, scheduler: VirtualTimeScheduler): Promise<unknown> {
  scheduler.flush();
  return wait.then(
    () => expect.fail('the wait resolved'),
    (error: unknown) => error,
  );
}

describe('waitFor', () => {
  it('resolves with the first value the filter accepts', async () => {
    const source = new Subject<number>();
    const wait = waitFor(source, { filter: (n) => n > 2 });
    for (const n of [1, 2, 3, 4]) source.next(n);
    expect(await wait).toBe(3);
    expect(source.observed).toBe(false);
  });

  it('fails after its timeout naming what it awaited and what arrived instead', async () => {
    const scheduler = new VirtualTimeScheduler();
    const source = new Subject<{ type: string; token?: string }>();
    const wait = waitFor(source, { what: 'a reconnect', filter: (e) => e.type === 'reconnected', timeoutMs: 5000, scheduler });
    source.next({ type: 'disconnected' });
    source.next({ type: 'connecting', token: 'SECRET-TOKEN-123' });
    const error = await failureOf(wait, scheduler);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(isClanstreamError(error, 'timeout')).toBe(true);
    expect(error).toMatchObject({ awaited: 'a reconnect', timeoutMs: 5000, arrivedCount: 2, operation: 'waiting for a reconnect' });
    const { message } = error as WaitTimeoutError;
    expect(message).toBe(
      'waiting for a reconnect timed out after 5000 ms; arrived instead:\n  - {"type":"disconnected"}\n  - {"type":"connecting","token":"[redacted]"}',
    );
    expect(source.observed).toBe(false);
    // Its stack leads to the wait in the test, not to the timer that fired.
    expect((error as Error).stack).toMatch(/^WaitTimeoutError: waiting for a reconnect timed out/);
    expect((error as Error).stack).toContain('wait-for.test.ts');
    expect((error as Error).stack).not.toContain('timeout.ts');
  });

  it('says when nothing arrived, and lists only the last values of many', async () => {
    const scheduler = new VirtualTimeScheduler();
    const quiet = await failureOf(waitFor(new Subject<string>(), { what: 'anything', scheduler }), scheduler);
    expect((quiet as Error).message).toBe(`waiting for anything timed out after ${TESTING_DEFAULTS.waitTimeoutMs} ms; nothing else arrived`);

    const busy = new Subject<number>();
    const wait = waitFor(busy, { what: 'zero', filter: (n) => n === 0, scheduler });
    for (let n = 1; n <= 25; n++) busy.next(n);
    const error = (await failureOf(wait, scheduler)) as WaitTimeoutError;
    expect(error.arrivedCount).toBe(25);
    expect(error.arrived).toEqual(['16', '17', '18', '19', '20', '21', '22', '23', '24', '25']);
    expect(error.message).toContain('arrived instead (25, the last 10):');
  });

  it('fails with a ClosedError when the source ends first', async () => {
    const source = new Subject<string>();
    const wait = waitFor(source, { what: 'a word' });
    source.complete();
    await expect(wait).rejects.toBeInstanceOf(ClosedError);
    await expect(wait).rejects.toThrow('waiting for a word was cancelled: the stream ended first');
  });
});

describe('nextEvent', () => {
  it('resolves with the payload of the next event of the type that matches', async () => {
    const events = new Subject<ClanstreamEvent>();
    const client = createMarbleClient({ events$: events });
    const wait = nextEvent(client, Events.ChannelMessage, { filter: (m) => m.content.t === 'two' });
    events.next(messageEvent('one'));
    events.next(messageEvent('two', { username: 'bob' }));
    expect(await wait).toMatchObject({ username: 'bob', content: { t: 'two' } });
  });

  it('lists every event that came instead, messages as a person reads them', async () => {
    const scheduler = new VirtualTimeScheduler();
    const events = new Subject<ClanstreamEvent>();
    const client = createMarbleClient({ events$: events });
    const wait = nextEvent(client, Events.ChannelMessage, { what: "the bot's answer", filter: (m) => m.sender_id === 'bot', scheduler, timeoutMs: 3000 });
    events.next(messageEvent('*ping'));
    events.next(buttonClickEvent('m1', 'yes', 'u2'));
    const error = (await failureOf(wait, scheduler)) as WaitTimeoutError;
    expect(error.arrived).toEqual([
      'alice in #general: "*ping"',
      'message_button_clicked {"message_id":"m1","channel_id":"channel-1","button_id":"yes","sender_id":"bot","user_id":"u2","extra_data":""}',
    ]);
    expect(error.message).toMatch(/^waiting for the bot's answer timed out after 3000 ms; arrived instead:/);
  });
});
