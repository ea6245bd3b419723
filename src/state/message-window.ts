import type { EditToken } from './edit-token.js';
import { idAfter } from './message-ids.js';

/** Messages per chunk: an append copies at most one chunk and the short chunk list. */
const CHUNK = 32;

/** What a window holds: anything with an id and a creation time. */
export interface WindowItem {
  readonly message_id: string;
  readonly create_time_seconds?: number;
}

/** A run of messages; changed in place only under the token it was made with. */
interface Chunk<M> {
  readonly owner: EditToken | undefined;
  readonly items: M[];
}

/**
 * The most recent messages of one channel, oldest first, bounded to `limit`:
 * an immutable list of short chunks, so appending is cheap and older windows
 * stay valid for whoever still holds them. Given an edit token (`EditToken`), an
 * update reuses the chunks made under it instead of copying them (see
 * PersistentMap).
 */
export class MessageWindow<M extends WindowItem> {
  private constructor(
    private readonly chunks: Array<Chunk<M>>,
    /** Number of messages held. */
    readonly size: number,
    /** Most messages the window keeps; the oldest go first. */
    readonly limit: number,
    /** An upper bound of the ids held (ids compared as numbers): a larger id is not held. */
    private readonly maxId: string,
    /** The token the chunk list was made under. */
    private readonly owner: EditToken | undefined,
  ) {
    Object.freeze(this);
  }

  /**
   * A window holding nothing that will keep at most `limit` messages.
   * @internal
   */
  static empty<M extends WindowItem>(limit: number): MessageWindow<M> {
    return new MessageWindow<M>([], 0, limit, '', undefined);
  }

  /**
   * A window of `messages` (any order; sorted by time and id), keeping the newest `limit`.
   * @internal
   */
  static of<M extends WindowItem>(messages: readonly M[], limit: number): MessageWindow<M> {
    const byId = new Map<string, M>();
    for (const message of messages) byId.set(message.message_id, message);
    const sorted = [...byId.values()].sort(compareMessages);
    const kept = sorted.slice(Math.max(0, sorted.length - limit));
    const chunks: Array<Chunk<M>> = [];
    for (let i = 0; i < kept.length; i += CHUNK) chunks.push({ owner: undefined, items: kept.slice(i, i + CHUNK) });
    let maxId = '';
    for (const m of kept) if (idAfter(m.message_id, maxId)) maxId = m.message_id;
    return new MessageWindow<M>(chunks, kept.length, limit, maxId, undefined);
  }

  /** The held message with this id, or undefined; searches newest first. */
  get(id: string): M | undefined {
    if (idAfter(id, this.maxId)) return undefined;
    for (let c = this.chunks.length - 1; c >= 0; c -= 1) {
      const items = this.chunks[c]!.items;
      for (let i = items.length - 1; i >= 0; i -= 1) if (items[i]!.message_id === id) return items[i];
    }
    return undefined;
  }

  /** Whether a message with this id is held. */
  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** The newest message. */
  last(): M | undefined {
    const items = this.chunks[this.chunks.length - 1]?.items;
    return items?.[items.length - 1];
  }

  /** The oldest message held. */
  first(): M | undefined {
    return this.chunks[0]?.items[0];
  }

  /**
   * Adds a message at the end (a message already held is replaced where it is).
   * @internal
   */
  append(message: M, token?: EditToken): MessageWindow<M> {
    // A new message's id is larger than every id held (ids grow with time): no scan of the window then.
    const newer = idAfter(message.message_id, this.maxId);
    if (!newer && this.has(message.message_id)) return this.replace(message.message_id, () => message, token);
    const chunks = this.writableChunks(token);
    const last = chunks[chunks.length - 1];
    if (last && last.items.length < CHUNK) {
      if (owned(last, token)) last.items.push(message);
      else chunks[chunks.length - 1] = { owner: token, items: [...last.items, message] };
    } else chunks.push({ owner: token, items: [message] });

    // Past the limit the oldest go: whole chunks, then the front of the first one.
    let size = this.size + 1;
    while (size > this.limit && chunks.length > 0) {
      const first = chunks[0]!;
      const excess = size - this.limit;
      if (excess >= first.items.length) {
        chunks.shift();
        size -= first.items.length;
      } else {
        if (owned(first, token)) first.items.splice(0, excess);
        else chunks[0] = { owner: token, items: first.items.slice(excess) };
        size -= excess;
      }
    }
    return new MessageWindow(chunks, size, this.limit, newer ? message.message_id : this.maxId, token);
  }

  /**
   * Replaces a held message with what `fn` makes of it; unchanged when absent.
   * @internal
   */
  replace(id: string, fn: (message: M) => M, token?: EditToken): MessageWindow<M> {
    const at = this.locate(id);
    if (!at) return this;
    const chunk = this.chunks[at.chunk]!;
    const next = fn(chunk.items[at.index]!);
    if (next === chunk.items[at.index]) return this;
    const chunks = this.writableChunks(token);
    const target = owned(chunk, token) ? chunk : { owner: token, items: chunk.items.slice() };
    target.items[at.index] = next;
    chunks[at.chunk] = target;
    return new MessageWindow(chunks, this.size, this.limit, this.maxId, token);
  }

  /**
   * A window without the message of this id; the same window when it is not held.
   * @internal
   */
  remove(id: string, token?: EditToken): MessageWindow<M> {
    const at = this.locate(id);
    if (!at) return this;
    const chunk = this.chunks[at.chunk]!;
    const chunks = this.writableChunks(token);
    if (chunk.items.length === 1) chunks.splice(at.chunk, 1);
    else {
      const target = owned(chunk, token) ? chunk : { owner: token, items: chunk.items.slice() };
      target.items.splice(at.index, 1);
      chunks[at.chunk] = target;
    }
    return new MessageWindow(chunks, this.size - 1, this.limit, this.maxId, token);
  }

  /**
   * Adds older (or any) messages, keeping order and the limit; a message given here replaces the held copy.
   * @internal
   */
  merge(messages: readonly M[]): MessageWindow<M> {
    return messages.length === 0 ? this : MessageWindow.of([...this.values(), ...messages], this.limit);
  }

  /** The messages, oldest first (a new array). */
  values(): M[] {
    const out: M[] = [];
    for (const chunk of this.chunks) for (const item of chunk.items) out.push(item);
    return out;
  }

  private locate(id: string): { chunk: number; index: number } | undefined {
    if (idAfter(id, this.maxId)) return undefined;
    for (let c = this.chunks.length - 1; c >= 0; c -= 1) {
      const index = this.chunks[c]!.items.findIndex((m) => m.message_id === id);
      if (index >= 0) return { chunk: c, index };
    }
    return undefined;
  }

  private writableChunks(token: EditToken | undefined): Array<Chunk<M>> {
    return token !== undefined && this.owner === token ? this.chunks : this.chunks.slice();
  }
}

const owned = <M>(chunk: Chunk<M>, token: EditToken | undefined): boolean => token !== undefined && chunk.owner === token;

/** Oldest first: by creation time, then by id (ids grow with time). */
function compareMessages(a: WindowItem, b: WindowItem): number {
  const dt = (a.create_time_seconds ?? 0) - (b.create_time_seconds ?? 0);
  if (dt !== 0) return dt;
  if (a.message_id.length !== b.message_id.length) return a.message_id.length - b.message_id.length;
  return a.message_id < b.message_id ? -1 : a.message_id > b.message_id ? 1 : 0;
}
