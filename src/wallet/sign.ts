import type { EphemeralKey } from './ephemeral-key.js';
import type { IZkProof } from './jsonrpc.js';
import type { SignedTx } from './mmn-client.js';
import { encodeSignature } from './signature.js';
import { signedBytes, TxType, type TransferExtraInfo, type TxMsg } from './transaction.js';

/** What a transfer moves, before it has a nonce, a timestamp and a proof. */
export interface TransferDraft {
  /** Sender address. */
  sender: string;
  /** Recipient address. */
  recipient: string;
  /** Scaled integer units (1 token = 1,000,000). */
  units: bigint;
  /** `text_data`. */
  note: string;
  /** `extra_info` (JSON text). */
  extraInfo: string;
}

/**
 * `extra_info` of a transfer (docs/PROTOCOL.md §8.9): JSON of
 * `{ExtraAttribute, UserSenderUsername, type: "transfer_token",
 * …mmn_extra_info, UserSenderId, UserReceiverId}`, keys in the order the
 * platform's SDK writes them, so the same transfer signs the same bytes. The
 * caller's keys may replace the first three, never the sender's and
 * receiver's ids, which `token_sent_event` is read from.
 */
export function transferExtraInfo(input: {
  senderId: string;
  senderName: string;
  receiverId: string;
  extraAttribute: string;
  mmnExtraInfo?: Record<string, unknown>;
}): string {
  const info: TransferExtraInfo = {
    ExtraAttribute: input.extraAttribute,
    UserSenderUsername: input.senderName,
    type: 'transfer_token',
    ...input.mmnExtraInfo,
    UserSenderId: input.senderId,
    UserReceiverId: input.receiverId,
  };
  return JSON.stringify(info);
}

/** A type 0 (transfer-by-proof) `tx_msg` with `nonce`, `timestamp` (ms) and the prover's proof. */
export function buildTransferTx(draft: TransferDraft, nonce: number, proof: IZkProof, timestamp: number): TxMsg {
  return {
    type: TxType.TransferByProof,
    sender: draft.sender,
    recipient: draft.recipient,
    amount: draft.units.toString(),
    timestamp,
    text_data: draft.note,
    nonce,
    extra_info: draft.extraInfo,
    zk_proof: proof.proof,
    zk_pub: proof.public_input,
  };
}

/**
 * Signs a type 0 transaction with the ephemeral key: ed25519 over
 * `type|sender|recipient|amount|text_data|nonce|extra_info`, encoded as
 * base58 of `{"PubKey": base64(public key), "Sig": base64(signature)}`.
 */
export function signTx(tx: TxMsg, key: EphemeralKey): SignedTx {
  const signature = key.sign(signedBytes(tx));
  return { tx_msg: tx, signature: encodeSignature(TxType.TransferByProof, key.publicKeyBytes, signature) };
}
