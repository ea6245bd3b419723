/** Kind of a transaction on the token network. */
export enum TxType {
  /** Signed with an ephemeral key bound to the sender by a zero-knowledge proof. */
  TransferByProof = 0,
  /** Signed with the key whose base58 public key is the sender address. */
  TransferByKey = 1,
}

/** `tx_msg` of `tx.addtx` (docs/PROTOCOL.md §8.7). */
export interface TxMsg {
  type: TxType;
  sender: string;
  recipient: string;
  /** Scaled integer units as a decimal string. */
  amount: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  text_data: string;
  /** Previous nonce of the sender + 1. */
  nonce: number;
  /** JSON string. */
  extra_info: string;
  zk_proof: string;
  zk_pub: string;
}

/** `extra_info` of a token transfer, before JSON encoding. */
export interface TransferExtraInfo {
  type: 'transfer_token';
  UserSenderId: string;
  UserSenderUsername: string;
  UserReceiverId: string;
  ExtraAttribute: string;
  [key: string]: unknown;
}

const utf8 = new TextEncoder();

/** The bytes a transaction signature covers: UTF-8 of `type|sender|recipient|amount|text_data|nonce|extra_info`. */
export function signedBytes(tx: Pick<TxMsg, 'type' | 'sender' | 'recipient' | 'amount' | 'text_data' | 'nonce' | 'extra_info'>): Uint8Array {
  return utf8.encode(`${tx.type}|${tx.sender}|${tx.recipient}|${tx.amount}|${tx.text_data}|${tx.nonce}|${tx.extra_info}`);
}
