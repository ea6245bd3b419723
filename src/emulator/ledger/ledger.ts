import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { base58 } from '@scure/base';
import type { ApiTransactionDetail } from '../../model/api.js';
import { decodeSignature } from '../../wallet/signature.js';
import { signedBytes, TxType, type TxMsg } from '../../wallet/transaction.js';
import type { MmnMethods } from '../../wallet/jsonrpc.js';
import { isBase58Key, type Prover } from './prover.js';

export interface Account {
  balance: bigint;
  /** Nonce of the last accepted transaction (0 before any). */
  nonce: number;
}

/** A transfer the ledger accepted, as `emu.transactions()` lists it (amounts in units: 1 token = 1,000,000). */
export interface TransactionRecord extends ApiTransactionDetail {
  /** When it was accepted, ms since the epoch. */
  created_at: number;
}

const EMPTY_ACCOUNT: Readonly<Account> = Object.freeze({ balance: 0n, nonce: 0 });

type AddTxResult = MmnMethods['tx.addtx'][1];

/** The ledger as plain JSON, for a data dir. */
export interface LedgerState {
  accounts: Array<{ address: string; balance: string; nonce: number }>;
  transactions: TransactionRecord[];
  /** Transaction hash → the signature it was accepted with. */
  signatures: Array<[string, string]>;
}

/** Told of every accepted transfer (the emulator turns it into `token_sent_event`). */
export type TransferListener = (tx: TransactionRecord, extra: Record<string, unknown>) => void;

const AMOUNT = /^[1-9]\d{0,30}$/;

/** Parses `extra_info`; a transfer's extra info is a JSON object, anything else counts as empty. */
function parseExtra(extraInfo: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(extraInfo);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The hash that identifies a transaction: hex SHA-256 of its canonical JSON. */
export function txHash(tx: TxMsg): string {
  const canonical = JSON.stringify([tx.type, tx.sender, tx.recipient, tx.amount, tx.timestamp, tx.text_data, tx.nonce, tx.extra_info]);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * The token ledger: balances and nonces per address, checked as strictly as
 * the real network checks them (signature over the documented bytes, proof
 * bound to the sender, nonce exactly previous + 1, sufficient balance).
 */
export class Ledger {
  readonly accounts = new Map<string, Account>();
  readonly userOfAddress = new Map<string, string>();
  readonly addressOfUser = new Map<string, string>();
  readonly transactions = new Map<string, TransactionRecord>();
  /** Signature each accepted transaction was submitted with: a repeat must carry the same one. */
  private readonly signatures = new Map<string, string>();
  private readonly listeners = new Set<TransferListener>();

  constructor(private readonly prover: Prover) {}

  onTransfer(listener: TransferListener): void {
    this.listeners.add(listener);
  }

  register(userId: string, address: string): void {
    this.userOfAddress.set(address, userId);
    this.addressOfUser.set(userId, address);
    this.account(address);
  }

  /** An account for reading: unknown addresses read as empty without being created. */
  peek(address: string): Readonly<Account> {
    return this.accounts.get(address) ?? EMPTY_ACCOUNT;
  }

  account(address: string): Account {
    let account = this.accounts.get(address);
    if (!account) this.accounts.set(address, (account = { balance: 0n, nonce: 0 }));
    return account;
  }

  addressOf(userId: string): string {
    const address = this.addressOfUser.get(userId);
    if (!address) throw new Error(`user ${userId} has no address`);
    return address;
  }

  fund(address: string, units: bigint): void {
    this.account(address).balance += units;
  }

  /** Checks and applies a signed transaction. Refusals are `{ok: false, error}`; a repeat returns the first result. */
  addTx(tx: TxMsg, signature: string): AddTxResult {
    const hash = txHash(tx);
    // Only a resubmission of the very same signed transaction is a repeat; anything else is checked in full.
    if (this.transactions.has(hash) && this.signatures.get(hash) === signature) return { ok: true, tx_hash: hash, error: '' };
    const refusal = this.check(tx, signature);
    if (refusal) return { ok: false, tx_hash: '', error: refusal };
    this.apply(tx, hash, parseExtra(tx.extra_info));
    this.signatures.set(hash, signature);
    return { ok: true, tx_hash: hash, error: '' };
  }

  private check(tx: TxMsg, signature: string): string | undefined {
    if (tx.type !== TxType.TransferByProof && tx.type !== TxType.TransferByKey) return `unknown transaction type ${String(tx.type)}`;
    if (!isBase58Key(tx.sender)) return 'sender is not a valid address';
    if (!isBase58Key(tx.recipient)) return 'recipient is not a valid address';
    if (!AMOUNT.test(tx.amount)) return 'amount must be a positive integer number of units';
    const decoded = decodeSignature(tx.type, signature);
    if ('error' in decoded) return decoded.error;
    let publicKey: Uint8Array;
    if (tx.type === TxType.TransferByProof) {
      const statement = this.prover.verify(tx.zk_proof, tx.zk_pub);
      if ('error' in statement) return statement.error;
      if (statement.address !== tx.sender) return 'zk proof was made for another address';
      if (!decoded.publicKey || statement.ephemeral_pk !== base58.encode(decoded.publicKey)) return 'zk proof was made for another key';
      publicKey = decoded.publicKey;
    } else {
      publicKey = base58.decode(tx.sender);
    }
    let valid: boolean;
    try {
      valid = ed25519.verify(decoded.signature, signedBytes(tx), publicKey);
    } catch {
      valid = false;
    }
    if (!valid) return 'signature does not match the transaction';
    if (!this.userOfAddress.has(tx.recipient)) return 'unknown recipient';
    if (tx.recipient === tx.sender) return 'sender and recipient are the same';
    const account = this.account(tx.sender);
    if (tx.nonce !== account.nonce + 1) return `invalid nonce ${tx.nonce}: expected ${account.nonce + 1}`;
    if (account.balance < BigInt(tx.amount)) return 'insufficient balance';
    return undefined;
  }

  private apply(tx: TxMsg, hash: string, extra: Record<string, unknown>): TransactionRecord {
    const units = BigInt(tx.amount);
    const from = this.account(tx.sender);
    from.balance -= units;
    from.nonce = tx.nonce;
    this.account(tx.recipient).balance += units;
    const record: TransactionRecord = {
      tx_hash: hash,
      type: tx.type,
      sender: tx.sender,
      recipient: tx.recipient,
      amount: tx.amount,
      nonce: tx.nonce,
      timestamp: tx.timestamp,
      text_data: tx.text_data,
      extra_info: tx.extra_info,
      status: 'confirmed',
      created_at: Date.now(),
    };
    const senderId = this.userOfAddress.get(tx.sender);
    const receiverId = this.userOfAddress.get(tx.recipient);
    if (senderId) record.sender_id = senderId;
    if (receiverId) record.receiver_id = receiverId;
    this.transactions.set(hash, record);
    for (const listener of this.listeners) listener(record, extra);
    return record;
  }

  /** Everything the ledger stores, as plain JSON (balances as decimal strings of units). */
  exportState(): LedgerState {
    return {
      accounts: [...this.accounts].map(([address, account]) => ({ address, balance: account.balance.toString(), nonce: account.nonce })),
      transactions: [...this.transactions.values()].map((tx) => ({ ...tx })),
      signatures: [...this.signatures],
    };
  }

  /** Takes back what {@link exportState} gave (users are registered separately). */
  importState(state: LedgerState): void {
    for (const { address, balance, nonce } of state.accounts) this.accounts.set(address, { balance: BigInt(balance), nonce });
    for (const tx of state.transactions) this.transactions.set(tx.tx_hash, { ...tx });
    for (const [hash, signature] of state.signatures) this.signatures.set(hash, signature);
  }

  /** A transfer made inside the emulator (test API): no signature, same bookkeeping and events. */
  transferInternal(fromUserId: string, toUserId: string, units: bigint, note: string, extraInfo: string): AddTxResult & { record?: TransactionRecord } {
    const sender = this.addressOf(fromUserId);
    const recipient = this.addressOf(toUserId);
    if (units <= 0n) return { ok: false, tx_hash: '', error: 'amount must be greater than zero' };
    const account = this.account(sender);
    if (account.balance < units) return { ok: false, tx_hash: '', error: 'insufficient balance' };
    const tx: TxMsg = {
      type: TxType.TransferByProof,
      sender,
      recipient,
      amount: units.toString(),
      timestamp: Date.now(),
      text_data: note,
      nonce: account.nonce + 1,
      extra_info: extraInfo,
      zk_proof: '',
      zk_pub: '',
    };
    const hash = txHash(tx);
    const record = this.apply(tx, hash, parseExtra(extraInfo));
    return { ok: true, tx_hash: hash, error: '', record };
  }
}
