import {
  asyncScheduler,
  concat,
  defer,
  EMPTY,
  filter,
  finalize,
  firstValueFrom,
  from,
  map,
  merge,
  mergeMap,
  Observable,
  take,
  takeUntil,
  throwError,
  timeout as timeoutWith,
  timer,
  type SchedulerLike,
} from 'rxjs';
import { ClosedError } from '../errors/closed-error.js';
import type { ProtocolError } from '../errors/protocol-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { Events } from '../events/names.js';
import type { ChannelMessage, DropdownBoxSelected, EventPayloadMap, MessageButtonClicked } from '../events/payloads.js';
import { TypeMessage } from '../model/enums.js';
import { parseExtraData, type FormValues } from './form.js';
import { holdStream } from './held-stream.js';
import { MessageDeletedError } from './message-deleted-error.js';
import { promised } from '../util/promised.js';

/** Where interactions come from: a {@link ServiceClient}, or anything with the same `stream` (a test double). */
export interface InteractionSource {
  /** The payloads of one event type; collectors filter them down to the watched message. */
  stream<K extends Events>(type: K): Observable<EventPayloadMap[K]>;
}

/**
 * The message whose interactions to watch: anything with `channel_id` and
 * `message_id` (or `id`) — a ChannelMessage, a send's ack, a stored message.
 */
export interface MessageRef {
  readonly channel_id: string;
  readonly message_id?: string;
  readonly id?: string;
}

/**
 * A message to watch, or the promise of one: pass a send still in flight
 * (`client.sendMessage(…)` without `await`) and the collector listens from
 * that moment, so no click is missed while the acknowledgement is on its way.
 */
export type MessageRefLike = MessageRef | PromiseLike<MessageRef>;

/** A button click with its form values parsed from `extra_data`. */
export interface ButtonClick extends MessageButtonClicked {
  /** Values of the message's inputs, keyed by input id; `{}` when there were none or `extra_data` was unreadable. */
  readonly form: FormValues;
  /** Why `form` is empty although `extra_data` was not: invalid JSON, or JSON that is not an object. */
  readonly formError?: ProtocolError;
}

/** A dropdown selection (the event as delivered). */
export type DropdownSelection = DropdownBoxSelected;

/**
 * When a collector completes. It always completes when the watched message
 * is deleted (a `channel_message` with code 2 and its id), and when the
 * source completes (the client was destroyed). Without `max`, `timeout` or
 * `idle` it otherwise runs until unsubscribed.
 */
export interface CollectorOptions<T> {
  /** Only values passing this are emitted and counted. */
  filter?: (value: T) => boolean;
  /** Total lifetime in ms, counted from subscription: completes when it passes. */
  timeout?: number;
  /** Idle time in ms: completes when no (filtered) value arrived for this long; each value restarts it. */
  idle?: number;
  /** Completes after this many (filtered) values. */
  max?: number;
  /** Drives `timeout` and `idle` (a TestScheduler in marble tests). Default: asyncScheduler. */
  scheduler?: SchedulerLike;
}

/** Options of {@link awaitButton} and {@link awaitSelection}. */
export interface AwaitOptions<T> {
  /** Only a value passing this resolves the promise. */
  filter?: (value: T) => boolean;
  /** How long to wait, in ms (default {@link AWAIT_DEFAULT_TIMEOUT_MS}); then the promise rejects with a TimeoutError. */
  timeout?: number;
  /** Drives the timeout (a TestScheduler in tests). */
  scheduler?: SchedulerLike;
  /** Aborting rejects the promise with the signal's reason. */
  signal?: AbortSignal;
}

/** Default wait of {@link awaitButton}: one minute. */
export const AWAIT_DEFAULT_TIMEOUT_MS = 60_000;

interface ResolvedRef {
  messageId: string;
  channelId: string;
}

function resolveRef(message: MessageRef | undefined, operation: string): ResolvedRef {
  const issues: ValidationIssue[] = [];
  const messageId = message?.message_id || message?.id;
  if (typeof messageId !== 'string' || messageId === '') issues.push({ path: 'message.message_id', message: 'is required (or id): the message to watch', code: 'invalid' });
  if (typeof message?.channel_id !== 'string' || message.channel_id === '') issues.push({ path: 'message.channel_id', message: 'is required', code: 'invalid' });
  if (issues.length > 0) throw new ValidationError(issues, `${operation} arguments`);
  return { messageId: messageId as string, channelId: (message as MessageRef).channel_id };
}

function checkOptions(
  options: { timeout?: number | undefined; idle?: number | undefined; max?: number | undefined; filter?: unknown; signal?: unknown },
  operation: string,
  awaiting = false,
): void {
  const issues: ValidationIssue[] = [];
  const given: unknown = options;
  if (typeof given !== 'object' || given === null) throw new ValidationError([{ path: 'options', message: 'must be an object', code: 'invalid' }], `${operation} options`);
  for (const key of ['timeout', 'idle'] as const) {
    const value = options[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) issues.push({ path: key, message: 'must be a positive number of ms', code: 'invalid' });
  }
  const { max } = options;
  if (max !== undefined && !(Number.isSafeInteger(max) && max > 0)) issues.push({ path: 'max', message: 'must be a positive integer', code: 'invalid' });
  if (options.filter !== undefined && typeof options.filter !== 'function') issues.push({ path: 'filter', message: 'must be a function', code: 'invalid' });
  const { signal } = options;
  if (awaiting && signal !== undefined && !(typeof signal === 'object' && signal !== null && typeof (signal as Partial<AbortSignal>).addEventListener === 'function')) {
    issues.push({ path: 'signal', message: 'must be an AbortSignal', code: 'invalid' });
  }
  if (issues.length > 0) throw new ValidationError(issues, `${operation} options`);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** An event about one message. */
type MessageEvent = { readonly message_id: string; readonly channel_id: string };

/** What a collector reads: one kind of interaction, and the deletions of messages. */
interface Watched<T extends MessageEvent> {
  readonly values$: Observable<T>;
  readonly deletions$: Observable<ChannelMessage>;
}

function deletionsOf(source: InteractionSource): Observable<ChannelMessage> {
  return source.stream(Events.ChannelMessage).pipe(filter((m) => m.code === TypeMessage.ChatRemove));
}

function clicksOf(source: InteractionSource): Watched<MessageButtonClicked> {
  return { values$: source.stream(Events.MessageButtonClicked), deletions$: deletionsOf(source) };
}

function selectionsOf(source: InteractionSource): Watched<DropdownBoxSelected> {
  return { values$: source.stream(Events.DropdownBoxSelected), deletions$: deletionsOf(source) };
}

function withForm(e: MessageButtonClicked): ButtonClick {
  const { values, error } = parseExtraData(e.extra_data);
  return { ...e, form: values, ...(error ? { formError: error } : {}) };
}

function onMessage<T extends MessageEvent>(events$: Observable<T>, ref: ResolvedRef): Observable<T> {
  return events$.pipe(filter((e) => e.message_id === ref.messageId && e.channel_id === ref.channelId));
}

/**
 * Runs `build` over the interactions of one message. For a message given as
 * a promise (a send in flight), the streams are subscribed at once and what
 * arrives is held until the promise resolves, so nothing is missed; a
 * rejected promise is the result's error.
 */
function watch<T extends MessageEvent, R>(
  watched: Watched<T>,
  message: MessageRefLike,
  operation: string,
  build: (values$: Observable<T>, deleted$: Observable<unknown>, ref: ResolvedRef) => Observable<R>,
): Observable<R> {
  const run = (values$: Observable<T>, deletions$: Observable<ChannelMessage>, ref: ResolvedRef) => build(onMessage(values$, ref), onMessage(deletions$, ref), ref);
  if (!isPromiseLike(message)) {
    const ref = resolveRef(message, operation);
    return defer(() => run(watched.values$, watched.deletions$, ref));
  }
  return defer(() => {
    const values = holdStream(watched.values$);
    const deletions = holdStream(watched.deletions$);
    return from(message).pipe(
      mergeMap((resolved) => run(values.values$, deletions.values$, resolveRef(resolved, operation))),
      finalize(() => {
        values.release();
        deletions.release();
      }),
    );
  });
}

function collect<T>(values$: Observable<T>, deleted$: Observable<unknown>, options: CollectorOptions<T>): Observable<T> {
  const scheduler = options.scheduler ?? asyncScheduler;
  const predicate = options.filter;
  let out$ = predicate ? values$.pipe(filter((v) => predicate(v))) : values$;
  if (options.idle !== undefined) out$ = out$.pipe(timeoutWith({ each: options.idle, with: () => EMPTY, scheduler }));
  if (options.max !== undefined) out$ = out$.pipe(take(options.max));
  out$ = out$.pipe(takeUntil(deleted$));
  if (options.timeout !== undefined) out$ = out$.pipe(takeUntil(timer(options.timeout, scheduler)));
  return out$;
}

/**
 * The clicks on the buttons of one message, as a cold Observable: each
 * subscription watches from then on. Completes on `max`, on `timeout` (total
 * lifetime) or `idle` (quiet time), when the message is deleted, and when
 * the client is destroyed; unsubscribing stops it. Nothing is left behind.
 *
 * `message` may be a send still in flight: the collector listens from the
 * moment it is subscribed, holds what arrives until the send resolves, and
 * counts `timeout` and `idle` from then; a failed send is its error.
 *
 * @throws ValidationError at once when `message` has no id or channel_id, or an option is invalid.
 *
 * @example
 * ```ts
 * import { ActionRowBuilder, ButtonBuilder, buttonClicks$, EButtonMessageStyle, type ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * declare const channelId: string;
 * const row = new ActionRowBuilder().addComponents(new ButtonBuilder().setId('vote').setLabel('Vote').setStyle(EButtonMessageStyle.PRIMARY));
 * const votes = new Set<string>();
 * // one vote per person; the collector ends after 30 s without a click
 * buttonClicks$(client, client.sendMessage(channelId, { t: 'Vote?', components: [row.build()] }), { idle: 30_000 })
 *   .subscribe((click) => votes.add(click.user_id));
 * ```
 */
export function buttonClicks$(client: InteractionSource, message: MessageRefLike, options: CollectorOptions<ButtonClick> = {}): Observable<ButtonClick> {
  const clicks$ = watch(clicksOf(client), message, 'buttonClicks$', (values$, deleted$) => collect(values$.pipe(map(withForm)), deleted$, options));
  checkOptions(options, 'buttonClicks$');
  return clicks$;
}

/** The dropdown selections on one message; completes as {@link buttonClicks$} does. */
export function dropdownSelections$(
  client: InteractionSource,
  message: MessageRefLike,
  options: CollectorOptions<DropdownSelection> = {},
): Observable<DropdownSelection> {
  const selections$ = watch(selectionsOf(client), message, 'dropdownSelections$', (values$, deleted$) => collect(values$, deleted$, options));
  checkOptions(options, 'dropdownSelections$');
  return selections$;
}

/** Errors with the signal's reason when it aborts; never emits. Removes its listener on teardown. */
function aborted$(signal: AbortSignal | undefined, operation: string): Observable<never> {
  return new Observable<never>((subscriber) => {
    if (!signal) return undefined;
    const onAbort = (): void => subscriber.error(signal.reason ?? new ClosedError(operation));
    if (signal.aborted) {
      onAbort();
      return undefined;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  });
}

/** The first of: a matching value, a timeout, the message deleted, or the source ending (the client was destroyed). */
function first$<T>(operation: string, values$: Observable<T>, deleted$: Observable<unknown>, ref: ResolvedRef, options: AwaitOptions<T>): Observable<T> {
  const wait = options.timeout ?? AWAIT_DEFAULT_TIMEOUT_MS;
  const scheduler = options.scheduler ?? asyncScheduler;
  const predicate = options.filter;
  const matching$ = predicate ? values$.pipe(filter((v) => predicate(v))) : values$;
  const failures$ = merge(
    timer(wait, scheduler).pipe(mergeMap(() => throwError(() => new TimeoutError(operation, wait)))),
    deleted$.pipe(mergeMap(() => throwError(() => new MessageDeletedError(operation, ref.messageId)))),
  );
  return merge(concat(matching$, throwError(() => new ClosedError(operation))), failures$);
}

function awaitFirst<T extends MessageEvent, R>(
  operation: string,
  watched: Watched<T>,
  message: MessageRefLike,
  options: AwaitOptions<R>,
  read: (values$: Observable<T>) => Observable<R>,
): Promise<R> {
  return promised(() => {
    const one$ = watch(watched, message, operation, (values$, deleted$, ref) => first$(operation, read(values$), deleted$, ref, options));
    checkOptions(options, operation, true);
    // take(1) and errors unsubscribe everything: the timer, the held streams, the abort listener.
    return firstValueFrom(merge(one$, aborted$(options.signal, operation)).pipe(take(1)));
  });
}

/**
 * Waits for one click on a button of `message` (passing `filter`). Rejects
 * with a {@link TimeoutError} after `timeout` ms (default one minute), a
 * {@link MessageDeletedError} when the message is deleted, a ClosedError when
 * the client is destroyed, or the signal's reason on abort. Settling always
 * releases its subscriptions and timer.
 *
 * `message` may be a send still in flight, as for {@link buttonClicks$}:
 * `await awaitButton(client, client.sendMessage(…))` misses no click, and
 * rejects with the send's error when the send fails.
 *
 * @example
 * ```ts
 * import { ActionRowBuilder, awaitButton, ButtonBuilder, EButtonMessageStyle, TimeoutError, type ServiceClient } from 'clanstream';
 *
 * declare const client: ServiceClient;
 * declare const channelId: string;
 * declare const userId: string;
 * const row = new ActionRowBuilder().addComponents(
 *   new ButtonBuilder().setId('yes').setLabel('Yes').setStyle(EButtonMessageStyle.SUCCESS),
 *   new ButtonBuilder().setId('no').setLabel('No').setStyle(EButtonMessageStyle.DANGER),
 * );
 * try {
 *   const click = await awaitButton(client, client.sendMessage(channelId, { t: 'Deploy?', components: [row.build()] }), {
 *     filter: (c) => c.user_id === userId, // only the person who asked
 *     timeout: 30_000,
 *   });
 *   console.log(click.button_id); // 'yes' or 'no'
 * } catch (error) {
 *   if (!(error instanceof TimeoutError)) throw error;
 * }
 * ```
 */
export function awaitButton(client: InteractionSource, message: MessageRefLike, options: AwaitOptions<ButtonClick> = {}): Promise<ButtonClick> {
  return awaitFirst('awaitButton', clicksOf(client), message, options, (values$) => values$.pipe(map(withForm)));
}

/** Waits for one dropdown selection on `message`; settles as {@link awaitButton}. */
export function awaitSelection(client: InteractionSource, message: MessageRefLike, options: AwaitOptions<DropdownSelection> = {}): Promise<DropdownSelection> {
  return awaitFirst('awaitSelection', selectionsOf(client), message, options, (values$) => values$);
}
