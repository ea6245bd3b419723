import { BehaviorSubject, distinctUntilChanged, map, scan, Subject, type Observable, type Subscription } from 'rxjs';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { StoreAction } from './actions.js';
import { CacheRecency, enforceLimits } from './bounds.js';
import { INITIAL_STATE, type ClientState } from './client-state.js';
import { CACHE_LIMITS, type CacheLimits } from './limits.js';
import { reduce } from './reducer.js';

/** Settings of the {@link Store}. */
export interface StoreOptions {
  limits?: Partial<CacheLimits>;
  /** The logged-in user, read per action (for "the bot itself left" and similar). */
  selfId: () => string | undefined;
  /** A reducer that throws is reported here; the state stays as it was. */
  report: (error: ClanstreamError) => void;
}

/**
 * The one store: every action (gateway events and the client's own request
 * results) is reduced with RxJS `scan`, synchronously, so the new state is
 * in place before `dispatch` returns — and thus before any listener runs.
 */
export class Store {
  readonly limits: CacheLimits;
  readonly recency = new CacheRecency();
  private readonly actions = new Subject<StoreAction>();
  private readonly states = new BehaviorSubject<ClientState>(INITIAL_STATE);
  private readonly subscription: Subscription;
  /** Every state, starting with the current one. */
  readonly state$: Observable<ClientState> = this.states.asObservable();

  constructor(private readonly options: StoreOptions) {
    this.limits = Object.freeze({ ...CACHE_LIMITS, ...options.limits });
    this.subscription = this.actions.pipe(scan((state: ClientState, action: StoreAction) => this.reduceSafely(state, action), INITIAL_STATE)).subscribe((state) => {
      if (state !== this.states.value) this.states.next(state);
    });
  }

  /** The current state. */
  get state(): ClientState {
    return this.states.value;
  }

  dispatch(action: StoreAction): void {
    this.actions.next(action);
  }

  /** A slice of the state, emitted when it changes. */
  select<T>(selector: (state: ClientState) => T): Observable<T> {
    return this.state$.pipe(map(selector), distinctUntilChanged());
  }

  private reduceSafely(state: ClientState, action: StoreAction): ClientState {
    try {
      this.recency.noteAction(action);
      const next = reduce(state, action, { selfId: this.options.selfId(), messagesPerChannel: this.limits.messagesPerChannel });
      return next === state ? state : enforceLimits(next, this.limits, this.recency);
    } catch (error) {
      // A reducer bug must not stop the store: keep the state and say what failed.
      this.options.report(new ProtocolError(`the cache could not apply ${action.type}: ${error instanceof Error ? error.message : String(error)}`));
      return state;
    }
  }

  dispose(): void {
    this.subscription.unsubscribe();
    this.actions.complete();
    this.states.complete();
  }
}
