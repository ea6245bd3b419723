import { BehaviorSubject, defer, distinctUntilChanged, map, type Observable } from 'rxjs';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { StoreAction } from './actions.js';
import { CacheRecency, enforceLimits } from './bounds.js';
import { INITIAL_STATE, type ClientState } from './client-state.js';
import { newEditToken } from './edit-token.js';
import { CACHE_LIMITS, type CacheLimits } from './limits.js';
import { reduce } from './reducer.js';

/** Settings of the {@link Store}. */
export interface StoreOptions {
  limits?: Partial<CacheLimits>;
  /** The logged-in user, read per action (for "the bot itself left" and similar). */
  selfId: () => string | undefined;
  /** A reducer that throws is reported here; the store keeps going with the state it had. */
  report: (error: ClanstreamError) => void;
}

/**
 * The one store: every action (gateway events and the client's own request
 * results) is reduced synchronously, as RxJS `scan` would (a direct call: no
 * operator chain per event), so the new state is in place before `dispatch`
 * returns — and thus before any listener runs.
 *
 * States are immutable to everyone outside. Inside, the hot reducers may
 * change nodes made since the state was last handed out (an edit token, see
 * PersistentMap), so a stream of events nobody looks at in between costs no
 * copies: `state`, `state$` and `select` hand the state out and retire the
 * token; `current` is for a lookup on the spot and does not.
 */
export class Store {
  readonly limits: CacheLimits;
  readonly recency: CacheRecency;
  private readonly states = new BehaviorSubject<ClientState>(INITIAL_STATE);
  private disposed = false;
  private token = newEditToken();
  /** Every state, starting with the current one. */
  readonly state$: Observable<ClientState> = defer(() => {
    this.handOut();
    return this.states;
  });

  constructor(private readonly options: StoreOptions) {
    this.limits = Object.freeze({ ...CACHE_LIMITS, ...options.limits });
    this.recency = new CacheRecency(this.limits.messagesPerChannel > 0);
  }

  /** The current state, safe to keep: later events never change it. */
  get state(): ClientState {
    this.handOut();
    return this.states.value;
  }

  /**
   * The current state for a lookup right now (`current.users.get(id)`). The
   * records it returns are immutable; the containers may change with the next
   * event, so never keep it or iterate it across an `await`: use `state`.
   */
  get current(): ClientState {
    return this.states.value;
  }

  /** Reduces an action synchronously: the new state is in place (and emitted on `state$` when it changed) before this returns. A reducer that throws is reported and the previous state kept. */
  dispatch(action: StoreAction): void {
    if (this.disposed) return;
    const state = this.states.value;
    const next = this.reduceSafely(state, action);
    if (next === state) return;
    // Subscribers of state$ receive this state: it must not change after this point.
    if (this.states.observed) this.handOut();
    this.states.next(next);
  }

  /** A slice of the state, emitted when it changes. */
  select<T>(selector: (state: ClientState) => T): Observable<T> {
    return this.state$.pipe(map(selector), distinctUntilChanged());
  }

  /** The state is about to be seen: later updates copy what they change instead of reusing it. */
  private handOut(): void {
    this.token = newEditToken();
  }

  private reduceSafely(state: ClientState, action: StoreAction): ClientState {
    try {
      this.recency.noteAction(action);
      const context = { selfId: this.options.selfId(), messagesPerChannel: this.limits.messagesPerChannel, token: this.token, learnedMember: this.recency.members.note };
      const next = reduce(state, action, context);
      return next === state ? state : enforceLimits(next, this.limits, this.recency, this.token);
    } catch (error) {
      // A reducer bug must not stop the store: keep the state and say what failed. The failed update
      // may already have applied part of the event in place; retiring the token stops anything
      // building on a half-made node.
      this.handOut();
      this.options.report(new ProtocolError(`the cache could not apply ${action.type}: ${error instanceof Error ? error.message : String(error)}`));
      return state;
    }
  }

  /** Stops the store: `state$` completes and later dispatches change nothing. */
  dispose(): void {
    this.disposed = true;
    this.states.complete();
  }
}
