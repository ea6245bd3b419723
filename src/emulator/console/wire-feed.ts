import type { WireEntry } from '../wire-log.js';
import { maskSecrets } from '../wire-log.js';
import type { ConsoleWire, ConsoleWireEntry } from './contract.js';
import type { ConsolePort } from './port.js';

/** What the wire view can be narrowed to; every filter that is set must match. */
export interface WireFilter {
  channel?: string;
  user?: string;
  /** Matches the kind (event type, op, `METHOD path`) as a case-insensitive substring. */
  kind?: string;
}

const CHANNEL_IN_PATH = /\/channels\/([^/?]+)/;

function channelOf(body: unknown, path?: string): string | undefined {
  if (typeof body === 'object' && body !== null && typeof (body as { channel_id?: unknown }).channel_id === 'string') {
    return (body as { channel_id: string }).channel_id;
  }
  return path ? CHANNEL_IN_PATH.exec(path)?.[1] : undefined;
}

/**
 * The wire view's lines: what the emulator received (its wire log, secrets
 * already masked) and every event it pushed since {@link start} (from its
 * event tap, masked here), numbered in one sequence, bounded.
 */
export class WireFeed {
  private readonly lines: ConsoleWireEntry[] = [];
  private seq = 0;
  /** The newest wire-log entry copied in, to copy only what came after it. */
  private lastCopied: WireEntry | undefined;
  private stopTap: (() => void) | undefined;

  constructor(
    private readonly port: ConsolePort,
    private readonly capacity: number,
  ) {}

  /**
   * Starts listing pushed events (received ones come from the wire log, which
   * keeps them anyway). Called when the console is first used, so an emulator
   * nobody watches (tests, benchmarks) pays nothing per event.
   */
  start(): void {
    if (this.stopTap) return;
    this.stopTap = this.port.onEvent((type, payload, deliveries) => {
      // What was received before this event goes before it.
      this.catchUp();
      this.push({
        at: Date.now(),
        direction: 'out',
        transport: 'ws',
        kind: type,
        user_ids: [...new Set(deliveries.map((d) => d.userId))],
        ...withChannel(channelOf(payload)),
        body: maskSecrets(payload),
      });
    });
  }

  /** The newest seq (after copying in what the wire log received since the last call). */
  last(): number {
    this.catchUp();
    return this.seq;
  }

  /** Lines after `after` that match, at most `limit` (the newest). */
  read(after: number, filter: WireFilter, limit: number): ConsoleWire {
    this.catchUp();
    const kind = filter.kind?.toLowerCase();
    const matching = this.lines.filter(
      (line) =>
        line.seq > after &&
        (!filter.channel || line.channel_id === filter.channel) &&
        (!filter.user || line.user_ids.includes(filter.user)) &&
        (!kind || line.kind.toLowerCase().includes(kind)),
    );
    return { entries: matching.slice(-limit), last: this.seq };
  }

  /** Lines from `after` on, unfiltered (for the bot status). */
  since(after: number): readonly ConsoleWireEntry[] {
    this.catchUp();
    const start = this.lines.findIndex((line) => line.seq > after);
    return start < 0 ? [] : this.lines.slice(start);
  }

  close(): void {
    this.stopTap?.();
    this.stopTap = undefined;
  }

  private catchUp(): void {
    const entries = this.port.wire.entries();
    let start = 0;
    if (this.lastCopied) {
      const index = entries.lastIndexOf(this.lastCopied);
      // Gone (the log was cleared or trimmed past it): everything there now is new.
      start = index >= 0 ? index + 1 : 0;
    }
    for (let i = start; i < entries.length; i++) this.push(fromWireLog(entries[i]!));
    if (entries.length > 0) this.lastCopied = entries[entries.length - 1];
  }

  private push(line: Omit<ConsoleWireEntry, 'seq'>): void {
    this.lines.push({ seq: ++this.seq, ...line });
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }
}

function withChannel(channelId: string | undefined): { channel_id?: string } {
  return channelId ? { channel_id: channelId } : {};
}

function fromWireLog(entry: WireEntry): Omit<ConsoleWireEntry, 'seq'> {
  return {
    at: entry.at,
    direction: 'in',
    transport: entry.transport,
    kind: entry.transport === 'http' ? `${entry.method ?? '?'} ${entry.path ?? ''}` : (entry.op ?? '?'),
    user_ids: entry.userId ? [entry.userId] : [],
    ...withChannel(channelOf(entry.body, entry.path)),
    ...(entry.status !== undefined ? { status: entry.status } : {}),
    ...(entry.body !== undefined ? { body: entry.body } : {}),
    ...(entry.protocol !== undefined ? { protocol: entry.protocol } : {}),
  };
}
