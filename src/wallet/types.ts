import type { ClanstreamError } from '../errors/clanstream-error.js';

/** Argument of `sendToken`: who receives how many tokens, with an optional note and metadata. */
export interface APISentTokenRequest {
  /** Defaults to the logged-in user; any other id is refused (only the client's own address can be signed for). */
  sender_id?: string;
  /** Recipient user id. */
  receiver_id: string;
  /** Tokens: a number or a decimal string, at most 6 decimals (`0.5`, `"1.000001"`). */
  amount: number | string;
  /** Note of the transfer (`text_data`). */
  note?: string;
  /** Sender display name written into `extra_info`; defaults to the logged-in username. */
  sender_name?: string;
  /** Extra metadata (`ExtraAttribute` of `extra_info`; `extra_attribute` of `token_sent_event`). */
  extra_attribute?: string;
  /** More keys merged into `extra_info`. Must be a JSON-serialisable object. */
  mmn_extra_info?: Record<string, unknown>;
}

/** `User.sendToken` argument: the receiver is the user. */
export interface SendTokenData {
  amount: number | string;
  note?: string;
  extra_attribute?: string;
}

/**
 * Outcome of a transfer, as a value rather than a rejection. `ok: false`
 * covers refusals by the token network (`error` is its message, e.g.
 * `insufficient balance`) and failures to reach the prover or the network
 * (`cause` then holds the typed error). Invalid input is not a result: `sendToken` rejects with a
 * ValidationError before anything is sent.
 */
export interface SendTokenResult {
  ok: boolean;
  /** Hash of the accepted transaction; `""` when not accepted. */
  tx_hash: string;
  /** `""` when accepted. */
  error: string;
  /** With `ok: false` when the network or the prover could not be used: the typed error behind `error`. */
  cause?: ClanstreamError;
}

/** Argument of `getZkProofs`: the user, the session JWT, the wallet address and the ephemeral public key to bind. */
export interface ApiGetZkProofRequest {
  user_id: string;
  /** The session JWT. */
  jwt: string;
  /** The user's wallet address. */
  address: string;
  /** base58 of the ephemeral public key the proof binds to the address. */
  ephemeral_public_key: string;
}

/** Preparation of the wallet (ephemeral key, address, proof), as `Wallet.status$` reports it. */
export type WalletStatus =
  | { state: 'idle' }
  | { state: 'preparing' }
  | {
      state: 'ready';
      userId: string;
      address: string;
      /** base58 of the ephemeral public key (never the private key). */
      publicKey: string;
      /** When the proof stops being accepted (ms since the epoch), if known. */
      expiresAtMs?: number;
    }
  | { state: 'failed'; error: Error };

/** One timed step of a transfer, for diagnostics and benchmarks (`WalletDeps.trace`). */
export type TransferTrace =
  | { step: 'prepare' | 'nonce' | 'sign' | 'submit'; ms: number }
  | { step: 'retry'; reason: 'nonce' | 'proof'; error: string };
