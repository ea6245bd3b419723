import { create, fromBinary, toBinary, type DescMessage, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { ProtocolError } from '../core.js';
import { ValidationError } from '../core.js';
import { readFlatPush } from './flat-push-reader.js';
import type { Dialect } from './dialects.js';
import { describeBytes } from './describe-bytes.js';

/**
 * Encodes one Envelope of `dialect`, its `cid` included (text in sdk-2.8.33
 * and sdk-2.8.37, a number in sdk-2.8.44). A value the wire cannot carry (an
 * id that is not a decimal integer, a number out of its field's range) is a
 * ValidationError; nothing is thrown.
 */
export function encodeEnvelope<E extends DescMessage>(dialect: Dialect<E>, envelope: MessageInitShape<E>): Uint8Array | ValidationError {
  return encodeMessage(dialect.envelope, envelope, `${dialect.name} envelope`);
}

/** Encodes one message of a schema (an RPC body, an Envelope), refusing what the wire cannot carry. */
export function encodeMessage<M extends DescMessage>(schema: M, message: MessageInitShape<M>, subject: string): Uint8Array | ValidationError {
  try {
    return toBinary(schema, create(schema, message));
  } catch (cause) {
    // protobuf-es names the field and the value it cannot write (ids and numbers, never secrets).
    return new ValidationError([{ path: '', message: cause instanceof Error ? cause.message : String(cause), code: 'invalid' }], subject);
  }
}

/**
 * Decodes bytes as an Envelope of `dialect`, or says why they are not one.
 * It does not check which dialect the bytes are in: wrong-dialect bytes can
 * decode without error into wrong values, so check them first
 * (`frameDialects`, or a FrameDecoder, which does).
 */
export function decodeEnvelope<E extends DescMessage>(dialect: Dialect<E>, bytes: Uint8Array): MessageShape<E> | ProtocolError {
  return (readFlatPush(dialect.envelope, bytes) as MessageShape<E> | undefined) ?? decodeMessage(dialect.envelope, bytes, `a ${dialect.name} frame`);
}

/** Decodes bytes as one message of a schema (an RPC answer, an Envelope), or says why they are not one. */
export function decodeMessage<M extends DescMessage>(schema: M, bytes: Uint8Array, subject: string): MessageShape<M> | ProtocolError {
  try {
    return fromBinary(schema, bytes);
  } catch (cause) {
    return new ProtocolError(`${subject} is not a valid ${schema.typeName}: ${cause instanceof Error ? cause.message : String(cause)}`, describeBytes(bytes));
  }
}
