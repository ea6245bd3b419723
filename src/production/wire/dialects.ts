import type { DescMessage } from '@bufbuild/protobuf';
import { EnvelopeSchema as Sdk2833Envelope } from '../schema/sdk-2.8.33_pb.js';
import { EnvelopeSchema as Sdk2837Envelope } from '../schema/sdk-2.8.37_pb.js';
import { EnvelopeSchema as Sdk2844Envelope } from '../schema/sdk-2.8.44_pb.js';

/**
 * A dialect of the platform's production wire, named after the SDK release
 * that introduced it: `sdk-2.8.33` (ids and `cid` as strings), `sdk-2.8.37`
 * (int64 ids), `sdk-2.8.44` (int32 `cid`, raw answer frames). docs/DIALECTS.md
 * describes each.
 * @beta
 */
export type DialectName = 'sdk-2.8.33' | 'sdk-2.8.37' | 'sdk-2.8.44';

/** What the codec needs to know about one dialect. */
export interface Dialect<Envelope extends DescMessage = DescMessage> {
  readonly name: DialectName;
  /** The schema of its socket frames. */
  readonly envelope: Envelope;
  /** How `Envelope.cid` travels: text, or a number whose low 16 bits also head raw frames. */
  readonly cid: 'string' | 'int32';
  /** Whether the server answers socket RPCs with raw frames (first byte 0xFF). */
  readonly rawFrames: boolean;
  /**
   * The highest Envelope field of the pinned release: a frame with a higher
   * one comes from a later release. Unset for the newest dialect, whose later
   * additions are not known yet.
   */
  readonly lastEnvelopeField?: number;
}

export const SDK_2_8_33: Dialect<typeof Sdk2833Envelope> = { name: 'sdk-2.8.33', envelope: Sdk2833Envelope, cid: 'string', rawFrames: false, lastEnvelopeField: 90 };
export const SDK_2_8_37: Dialect<typeof Sdk2837Envelope> = { name: 'sdk-2.8.37', envelope: Sdk2837Envelope, cid: 'string', rawFrames: false, lastEnvelopeField: 94 };
export const SDK_2_8_44: Dialect<typeof Sdk2844Envelope> = { name: 'sdk-2.8.44', envelope: Sdk2844Envelope, cid: 'int32', rawFrames: true };

/** Every dialect, oldest first. */
export const DIALECTS: readonly Dialect[] = [SDK_2_8_33, SDK_2_8_37, SDK_2_8_44];
