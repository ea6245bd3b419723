import { useEffect, useState } from 'preact/hooks';

/**
 * Something the page draws from that changes: views subscribe with
 * {@link useChanges}. Notifications are gathered into one per animation
 * frame, so a burst of a thousand messages costs one redraw, not a thousand.
 */
export class Changes {
  private readonly listeners = new Set<() => void>();
  private queued = false;

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Asks subscribers to redraw, once per frame however often it is called. */
  changed(): void {
    if (this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      for (const listener of [...this.listeners]) listener();
    });
  }
}

/** Redraws the calling view whenever `source` changes. */
export function useChanges(source: Changes | undefined): void {
  const [, setVersion] = useState(0);
  useEffect(() => source?.subscribe(() => setVersion((v) => v + 1)), [source]);
}
