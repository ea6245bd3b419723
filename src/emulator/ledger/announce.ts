import { Events } from '../../events/names.js';
import { unitsToTokens } from '../../wallet/amount.js';
import type { PlatformContext } from '../platform/context.js';
import type { TransactionRecord } from './ledger.js';

/** Announces an accepted transfer as `token_sent_event` to its sender and its receiver. */
export function announceTransfer(ctx: PlatformContext, tx: TransactionRecord, extra: Record<string, unknown>): void {
  const receiverId = tx.receiver_id ?? '';
  const senderId = tx.sender_id;
  const sender = senderId ? ctx.world.users.get(senderId) : undefined;
  const payload = {
    ...(senderId ? { sender_id: senderId } : {}),
    // The ledger knows who owns the sending address; only an unknown sender falls back to what the client claimed.
    sender_name: sender?.username ?? (typeof extra.UserSenderUsername === 'string' ? extra.UserSenderUsername : ''),
    receiver_id: receiverId,
    amount: unitsToTokens(BigInt(tx.amount)),
    note: tx.text_data,
    extra_attribute: typeof extra.ExtraAttribute === 'string' ? extra.ExtraAttribute : '',
    transaction_id: tx.tx_hash,
  };
  ctx.hub.emit(Events.TokenSend, payload, { users: [...new Set([senderId, receiverId].filter((id): id is string => Boolean(id)))] });
}
