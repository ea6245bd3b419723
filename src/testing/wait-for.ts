import { asyncScheduler, EMPTY, filter, from, map, merge, take, throwError, timeout, type Observable, type SchedulerLike } from 'rxjs';
import type { BotSurface } from '../client/bot-surface.js';
import { ClosedError } from '../errors/closed-error.js';
import type { Events } from '../events/names.js';
import type { ClanstreamEvent, EventPayloadMap } from '../events/payloads.js';
import { TESTING_DEFAULTS } from './defaults.js';
import { describeEvent, describeValue } from './describe-value.js';
import { WaitTimeoutError } from './wait-timeout-error.js';

/** How a wait of the test kit decides, describes and gives up. */
export interface WaitOptions<T> {
  /** What is awaited, as the timeout error names it ("the bot's reply"). */
  what?: string;
  /** Which value ends the wait (default: the first). Values it refuses are listed by the timeout error. */
  filter?: (value: T) => boolean;
  /** How long to wait before failing with a {@link WaitTimeoutError} (default `TESTING_DEFAULTS.waitTimeoutMs`, 10 s). */
  timeoutMs?: number;
  /** How the timeout error shows a value that arrived and did not match (default: compact JSON, credentials masked). */
  describe?: (value: T) => string;
  /** Drives the timeout (default `asyncScheduler`); a TestScheduler makes it virtual. */
  scheduler?: SchedulerLike;
}

/**
 * The first value of `source` that `filter` accepts. Subscribes at once, so
 * call it before the action that makes the value, then await it. Fails with a
 * {@link WaitTimeoutError} after `timeoutMs`, naming what it awaited and what
 * arrived instead, and with a ClosedError when `source` ends first. Works with
 * any runner; nothing is left running once it settles.
 *
 * @example
 * ```ts
 * import { createTestWorld, waitFor } from 'clanstream/testing';
 *
 * const world = await createTestWorld();
 * const client = await world.connect();
 * const reconnected = waitFor(client.lifecycle$, { what: 'a reconnect', filter: (event) => event.type === 'reconnected' });
 * world.emu.dropConnections();
 * console.log(await reconnected); // { type: 'reconnected', resumed: true, … }
 * await world.close();
 * ```
 */
export function waitFor<T, S extends T>(source: Observable<T>, options: WaitOptions<T> & { filter: (value: T) => value is S }): Promise<S>;
/** The first value of `source` that `options.filter` accepts (the first value, without a filter); it fails as described above. */
export function waitFor<T>(source: Observable<T>, options?: WaitOptions<T>): Promise<T>;
export function waitFor<T>(source: Observable<T>, options: WaitOptions<T> = {}): Promise<T> {
  return waitUntilEnd(source, options, 'the stream ended first');
}

/** {@link waitFor}, saying `endedBecause` when `source` ends before a match. */
export function waitUntilEnd<T>(source: Observable<T>, options: WaitOptions<T>, endedBecause: string): Promise<T> {
  const { what = 'a value', filter: matches = () => true, timeoutMs = TESTING_DEFAULTS.waitTimeoutMs, describe = describeValue, scheduler = asyncScheduler } = options;
  // Where the wait began: the stack a timeout shows, instead of the timer's.
  const callSite = new Error().stack?.split('\n').slice(1).join('\n') ?? '';
  const timedOut = (): WaitTimeoutError => {
    const error = new WaitTimeoutError(what, timeoutMs, [...arrived], arrivedCount);
    error.stack = `${error.name}: ${error.message}\n${callSite}`;
    return error;
  };
  const arrived: string[] = [];
  let arrivedCount = 0;
  const note = (value: T): void => {
    arrivedCount += 1;
    arrived.push(describe(value));
    if (arrived.length > TESTING_DEFAULTS.arrivalsShown) arrived.shift();
  };
  const settled = new Promise<T>((resolve, reject) => {
    let found = false;
    source
      .pipe(
        filter((value) => {
          if (matches(value)) return true;
          note(value);
          return false;
        }),
        take(1),
        timeout({ first: timeoutMs, scheduler, with: () => throwError(timedOut) }),
      )
      .subscribe({
        next: (value) => {
          found = true;
          resolve(value);
        },
        error: reject,
        complete: () => {
          if (!found) reject(new ClosedError(`waiting for ${what}`, endedBecause));
        },
      });
  });
  // A wait nobody awaits (the test failed earlier) must not become an unhandled rejection later.
  settled.catch(() => undefined);
  return settled;
}

/**
 * The next event of `type` that a client (or a `createMarbleClient` double)
 * delivers and `filter` accepts; the timeout error lists every other event
 * that arrived meanwhile, of any type.
 *
 * @example
 * ```ts
 * import { Events } from 'clanstream';
 * import { createTestWorld, nextEvent } from 'clanstream/testing';
 *
 * const world = await createTestWorld();
 * const client = await world.connect();
 * const hello = nextEvent(client, Events.ChannelMessage, { filter: (m) => m.content.t === 'hello' });
 * world.as('alice').send(world.channels.general!.channel_id, 'hello');
 * console.log((await hello).username); // alice
 * await world.close();
 * ```
 */
export function nextEvent<K extends Events>(client: Pick<BotSurface, 'events$'>, type: K, options: WaitOptions<EventPayloadMap[K]> = {}): Promise<EventPayloadMap[K]> {
  const { filter: matches, describe, ...rest } = options;
  const isWanted = (event: ClanstreamEvent): event is Extract<ClanstreamEvent, { type: K }> => event.type === type && (!matches || matches(event.data as EventPayloadMap[K]));
  return waitUntilEnd(
    client.events$,
    {
      what: `a ${type} event`,
      ...rest,
      filter: isWanted,
      describe: (event) => (event.type === type && describe ? describe(event.data as EventPayloadMap[K]) : describeEvent(event.type, event.data)),
    },
    'the client was closed',
  ).then((event) => event.data as EventPayloadMap[K]);
}

/**
 * A promise's value, or a WaitTimeoutError naming `what` when it takes longer
 * than `timeoutMs`; the lines of `progress$` (what happened meanwhile) are what
 * the error lists as arrived instead.
 */
export function settleWithin<T>(promise: Promise<T>, what: string, options: Pick<WaitOptions<T>, 'timeoutMs' | 'scheduler'> & { progress$?: Observable<string> } = {}): Promise<T> {
  type Step = { readonly done: true; readonly value: T } | { readonly done: false; readonly line: string };
  const { progress$ = EMPTY, ...rest } = options;
  const steps$ = merge(
    from(promise).pipe(map((value): Step => ({ done: true, value }))),
    progress$.pipe(map((line): Step => ({ done: false, line }))),
  );
  return waitFor<Step>(steps$, { what, ...rest, filter: (step) => step.done, describe: (step) => (step.done ? 'the result' : step.line) }).then((step) => (step as { value: T }).value);
}
