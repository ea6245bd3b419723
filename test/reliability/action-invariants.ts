/**
 * The action and transfer invariants, judged against what the emulator ended
 * up with:
 * - every action settled exactly once, with its acknowledgement or a typed
 *   ClanstreamError (a transfer: with a `{ok}` result, never a rejection);
 * - nothing was applied twice: an acknowledged send is stored once (under the
 *   acknowledged id) and announced once, an edit or a reaction announced
 *   once; a failed one at most once; nothing is stored that no action wrote;
 * - a transfer that resolved ok landed exactly once (same hash); one that
 *   resolved ok:false did not land, unless its error says the outcome is
 *   unknown; each sender's nonces are 1…n with no gap and no reuse.
 */
import { ClanstreamError, TypeMessage, type SendTokenResult } from '../../src/index.js';
import type { StoredMessage, TransactionRecord } from '../../src/emulator/index.js';
import { tagsOf, type ActionLedger, type ActionRecord } from './action-ledger.js';

/** An event as the emulator emitted it (to anyone). */
export interface EmittedAnything {
  type: string;
  payload: unknown;
}

export interface WorldAfterRun {
  /** Every message stored, in every channel the actors wrote to. */
  messages: readonly StoredMessage[];
  /** Every event the emulator emitted during the run. */
  emitted: readonly EmittedAnything[];
  transactions: readonly TransactionRecord[];
  /** `emu.nonce(userId)` of every sender. */
  nonces: ReadonlyMap<string, number>;
}

/** Wording of a transfer whose submit got no answer (src/wallet/transfer.ts): it may have landed. */
const UNKNOWN_OUTCOME = /may still have been applied/;

interface MessagePayload {
  sender_id?: string;
  code?: number;
  content?: { t?: string };
}
interface ReactionPayload {
  sender_id?: string;
  emoji_id?: string;
  action?: boolean;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Violations of the action and transfer invariants; empty when they hold. */
export function checkActions(ledger: ActionLedger, world: WorldAfterRun): string[] {
  const violations: string[] = [];
  const actors = new Set(ledger.actions.map((a) => a.actor));
  const byTag = new Map<string, ActionRecord>();
  for (const action of ledger.actions) {
    if (byTag.has(action.tag)) violations.push(`ledger: tag ${action.tag} was used twice`);
    byTag.set(action.tag, action);
  }

  // Counts of what the emulator stored and announced, per tag.
  const stored = new Map<string, StoredMessage[]>();
  for (const message of world.messages) {
    const tag = tagsOf(message.content.t)[0];
    if (tag === undefined || !actors.has(message.sender_id)) continue;
    stored.set(tag, [...(stored.get(tag) ?? []), message]);
  }
  const announced = new Map<string, number>();
  const count = (key: string) => announced.set(key, (announced.get(key) ?? 0) + 1);
  for (const { type, payload } of world.emitted) {
    if (type === 'channel_message') {
      const m = payload as MessagePayload;
      const tags = tagsOf(m.content?.t);
      if (tags.length === 0 || !actors.has(m.sender_id ?? '')) continue;
      // A new message is announced with the tag of its send; an edit with the edit's own tag, added last.
      if (m.code === TypeMessage.Chat) count(`send:${tags[0]!}`);
      else if (m.code === TypeMessage.ChatUpdate) count(`update:${tags.at(-1)!}`);
      else count(`code${String(m.code)}:${tags.at(-1)!}`);
    } else if (type === 'message_reaction_event') {
      const r = payload as ReactionPayload;
      if (actors.has(r.sender_id ?? '') && r.action !== true) count(`react:${r.emoji_id ?? ''}`);
    }
  }

  for (const action of ledger.actions) {
    const what = `${action.kind} ${action.tag} by ${action.actor}`;
    if (action.settlements !== 1) violations.push(`${what}: settled ${action.settlements} times`);
    const { outcome } = action;
    if (outcome.status === 'error' && !(outcome.error instanceof ClanstreamError)) violations.push(`${what}: failed with an untyped error (${describe(outcome.error)})`);
    const acked = outcome.status === 'ok';
    const limit = (n: number, label: string) => {
      if (acked ? n !== 1 : n > 1) violations.push(`${what} (${acked ? 'acknowledged' : outcome.status === 'error' ? `failed: ${describe(outcome.error)}` : 'pending'}): ${label} ${n} times`);
    };
    switch (action.kind) {
      case 'send': {
        const copies = stored.get(action.tag) ?? [];
        limit(copies.length, 'stored');
        limit(announced.get(`send:${action.tag}`) ?? 0, 'announced');
        const ackId = acked ? (outcome.value as { message_id?: string }).message_id : undefined;
        if (acked && copies.length === 1 && copies[0]!.message_id !== ackId) violations.push(`${what}: acknowledged as ${String(ackId)} but stored as ${copies[0]!.message_id}`);
        break;
      }
      case 'update':
        limit(announced.get(`update:${action.tag}`) ?? 0, 'applied');
        break;
      case 'react':
        limit(announced.get(`react:${action.tag}`) ?? 0, 'applied');
        break;
      case 'transfer':
        violations.push(...checkTransfer(action, what, world.transactions));
        break;
    }
  }

  // Nothing the actors wrote that no action accounts for.
  for (const [tag, copies] of stored) if (!byTag.has(tag)) violations.push(`stored: ${copies.length} message(s) tagged ${tag} that no action sent`);
  for (const key of announced.keys()) {
    const tag = key.slice(key.indexOf(':') + 1);
    if (!byTag.has(tag)) violations.push(`announced: ${key} that no action made`);
  }
  for (const tx of world.transactions) {
    if (tx.sender_id !== undefined && actors.has(tx.sender_id) && !byTag.has(tx.text_data)) violations.push(`ledger: transaction ${tx.tx_hash.slice(0, 12)} (note "${tx.text_data}") that no transfer made`);
  }

  // Nonces: consecutive from 1 for every sender, the last one the ledger's.
  for (const [userId, last] of world.nonces) {
    const nonces = world.transactions
      .filter((t) => t.sender_id === userId)
      .map((t) => t.nonce)
      .sort((a, b) => a - b);
    const expected = Array.from({ length: last }, (_, i) => i + 1);
    if (nonces.join(',') !== expected.join(',')) violations.push(`nonces of ${userId}: [${nonces.join(', ')}], expected 1…${last} once each`);
  }
  return violations;
}

function checkTransfer(action: ActionRecord, what: string, transactions: readonly TransactionRecord[]): string[] {
  const violations: string[] = [];
  const landed = transactions.filter((t) => t.text_data === action.tag);
  if (landed.some((t) => t.sender_id !== action.actor)) violations.push(`${what}: landed from another sender`);
  if (action.outcome.status === 'error') return [...violations, `${what}: sendToken rejected (${describe(action.outcome.error)}); it must resolve {ok} for anything but bad input`];
  if (action.outcome.status === 'pending') return [...violations, `${what}: never resolved`];
  const result = action.outcome.value as SendTokenResult;
  if (result.ok) {
    if (landed.length !== 1) violations.push(`${what}: resolved ok (${result.tx_hash.slice(0, 12)}) but landed ${landed.length} times`);
    else if (landed[0]!.tx_hash !== result.tx_hash) violations.push(`${what}: resolved ok with ${result.tx_hash.slice(0, 12)} but landed as ${landed[0]!.tx_hash.slice(0, 12)}`);
  } else {
    if (landed.length > 1) violations.push(`${what}: resolved ok:false but landed ${landed.length} times`);
    if (landed.length === 1 && !UNKNOWN_OUTCOME.test(result.error)) violations.push(`${what}: resolved ok:false ("${result.error}") but landed`);
    if (result.cause !== undefined && !(result.cause instanceof ClanstreamError)) violations.push(`${what}: its cause is not a typed error`);
  }
  return violations;
}
