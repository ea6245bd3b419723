import type { DescMessage, MessageShape } from '@bufbuild/protobuf';
import { ProtocolError } from '../core.js';
import { describeBytes } from './describe-bytes.js';
import { frameDialectsAmong, RAW_FRAME_PREFIX } from './dialect-markers.js';
import { DIALECTS, type Dialect, type DialectName } from './dialects.js';
import { decodeEnvelope } from './envelope-codec.js';
import { RAW_ANSWER_LIMITS, RawAnswers, type RawAnswerLimits, type RawAnswerStep } from './raw-answers.js';
import { readRawFrame } from './raw-frame.js';

/** One frame from the server, decoded. */
export type InboundFrame<E extends DescMessage> =
  | { kind: 'envelope'; envelope: MessageShape<E> }
  /** A raw frame (sdk-2.8.44): a chunk, the whole answer, or a refused answer. */
  | RawAnswerStep
  /** A frame of another dialect: `dialects` are the ones its markers name (never the expected one). */
  | { kind: 'foreign'; dialects: readonly DialectName[]; error: ProtocolError }
  /** Bytes that are no frame of any dialect; `unmatched` when the markers fit none of the known dialects. */
  | { kind: 'invalid'; error: ProtocolError; unmatched?: true };

/**
 * Decodes the frames of one socket in one dialect. It checks each frame's
 * dialect markers (`frameDialects`) until one frame names the expected
 * dialect alone, so a server speaking another dialect is reported as such
 * (`foreign`) instead of decoding into wrong values; after that it only
 * decodes. It joins raw answer frames per cid, within `limits`. Never throws.
 * `reset()` when the socket is replaced.
 */
export class KnownDialectsFrameDecoder<E extends DescMessage> {
  private confirmed = false;
  private readonly raw: RawAnswers;

  /** `known`: the dialects a frame may be told to be (the expected one among them). */
  constructor(
    readonly dialect: Dialect<E>,
    private readonly known: readonly Dialect[],
    limits: RawAnswerLimits = RAW_ANSWER_LIMITS,
  ) {
    this.raw = new RawAnswers(limits);
  }

  decode(bytes: Uint8Array): InboundFrame<E> {
    if (bytes.length === 0) return { kind: 'invalid', error: new ProtocolError('an empty frame from the server') };
    const raw = bytes[0] === RAW_FRAME_PREFIX;
    if (!this.confirmed || (raw && !this.dialect.rawFrames)) {
      const dialects = frameDialectsAmong(bytes, this.known);
      if (!dialects.includes(this.dialect.name)) return this.mismatch(dialects, bytes);
      if (dialects.length === 1) this.confirmed = true;
    }
    if (!raw) {
      const envelope = decodeEnvelope(this.dialect, bytes);
      return envelope instanceof ProtocolError ? { kind: 'invalid', error: envelope } : { kind: 'envelope', envelope };
    }
    const frame = readRawFrame(bytes);
    return frame instanceof ProtocolError ? { kind: 'invalid', error: frame } : this.raw.add(frame);
  }

  /** Forgets unfinished answers and what the markers confirmed: the next socket may speak otherwise. */
  reset(): void {
    this.confirmed = false;
    this.raw.clear();
  }

  private mismatch(dialects: readonly DialectName[], bytes: Uint8Array): InboundFrame<E> {
    const expected = this.dialect.name;
    if (dialects.length === 0) {
      return { kind: 'invalid', unmatched: true, error: new ProtocolError(`a frame from the server is not a frame of the production wire in any dialect (expected ${expected})`, describeBytes(bytes)) };
    }
    const named = dialects.join(' or ');
    return {
      kind: 'foreign',
      dialects,
      error: new ProtocolError(`the server speaks ${named} frames, not ${expected}: set the dialect to ${dialects.length === 1 ? named : `one of ${named}`}`, describeBytes(bytes)),
    };
  }
}

/** A {@link KnownDialectsFrameDecoder} that knows every dialect. */
export class FrameDecoder<E extends DescMessage> extends KnownDialectsFrameDecoder<E> {
  constructor(dialect: Dialect<E>, limits: RawAnswerLimits = RAW_ANSWER_LIMITS) {
    super(dialect, DIALECTS, limits);
  }
}
