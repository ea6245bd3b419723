/** Messages per chunk: an append copies at most one chunk and the short chunk list. */
const CHUNK = 32;

/** What a window holds: anything with an id and a creation time. */
export interface WindowItem {
  readonly message_id: string;
  readonly create_time_seconds?: number;
}

/**
 * The most recent messages of one channel, oldest first, bounded to `limit`:
 * an immutable list of short chunks, so appending is cheap and older windows
 * stay valid for whoever still holds them.
 */
export class MessageWindow<M extends WindowItem> {
  private constructor(
    private readonly chunks: ReadonlyArray<readonly M[]>,
    /** Number of messages held. */
    readonly size: number,
    /** Most messages the window keeps; the oldest go first. */
    readonly limit: number,
  ) {
    Object.freeze(this);
  }

  static empty<M extends WindowItem>(limit: number): MessageWindow<M> {
    return new MessageWindow<M>([], 0, limit);
  }

  /** A window of `messages` (any order; sorted by time and id), keeping the newest `limit`. */
  static of<M extends WindowItem>(messages: readonly M[], limit: number): MessageWindow<M> {
    const byId = new Map<string, M>();
    for (const message of messages) byId.set(message.message_id, message);
    const sorted = [...byId.values()].sort(compareMessages);
    const kept = sorted.slice(Math.max(0, sorted.length - limit));
    const chunks: M[][] = [];
    for (let i = 0; i < kept.length; i += CHUNK) chunks.push(kept.slice(i, i + CHUNK));
    return new MessageWindow<M>(chunks, kept.length, limit);
  }

  get(id: string): M | undefined {
    for (let c = this.chunks.length - 1; c >= 0; c -= 1) {
      const chunk = this.chunks[c]!;
      for (let i = chunk.length - 1; i >= 0; i -= 1) if (chunk[i]!.message_id === id) return chunk[i];
    }
    return undefined;
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The newest message. */
  last(): M | undefined {
    const chunk = this.chunks[this.chunks.length - 1];
    return chunk?.[chunk.length - 1];
  }

  /** Adds a message at the end (a message already held is replaced where it is). */
  append(message: M): MessageWindow<M> {
    if (this.has(message.message_id)) return this.replace(message.message_id, () => message);
    const chunks = this.chunks.slice();
    const last = chunks[chunks.length - 1];
    if (last && last.length < CHUNK) chunks[chunks.length - 1] = [...last, message];
    else chunks.push([message]);
    return this.trimmed(chunks, this.size + 1);
  }

  /** Replaces a held message with what `fn` makes of it; unchanged when absent. */
  replace(id: string, fn: (message: M) => M): MessageWindow<M> {
    for (let c = this.chunks.length - 1; c >= 0; c -= 1) {
      const chunk = this.chunks[c]!;
      const index = chunk.findIndex((m) => m.message_id === id);
      if (index < 0) continue;
      const next = fn(chunk[index]!);
      if (next === chunk[index]) return this;
      const nextChunk = chunk.slice();
      nextChunk[index] = next;
      const chunks = this.chunks.slice();
      chunks[c] = nextChunk;
      return new MessageWindow(chunks, this.size, this.limit);
    }
    return this;
  }

  remove(id: string): MessageWindow<M> {
    for (let c = this.chunks.length - 1; c >= 0; c -= 1) {
      const chunk = this.chunks[c]!;
      const index = chunk.findIndex((m) => m.message_id === id);
      if (index < 0) continue;
      const chunks = this.chunks.slice();
      if (chunk.length === 1) chunks.splice(c, 1);
      else chunks[c] = [...chunk.slice(0, index), ...chunk.slice(index + 1)];
      return new MessageWindow(chunks, this.size - 1, this.limit);
    }
    return this;
  }

  /** Adds older (or any) messages, keeping order and the limit; a message given here replaces the held copy. */
  merge(messages: readonly M[]): MessageWindow<M> {
    return messages.length === 0 ? this : MessageWindow.of([...this.values(), ...messages], this.limit);
  }

  /** The oldest message held. */
  first(): M | undefined {
    return this.chunks[0]?.[0];
  }

  /** The messages, oldest first. */
  values(): M[] {
    return this.chunks.flat();
  }

  private trimmed(chunks: Array<readonly M[]>, size: number): MessageWindow<M> {
    let count = size;
    while (count > this.limit && chunks.length > 0) {
      const first = chunks[0]!;
      const excess = count - this.limit;
      if (excess >= first.length) {
        chunks.shift();
        count -= first.length;
      } else {
        chunks[0] = first.slice(excess);
        count -= excess;
      }
    }
    return new MessageWindow(chunks, count, this.limit);
  }
}

/** Oldest first: by creation time, then by id (ids grow with time). */
function compareMessages(a: WindowItem, b: WindowItem): number {
  const dt = (a.create_time_seconds ?? 0) - (b.create_time_seconds ?? 0);
  if (dt !== 0) return dt;
  if (a.message_id.length !== b.message_id.length) return a.message_id.length - b.message_id.length;
  return a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0;
}
