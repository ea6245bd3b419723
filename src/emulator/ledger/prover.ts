import { createHmac, timingSafeEqual } from 'node:crypto';
import { base58 } from '@scure/base';
import type { IZkProof } from '../../wallet/jsonrpc.js';

/** What a proof vouches for: this ephemeral key may sign for this address until `exp`. */
export interface ProofStatement {
  user_id: string;
  address: string;
  ephemeral_pk: string;
  /** UNIX seconds, as the JWT's `exp`; the proof expires with the session token it was made from. */
  exp: number;
  /** The exact expiry in ms, which the ledger holds to. */
  exp_ms: number;
}

/**
 * The emulator's stand-in for the zero-knowledge prover: a proof is an HMAC
 * over the public input, so only this emulator can make one and the ledger
 * can check that it binds the sender's address to the signing key.
 */
export class Prover {
  constructor(private readonly secret: string) {}

  prove(statement: ProofStatement): IZkProof {
    const public_input = JSON.stringify(statement);
    return { proof: this.mac(public_input), public_input };
  }

  /** The statement of a genuine, unexpired proof, or why it is not one. */
  verify(proof: string, publicInput: string, now = Date.now()): ProofStatement | { error: string } {
    const given = Buffer.from(proof, 'base64url');
    const expected = Buffer.from(this.mac(publicInput), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { error: 'zk proof is not valid' };
    let statement: ProofStatement;
    try {
      statement = JSON.parse(publicInput) as ProofStatement;
    } catch {
      return { error: 'zk public input is not JSON' };
    }
    if ((statement.exp_ms ?? statement.exp * 1000) <= now) return { error: 'zk proof has expired' };
    return statement;
  }

  private mac(publicInput: string): string {
    return createHmac('sha256', `${this.secret}:prover`).update(publicInput).digest('base64url');
  }
}

/** Whether a base58 string decodes to a 32-byte key. */
export function isBase58Key(value: unknown): value is string {
  if (typeof value !== 'string' || value === '') return false;
  try {
    return base58.decode(value).length === 32;
  } catch {
    return false;
  }
}
