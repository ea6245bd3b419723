import { ed25519 } from '@noble/curves/ed25519.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { INSPECT } from '../util/inspect.js';
import { REDACTED } from '../util/redact.js';
import { seedToPkcs8, type IEphemeralKeyPair } from './keys.js';

/**
 * An ed25519 signing key that never shows its secret: the seed lives in a
 * `#private` field, and `toJSON`, `util.inspect` and `String()` print only the
 * public key. The transfer steps sign with it; nothing else reads the seed.
 */
export class EphemeralKey {
  readonly #seed: Uint8Array;
  // Declared, not defined: the constructor assigns the public fields in this order (not set to undefined first).
  /** The 32-byte public key. */
  declare readonly publicKeyBytes: Uint8Array;
  /** base58 of the public key: the `ephemeral_pk` of a proof request. */
  declare readonly publicKey: string;

  /** Wraps a 32-byte seed; use {@link createEphemeralKey} for a fresh, random one. */
  constructor(seed: Uint8Array) {
    if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new RangeError('an ed25519 seed is 32 bytes');
    this.#seed = seed.slice();
    this.publicKeyBytes = ed25519.getPublicKey(this.#seed);
    this.publicKey = base58.encode(this.publicKeyBytes);
  }

  /** ed25519 signature (64 bytes) of `message`. */
  sign(message: Uint8Array): Uint8Array {
    return ed25519.sign(message, this.#seed);
  }

  /** The key pair in the reference SDK's format (public key base58, private key hex of PKCS#8). */
  toKeyPair(): EphemeralKeyPair {
    return new EphemeralKeyPair(this.publicKey, this.#seed);
  }

  /** `{publicKey, privateKey}` with the private key redacted, so serialising the key never leaks the seed. */
  toJSON(): Record<string, string> {
    return { publicKey: this.publicKey, privateKey: REDACTED };
  }

  /** `EphemeralKey(<public key>)`: the public key only. */
  toString(): string {
    return `EphemeralKey(${this.publicKey})`;
  }

  /** What `util.inspect` and `console.log` show: the same as `toString()`, never the seed. */
  [INSPECT](): string {
    return this.toString();
  }
}

/**
 * {@link IEphemeralKeyPair} whose `privateKey` is readable (a getter) but is
 * left out of `JSON.stringify`, `util.inspect` and string conversion.
 */
export class EphemeralKeyPair implements IEphemeralKeyPair {
  readonly #seed: Uint8Array;
  readonly publicKey: string;

  constructor(publicKey: string, seed: Uint8Array) {
    this.publicKey = publicKey;
    this.#seed = seed.slice();
  }

  /** hex of the PKCS#8 DER wrapper around the 32-byte seed. A secret: keep it out of logs. */
  get privateKey(): string {
    return bytesToHex(seedToPkcs8(this.#seed));
  }

  /** `{publicKey, privateKey}` with the private key redacted; read `privateKey` itself when it is really needed. */
  toJSON(): Record<string, string> {
    return { publicKey: this.publicKey, privateKey: REDACTED };
  }

  /** `EphemeralKeyPair(<public key>)`: the public key only. */
  toString(): string {
    return `EphemeralKeyPair(${this.publicKey})`;
  }

  /** What `util.inspect` and `console.log` show: the same as `toString()`, never the private key. */
  [INSPECT](): string {
    return this.toString();
  }
}

/** A fresh key from the platform's cryptographically secure random source (`crypto.getRandomValues`). */
export function createEphemeralKey(): EphemeralKey {
  const seed = ed25519.utils.randomSecretKey();
  try {
    return new EphemeralKey(seed);
  } finally {
    // The key keeps its own copy; leave no second one behind.
    seed.fill(0);
  }
}
