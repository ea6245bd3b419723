import { ProtocolError } from '../core.js';
import { RAW_FRAME_PREFIX } from './dialect-markers.js';

/** Bytes before a raw frame's payload: prefix (1), cid (2), response code (2), FIN flag (2). */
export const RAW_FRAME_HEADER_BYTES = 7;
/** The FIN flag of the last chunk of an answer; any other value means more chunks follow. */
export const RAW_FRAME_FIN = 0x00ff;

/**
 * One raw frame (sdk-2.8.44): a chunk of the answer to a socket RPC
 * (`api_request_event`). Header fields are big-endian.
 */
export interface RawFrame {
  /** The low 16 bits of the request's `cid`. */
  readonly cid: number;
  /** 0 for success; read from the last chunk. */
  readonly code: number;
  /** Whether this is the answer's last chunk. */
  readonly fin: boolean;
  /** This chunk of the answer's body (a view of the frame, not a copy). */
  readonly payload: Uint8Array;
}

/** Reads the header of a frame that starts with 0xFF, or says why it cannot. */
export function readRawFrame(bytes: Uint8Array): RawFrame | ProtocolError {
  if (bytes.length < RAW_FRAME_HEADER_BYTES || bytes[0] !== RAW_FRAME_PREFIX) {
    return new ProtocolError(`a raw frame needs a ${RAW_FRAME_HEADER_BYTES}-byte header starting 0xFF; got ${bytes.length} bytes`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { cid: view.getUint16(1), code: view.getUint16(3), fin: view.getUint16(5) === RAW_FRAME_FIN, payload: bytes.subarray(RAW_FRAME_HEADER_BYTES) };
}

/** Builds one raw frame, as a server of sdk-2.8.44 sends it (the emulator's side of the wire). */
export function writeRawFrame(frame: RawFrame): Uint8Array {
  const out = new Uint8Array(RAW_FRAME_HEADER_BYTES + frame.payload.length);
  const view = new DataView(out.buffer);
  out[0] = RAW_FRAME_PREFIX;
  view.setUint16(1, frame.cid & 0xffff);
  view.setUint16(3, frame.code & 0xffff);
  view.setUint16(5, frame.fin ? RAW_FRAME_FIN : 0);
  out.set(frame.payload, RAW_FRAME_HEADER_BYTES);
  return out;
}
