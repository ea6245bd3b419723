import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ClanstreamEvent } from '../events/payloads.js';

/**
 * A processing step: sees each event before it is published; returning false drops it (duplicates).
 * Returning a promise holds the event, and every later one, until it settles: the bot added to a clan
 * has the clan and its channels cached before any listener hears of it.
 */
export type EventStep = (event: ClanstreamEvent) => boolean | void | Promise<unknown>;

/** Bounds of the pipeline. */
export const PIPELINE_LIMITS = {
  /** Events held behind a step's promise; past this they are released without waiting any longer. */
  maxHeld: 10_000,
} as const;

/** Work done at login before connecting, and again after a lost session. */
export interface SyncHooks {
  /** Fills the caches at login, before the gateway connects. */
  initialSync?: () => Promise<unknown>;
  /** Fetches again what the caches hold after a lost session; `reason` says why it was lost. */
  resync?: (reason: string) => Promise<unknown>;
  /** Clans to join on a fresh gateway session (the caches know them); `fallback` lists them over REST. */
  clanIds?: (fallback: () => Promise<string[]>) => Promise<string[]>;
}

/**
 * The path every inbound event takes: each step runs (caches apply the event,
 * duplicates are dropped), then the event is published to streams and
 * listeners. So a listener always sees caches that already include its event.
 */
export class InboundPipeline {
  private readonly steps: EventStep[] = [];
  private hooks: SyncHooks = {};
  private disposed = false;
  /** Events that arrived while a step's promise holds the stream (in order); undefined when nothing holds it. */
  private held: ClanstreamEvent[] | undefined;

  constructor(
    private readonly publish: (event: ClanstreamEvent) => void,
    private readonly report: (error: ClanstreamError) => void,
  ) {}

  /** Processes and publishes one event, synchronously (a direct call: no Subject hop per event). */
  push(event: ClanstreamEvent): void {
    if (this.disposed) return;
    if (this.held) {
      this.held.push(event);
      if (this.held.length > PIPELINE_LIMITS.maxHeld) {
        this.report(new ProtocolError(`more than ${PIPELINE_LIMITS.maxHeld} events arrived while the caches were being filled; delivering them without waiting`));
        this.drain(this.held.splice(0));
      }
      return;
    }
    this.run(event);
  }

  /** Processes one event, and publishes it now or once the promise a step returned settles. */
  private run(event: ClanstreamEvent): void {
    const outcome = this.process(event);
    if (outcome === false) return;
    if (outcome === true) return this.publish(event);
    const held: ClanstreamEvent[] = [];
    this.held = held;
    const release = () => {
      if (this.held !== held) return; // released already (too many held)
      this.held = undefined;
      if (this.disposed) return;
      this.publish(event);
      this.drain(held);
    };
    outcome.then(release, release);
  }

  /** Runs events that waited, in order; those after one that holds the stream again wait behind it. */
  private drain(events: ClanstreamEvent[]): void {
    for (let i = 0; i < events.length; i += 1) {
      if (this.held) {
        this.held.push(...events.slice(i));
        return;
      }
      this.run(events[i]!);
    }
  }

  /** Adds a step; returns a function that removes it. */
  use(step: EventStep): () => void {
    this.steps.push(step);
    return () => {
      const index = this.steps.indexOf(step);
      if (index >= 0) this.steps.splice(index, 1);
    };
  }

  /** Replaces all sync hooks at once; a hook left out does nothing (for `clanIds`: the REST fallback is used). */
  setHooks(hooks: SyncHooks): void {
    this.hooks = hooks;
  }

  /** Runs the `initialSync` hook; resolves at once when there is none. */
  initialSync(): Promise<unknown> {
    return this.hooks.initialSync?.() ?? Promise.resolve();
  }

  /** Runs the `resync` hook with why the session was lost; resolves at once when there is none. */
  resync(reason: string): Promise<unknown> {
    return this.hooks.resync?.(reason) ?? Promise.resolve();
  }

  /** The clans to join on a fresh gateway session: from the `clanIds` hook, else from `fallback` (a REST listing). */
  clanIdsToJoin(fallback: () => Promise<string[]>): Promise<string[]> {
    return this.hooks.clanIds?.(fallback) ?? fallback();
  }

  /** false: dropped; true: publish now; a promise: publish once it settles. */
  private process(event: ClanstreamEvent): boolean | Promise<unknown> {
    let hold: Promise<unknown> | undefined;
    for (const step of this.steps) {
      try {
        const result = step(event);
        if (result === false) return false;
        if (result instanceof Promise) hold = hold ? Promise.allSettled([hold, result]) : result;
      } catch (error) {
        // A failing step must not stop the stream; the event is still delivered.
        this.report(new ProtocolError(`processing ${event.type} #${event.seq} failed: ${error instanceof Error ? error.message : String(error)}`));
      }
    }
    return hold ?? true;
  }

  /** Stops the pipeline: later pushed events are neither processed nor published. */
  dispose(): void {
    this.disposed = true;
    this.held = undefined;
  }
}
