import { base58, base64 } from '@scure/base';
import { base64Of } from '../util/base64.js';
import { TxType } from './transaction.js';

const utf8 = new TextEncoder();

/**
 * Encodes a signature for `tx.addtx`. Type 0: base58 of the UTF-8 JSON
 * `{"PubKey": base64(publicKey), "Sig": base64(signature)}`. Type 1: base58 of the raw 64 bytes.
 */
export function encodeSignature(type: TxType, publicKey: Uint8Array, signature: Uint8Array): string {
  if (type === TxType.TransferByKey) return base58.encode(signature);
  const json = JSON.stringify({ PubKey: base64Of(publicKey), Sig: base64Of(signature) });
  return base58.encode(utf8.encode(json));
}

/** A decoded signature: the raw signature and, for type 0, the public key it carries. */
export interface DecodedSignature {
  signature: Uint8Array;
  publicKey?: Uint8Array;
}

/** Decodes a `tx.addtx` signature; returns an error message instead of throwing. */
export function decodeSignature(type: TxType, encoded: string): DecodedSignature | { error: string } {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(encoded);
  } catch {
    return { error: 'signature is not base58' };
  }
  if (type === TxType.TransferByKey) {
    return bytes.length === 64 ? { signature: bytes } : { error: 'signature must be 64 bytes' };
  }
  try {
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    if (typeof parsed !== 'object' || parsed === null) return { error: 'signature JSON must be an object' };
    const { PubKey, Sig } = parsed as Record<string, unknown>;
    if (typeof PubKey !== 'string' || typeof Sig !== 'string') return { error: 'signature JSON needs PubKey and Sig' };
    const publicKey = base64.decode(PubKey);
    const signature = base64.decode(Sig);
    if (publicKey.length !== 32) return { error: 'PubKey must be 32 bytes' };
    if (signature.length !== 64) return { error: 'Sig must be 64 bytes' };
    return { signature, publicKey };
  } catch {
    return { error: 'signature is not the base58 of {"PubKey","Sig"} JSON' };
  }
}
