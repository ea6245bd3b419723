import type { ResumeFailedReason } from '../../gateway/protocol.js';

/** Something that can take a frame: the emulator's side of one socket. */
export interface FrameSink {
  send(frame: string): void;
  close(code: number, reason: string): void;
}

/**
 * One gateway session: a sequence of pushed events that outlives any one
 * socket. Keeps the last `capacity` frames so a reconnecting client can resume.
 */
export class GatewaySession {
  /** Sequence number of the last event pushed. */
  seq = 0;
  /** Sequence number of the last event written to a socket. */
  sentSeq = 0;
  readonly clans = new Set<string>();
  readonly channels = new Set<string>();
  sink: FrameSink | undefined;
  detachedAt: number | undefined;
  private readonly frames: string[] = [];
  /** Sequence number of `frames[0]`. */
  private firstSeq = 1;

  constructor(
    readonly id: string,
    readonly userId: string,
    private readonly capacity: number,
  ) {}

  /** Records an event; returns the frame to write. */
  push(type: string, payloadJson: string): string {
    this.seq += 1;
    const frame = `{"seq":${this.seq},"session_id":"${this.id}","${type}":${payloadJson}}`;
    this.frames.push(frame);
    if (this.frames.length > this.capacity) {
      // Drop in chunks so a full buffer costs O(1) amortised per event.
      const drop = Math.max(1, Math.floor(this.capacity / 4));
      this.frames.splice(0, drop);
      this.firstSeq += drop;
    }
    return frame;
  }

  /** The frames after `seq`, or why they cannot be replayed. */
  framesAfter(seq: number): { frames: string[] } | { reason: ResumeFailedReason } {
    if (!Number.isSafeInteger(seq) || seq < 0 || seq > this.seq) return { reason: 'seq_ahead' };
    if (seq + 1 < this.firstSeq) return { reason: 'buffer_exceeded' };
    return { frames: this.frames.slice(seq + 1 - this.firstSeq) };
  }
}
