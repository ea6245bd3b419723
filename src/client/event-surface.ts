import { filter, Subject, takeUntil, type Observable, type SchedulerLike } from 'rxjs';
import type { AnyClanstreamError } from '../errors/index.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { iterate, type IterateOptions } from '../events/iterate.js';
import { ListenerRegistry, type Listener } from '../events/listeners.js';
import { Events } from '../events/names.js';
import type {
  AddClanUserEvent,
  ChannelCreatedEvent,
  ChannelDeletedEvent,
  ChannelMessage,
  ChannelUpdatedEvent,
  ClanstreamEvent,
  CreateEventRequest,
  DropdownBoxSelected,
  EventPayloadMap,
  GiveCoffeeEvent,
  MessageButtonClicked,
  MessageReaction,
  MessageTypingEvent,
  Notifications,
  QuickMenuEvent,
  RoleAssignedEvent,
  RoleEvent,
  StreamingJoinedEvent,
  StreamingLeavedEvent,
  TokenSentEvent,
  UserChannelAddedEvent,
  UserChannelRemoved,
  UserClanRemovedEvent,
  VoiceEndedEvent,
  VoiceJoinedEvent,
  VoiceLeavedEvent,
  VoiceStartedEvent,
  WebrtcSignalingFwd,
} from '../events/payloads.js';
import { EventRouter } from '../events/router.js';
import {
  awaitButton as awaitClick,
  awaitSelection as awaitPick,
  buttonClicks$ as collectClicks,
  dropdownSelections$ as collectSelections,
  type AwaitOptions,
  type ButtonClick,
  type CollectorOptions,
  type DropdownSelection,
  type InteractionSource,
  type MessageRefLike,
} from '../interactive/collectors.js';
import type { LifecycleEvent, LifecycleOf, LifecycleType } from '../gateway/lifecycle.js';

const LIFECYCLE_TYPES = new Set<string>(['ready', 'disconnected', 'reconnected', 'resync']);

/**
 * What a bot subscribes to, whatever delivers the events: typed streams,
 * `for await` views, `on*` callbacks, `errors$` and `lifecycle$`. The client
 * that holds the socket and a scale-out worker both offer it, so a bot moves
 * between them by changing how it is constructed, nothing else.
 */
export abstract class EventSurface {
  /**
   * Fans processed events out to `events$` and the per-type streams.
   * @internal
   */
  protected readonly router = new EventRouter();
  /** @internal */
  protected readonly errorSubject = new Subject<AnyClanstreamError>();
  /** @internal */
  protected readonly lifecycleSubject = new Subject<LifecycleEvent>();
  /**
   * Emits when the surface closes: iterations and collectors end there.
   * @internal
   */
  protected readonly closing = new Subject<void>();
  /** @internal */
  protected readonly listeners = new ListenerRegistry(
    (error) => this.report(error),
    (event, ordinal, call) => this.runListener(event, ordinal, call),
  );

  /** Errors that did not stop the client: listener failures, bad frames, failed background work. */
  readonly errors$: Observable<AnyClanstreamError> = this.errorSubject.asObservable();
  /** Every processed event as `{type, seq, data}` (a discriminated union on `type`). */
  readonly events$: Observable<ClanstreamEvent> = this.router.events$;
  /** Connection lifecycle: ready, disconnected, reconnected, resync. */
  readonly lifecycle$: Observable<LifecycleEvent> = this.lifecycleSubject.asObservable();

  /**
   * Reports an error that did not stop the client (redacted, logged, then on `errors$`).
   * @internal
   */
  protected abstract report(error: ClanstreamError): void;

  /**
   * Drives the collectors' timeouts.
   * @internal
   */
  protected abstract readonly scheduler: SchedulerLike;

  /**
   * Calls one `on*` listener and returns what it returned (a promise, for an
   * async one). A subclass that must know when its listeners are done (a
   * scale-out worker acknowledges an event then) wraps the call here.
   * @internal
   */
  protected runListener(_event: string, _ordinal: number, call: () => unknown): unknown {
    return call();
  }

  /** The payloads of one event type, emitted after the client processed each event. */
  stream<K extends Events>(type: K): Observable<EventPayloadMap[K]> {
    return this.router.stream(type);
  }

  /**
   * A `for await` view of one event type. Lossless and ordered: events that
   * arrive while the loop body runs wait (up to `maxBuffered`, then the loop
   * throws a BufferOverflowError). Ends on `break`, on `signal` abort, and when the client closes.
   */
  iterate<K extends Events>(type: K, options: IterateOptions = {}): AsyncIterable<EventPayloadMap[K]> {
    return iterate(this.router.stream(type).pipe(takeUntil(this.closing)), options);
  }

  /** Registers a listener for an event (or a lifecycle event); returns the client. */
  on<K extends Events>(event: K, listener: Listener<EventPayloadMap[K]>): this;
  on<T extends LifecycleType>(event: T, listener: Listener<LifecycleOf<T>>): this;
  on(event: string, listener: Listener<never>): this {
    const source = LIFECYCLE_TYPES.has(event) ? this.lifecycleSubject.pipe(filter((e) => e.type === event)) : this.router.stream(event as Events);
    this.listeners.add(event, source as Observable<never>, listener);
    return this;
  }

  /** Removes a listener registered with `on` or an `on*` method; returns the client. */
  off<K extends Events>(event: K, listener: Listener<EventPayloadMap[K]>): this;
  off<T extends LifecycleType>(event: T, listener: Listener<LifecycleOf<T>>): this;
  off(event: string, listener: Listener<never>): this {
    this.listeners.remove(event, listener);
    return this;
  }

  /** How many listeners are registered (for one event, or in all). */
  listenerCount(event?: Events | LifecycleType): number {
    return this.listeners.count(event);
  }

  /** Calls `listener` for a new, edited or deleted message in any channel, thread or DM the client is in (never for typing: see {@link EventSurface.onMessageTyping}); returns the client. */
  onChannelMessage(listener: Listener<ChannelMessage>): this {
    return this.on(Events.ChannelMessage, listener);
  }
  /** Calls `listener` for a reaction added or removed; returns the client. */
  onMessageReaction(listener: Listener<MessageReaction>): this {
    return this.on(Events.MessageReaction, listener);
  }
  /** Calls `listener` for a button of one of the bot's messages clicked; returns the client. */
  onMessageButtonClicked(listener: Listener<MessageButtonClicked>): this {
    return this.on(Events.MessageButtonClicked, listener);
  }
  /** Calls `listener` for an option of a dropdown of one of the bot's messages selected; returns the client. */
  onDropdownBoxSelected(listener: Listener<DropdownBoxSelected>): this {
    return this.on(Events.DropdownBoxSelected, listener);
  }
  /** Calls `listener` for a channel created; returns the client. */
  onChannelCreated(listener: Listener<ChannelCreatedEvent>): this {
    return this.on(Events.ChannelCreated, listener);
  }
  /** Calls `listener` for a channel changed; returns the client. */
  onChannelUpdated(listener: Listener<ChannelUpdatedEvent>): this {
    return this.on(Events.ChannelUpdated, listener);
  }
  /** Calls `listener` for a channel deleted; returns the client. */
  onChannelDeleted(listener: Listener<ChannelDeletedEvent>): this {
    return this.on(Events.ChannelDeleted, listener);
  }
  /** Calls `listener` for a user added to a clan; returns the client. */
  onAddClanUser(listener: Listener<AddClanUserEvent>): this {
    return this.on(Events.AddClanUser, listener);
  }
  /** Calls `listener` for users removed from (or leaving) a clan; returns the client. */
  onUserClanRemoved(listener: Listener<UserClanRemovedEvent>): this {
    return this.on(Events.UserClanRemoved, listener);
  }
  /** Calls `listener` for users added to a channel; returns the client. */
  onUserChannelAdded(listener: Listener<UserChannelAddedEvent>): this {
    return this.on(Events.UserChannelAdded, listener);
  }
  /** Calls `listener` for users removed from a channel; returns the client. */
  onUserChannelRemoved(listener: Listener<UserChannelRemoved>): this {
    return this.on(Events.UserChannelRemoved, listener);
  }
  /** Calls `listener` for a role created, updated or deleted; returns the client. */
  onRoleEvent(listener: Listener<RoleEvent>): this {
    return this.on(Events.RoleEvent, listener);
  }
  /** Calls `listener` for a role assigned or removed; returns the client. */
  onRoleAssign(listener: Listener<RoleAssignedEvent>): this {
    return this.on(Events.RoleAssign, listener);
  }
  /** Calls `listener` for a voice session started; returns the client. */
  onVoiceStartedEvent(listener: Listener<VoiceStartedEvent>): this {
    return this.on(Events.VoiceStartedEvent, listener);
  }
  /** Calls `listener` for a voice session ended; returns the client. */
  onVoiceEndedEvent(listener: Listener<VoiceEndedEvent>): this {
    return this.on(Events.VoiceEndedEvent, listener);
  }
  /** Calls `listener` for a user joined a voice room; returns the client. */
  onVoiceJoinedEvent(listener: Listener<VoiceJoinedEvent>): this {
    return this.on(Events.VoiceJoinedEvent, listener);
  }
  /** Calls `listener` for a user left a voice room; returns the client. */
  onVoiceLeavedEvent(listener: Listener<VoiceLeavedEvent>): this {
    return this.on(Events.VoiceLeavedEvent, listener);
  }
  /** Calls `listener` for a user joined a streaming room; returns the client. */
  onStreamingJoinedEvent(listener: Listener<StreamingJoinedEvent>): this {
    return this.on(Events.StreamingJoinedEvent, listener);
  }
  /** Calls `listener` for a user left a streaming room; returns the client. */
  onStreamingLeavedEvent(listener: Listener<StreamingLeavedEvent>): this {
    return this.on(Events.StreamingLeavedEvent, listener);
  }
  /** Calls `listener` for a WebRTC signal for the client; returns the client. */
  onWebrtcSignalingFwd(listener: Listener<WebrtcSignalingFwd>): this {
    return this.on(Events.WebrtcSignalingFwd, listener);
  }
  /** Calls `listener` for a token transfer involving the client (once per transaction id); returns the client. */
  onTokenSend(listener: Listener<TokenSentEvent>): this {
    return this.on(Events.TokenSend, listener);
  }
  /** Calls `listener` for a coffee given; returns the client. */
  onGiveCoffee(listener: Listener<GiveCoffeeEvent>): this {
    return this.on(Events.GiveCoffee, listener);
  }
  /** Calls `listener` for a clan event created; returns the client. */
  onClanEventCreated(listener: Listener<CreateEventRequest>): this {
    return this.on(Events.ClanEventCreated, listener);
  }
  /** Calls `listener` for notifications for the client; returns the client. */
  onNotification(listener: Listener<Notifications>): this {
    return this.on(Events.Notifications, listener);
  }
  /** Calls `listener` for a user picked one of the bot's quick-menu entries; returns the client. */
  onQuickMenuEvent(listener: Listener<QuickMenuEvent>): this {
    return this.on(Events.QuickMenu, listener);
  }
  /**
   * Calls `listener` when someone types in a channel the client is in; returns the client. Typing is
   * never a channel message: `onChannelMessage` does not see it and no cache keeps it.
   */
  onMessageTyping(listener: Listener<MessageTypingEvent>): this {
    return this.on(Events.MessageTyping, listener);
  }

  /** What collectors read: this surface's streams, ending when it closes. */
  private interactions(): InteractionSource {
    return { stream: (type) => this.stream(type).pipe(takeUntil(this.closing)) };
  }

  /**
   * Clicks on the buttons of a message (see {@link buttonClicks$}); completes on max, timeout or deletion.
   * Pass the send itself (`client.buttonClicks$(client.sendMessage(…))`) to miss no click that arrives
   * with the send's acknowledgement.
   */
  buttonClicks$(message: MessageRefLike, options: CollectorOptions<ButtonClick> = {}): Observable<ButtonClick> {
    return collectClicks(this.interactions(), message, { scheduler: this.scheduler, ...options });
  }

  /** Selections on the dropdowns of a message; completes on max, timeout or deletion. */
  dropdownSelections$(message: MessageRefLike, options: CollectorOptions<DropdownSelection> = {}): Observable<DropdownSelection> {
    return collectSelections(this.interactions(), message, { scheduler: this.scheduler, ...options });
  }

  /** One click on a button of a message; rejects with a TimeoutError when none comes in time. */
  awaitButton(message: MessageRefLike, options: AwaitOptions<ButtonClick> = {}): Promise<ButtonClick> {
    return awaitClick(this.interactions(), message, { scheduler: this.scheduler, ...options });
  }

  /** One selection on a dropdown of a message; rejects with a TimeoutError when none comes in time. */
  awaitSelection(message: MessageRefLike, options: AwaitOptions<DropdownSelection> = {}): Promise<DropdownSelection> {
    return awaitPick(this.interactions(), message, { scheduler: this.scheduler, ...options });
  }

  /**
   * Removes every listener and ends every iteration; the streams stay open for a later start.
   * @internal
   */
  protected stopListening(): void {
    this.closing.next();
    this.listeners.clear();
  }

  /**
   * Completes every stream; the surface cannot be used again.
   * @internal
   */
  protected completeStreams(): void {
    this.router.complete();
    this.errorSubject.complete();
    this.lifecycleSubject.complete();
    this.closing.complete();
  }
}
