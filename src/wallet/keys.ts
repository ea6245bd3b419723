import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';

/** An ephemeral signing key pair, the kind token transfers are signed with (docs/PROTOCOL.md §8.8). */
export interface IEphemeralKeyPair {
  /** base58 of the 32-byte ed25519 public key. */
  publicKey: string;
  /** hex of a PKCS#8 DER wrapper around the 32-byte seed. */
  privateKey: string;
}

/** DER prefix of a PKCS#8 ed25519 private key (RFC 8410): the 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = hexToBytes('302e020100300506032b657004220420');

/** Wraps a 32-byte ed25519 seed in PKCS#8 DER. */
export function seedToPkcs8(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new RangeError('an ed25519 seed is 32 bytes');
  const out = new Uint8Array(PKCS8_ED25519_PREFIX.length + 32);
  out.set(PKCS8_ED25519_PREFIX, 0);
  out.set(seed, PKCS8_ED25519_PREFIX.length);
  return out;
}

/**
 * Where the platform's token-network client (mmn-client-js) writes its keys
 * differently: it gives the algorithm identifier's SEQUENCE the length 11
 * (0x0b) instead of 5. Its keys are otherwise the same bytes, and it reads
 * only the last 32 bytes of a key, so it reads ours.
 */
const ALGORITHM_ID_LENGTH_AT = 6;
const PLATFORM_ALGORITHM_ID_LENGTH = 0x0b;

/** Extracts the 32-byte seed from a PKCS#8 ed25519 DER key, as clanstream writes it or as the platform's client does. */
export function pkcs8ToSeed(der: Uint8Array): Uint8Array {
  const prefixMatches =
    der.length === PKCS8_ED25519_PREFIX.length + 32 &&
    PKCS8_ED25519_PREFIX.every((b, i) => der[i] === b || (i === ALGORITHM_ID_LENGTH_AT && der[i] === PLATFORM_ALGORITHM_ID_LENGTH));
  if (!prefixMatches) throw new RangeError('not a PKCS#8 ed25519 private key');
  return der.slice(PKCS8_ED25519_PREFIX.length);
}

/** Derives the key pair of a seed. */
export function keyPairFromSeed(seed: Uint8Array): IEphemeralKeyPair {
  return {
    publicKey: base58.encode(ed25519.getPublicKey(seed)),
    privateKey: bytesToHex(seedToPkcs8(seed)),
  };
}

/** A fresh key pair from the platform's secure random source. */
export function generateEphemeralKeyPair(): IEphemeralKeyPair {
  return keyPairFromSeed(ed25519.utils.randomPrivateKey());
}
