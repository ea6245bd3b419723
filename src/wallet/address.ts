import { sha256 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';

const utf8 = new TextEncoder();

/** A user's wallet address: base58 of SHA-256 of the UTF-8 user id. */
export function addressOf(userId: string): string {
  return base58.encode(sha256(utf8.encode(userId)));
}
