import type { ClanstreamError } from '../errors/clanstream-error.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { ClanstreamEvent } from '../events/payloads.js';

/** A processing step: sees each event before it is published; returning false drops it (duplicates). */
export type EventStep = (event: ClanstreamEvent) => boolean | void;

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

  constructor(
    private readonly publish: (event: ClanstreamEvent) => void,
    private readonly report: (error: ClanstreamError) => void,
  ) {}

  /** Processes and publishes one event, synchronously (a direct call: no Subject hop per event). */
  push(event: ClanstreamEvent): void {
    if (!this.disposed && this.process(event)) this.publish(event);
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

  private process(event: ClanstreamEvent): boolean {
    for (const step of this.steps) {
      try {
        if (step(event) === false) return false;
      } catch (error) {
        // A failing step must not stop the stream; the event is still delivered.
        this.report(new ProtocolError(`processing ${event.type} #${event.seq} failed: ${error instanceof Error ? error.message : String(error)}`));
      }
    }
    return true;
  }

  /** Stops the pipeline: later pushed events are neither processed nor published. */
  dispose(): void {
    this.disposed = true;
  }
}
