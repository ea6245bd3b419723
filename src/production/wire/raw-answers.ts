import { ProtocolError } from '../core.js';
import type { RawFrame } from './raw-frame.js';

/** Bounds on the raw answers (sdk-2.8.44) one socket collects at once. */
export interface RawAnswerLimits {
  /** Bytes held across all unfinished answers; an answer that would pass it is refused. */
  readonly maxBytes: number;
  /** Unfinished answers (distinct cids) at once; a further one is refused. */
  readonly maxOpen: number;
}

export const RAW_ANSWER_LIMITS: RawAnswerLimits = {
  // The largest lists (a clan's channels or members, a page of history) stay far below it.
  maxBytes: 16 * 1024 * 1024,
  // Far above the requests one client has in flight.
  maxOpen: 256,
};

/** What one raw frame did to the answers being collected. */
export type RawAnswerStep =
  /** The last chunk came: the whole body of the answer to `cid`. `code` 0 is success. */
  | { kind: 'api_answer'; cid: number; code: number; body: Uint8Array }
  /** A chunk was kept; more follow. */
  | { kind: 'api_chunk'; cid: number; bytes: number }
  /** The answer to `cid` cannot be collected (a limit): what it held is dropped, and the request should fail. */
  | { kind: 'api_failed'; cid: number; error: ProtocolError }
  /** A chunk of an answer that already failed, dropped. */
  | { kind: 'api_discarded'; cid: number };

/**
 * Joins the chunks of raw answers per cid until their FIN, within
 * {@link RawAnswerLimits}. One per socket: a cid's chunks are held from its
 * first chunk to its last.
 */
export class RawAnswers {
  private readonly open = new Map<number, Uint8Array[]>();
  /** Cids whose answer failed, until their last chunk; as many as `maxOpen`, the oldest forgotten first. */
  private readonly failed = new Set<number>();
  private held = 0;

  constructor(private readonly limits: RawAnswerLimits = RAW_ANSWER_LIMITS) {}

  /** Bytes held across unfinished answers. */
  get heldBytes(): number {
    return this.held;
  }

  /** Unfinished answers. */
  get openAnswers(): number {
    return this.open.size;
  }

  add(frame: RawFrame): RawAnswerStep {
    const { cid, payload } = frame;
    if (this.failed.has(cid)) {
      if (frame.fin) this.failed.delete(cid);
      return { kind: 'api_discarded', cid };
    }
    let chunks = this.open.get(cid);
    if (chunks === undefined) {
      if (frame.fin) return { kind: 'api_answer', cid, code: frame.code, body: payload.slice() };
      if (this.open.size >= this.limits.maxOpen) return this.fail(cid, frame.fin, `${this.open.size} answers are already being collected (at most ${this.limits.maxOpen})`);
      chunks = [];
      this.open.set(cid, chunks);
    }
    if (this.held + payload.length > this.limits.maxBytes) {
      return this.fail(cid, frame.fin, `the answers being collected would pass ${this.limits.maxBytes} bytes`);
    }
    // A copy: the socket may reuse the frame's buffer.
    chunks.push(payload.slice());
    this.held += payload.length;
    if (!frame.fin) return { kind: 'api_chunk', cid, bytes: payload.length };
    this.drop(cid);
    return { kind: 'api_answer', cid, code: frame.code, body: join(chunks) };
  }

  /** Forgets every unfinished answer (the socket closed). */
  clear(): void {
    this.open.clear();
    this.failed.clear();
    this.held = 0;
  }

  private fail(cid: number, fin: boolean, why: string): RawAnswerStep {
    this.drop(cid);
    if (!fin) {
      if (this.failed.size >= this.limits.maxOpen) this.failed.delete(this.failed.values().next().value as number);
      this.failed.add(cid);
    }
    return { kind: 'api_failed', cid, error: new ProtocolError(`the raw answer to cid ${cid} was dropped: ${why}`) };
  }

  private drop(cid: number): void {
    const chunks = this.open.get(cid);
    if (chunks === undefined) return;
    for (const chunk of chunks) this.held -= chunk.length;
    this.open.delete(cid);
  }
}

function join(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
