import { unitsToTokens } from '../../wallet/amount.js';
import type { ConsoleLedger, ConsoleWorld } from './contract.js';
import type { ConsolePort } from './port.js';

/** Clans with their channels, members and roles, and every account (without its key). */
export function worldView(port: ConsolePort): ConsoleWorld {
  return {
    accounts: port.credentials().map(({ id, username, display_name, is_bot }) => ({ id, username, display_name, is_bot })),
    clans: port.clans().map((clan) => ({
      id: clan.id,
      name: clan.name,
      welcome_channel_id: clan.welcome_channel_id,
      member_ids: [...clan.member_ids],
      channels: port.channels(clan.id).map((channel) => ({
        id: channel.channel_id,
        name: channel.channel_label ?? channel.channel_id,
        clan_id: channel.clan_id,
        type: channel.type,
        private: channel.channel_private === 1,
        ...(channel.parent_id && channel.parent_id !== '0' ? { parent_id: channel.parent_id } : {}),
        member_ids: [...channel.member_ids],
      })),
      roles: port.roles(clan.id),
    })),
  };
}

/** Every account's balance and nonce, and every accepted transfer, newest first. */
export function ledgerView(port: ConsolePort, down: ReadonlySet<'prover' | 'ledger'>): ConsoleLedger {
  return {
    balances: port.credentials().map((account) => ({ user_id: account.id, username: account.username, balance: port.balance(account.id), nonce: port.nonce(account.id) })),
    transfers: port
      .transactions()
      .sort((a, b) => b.created_at - a.created_at)
      .map((tx) => ({
        tx_hash: tx.tx_hash,
        ...(tx.sender_id ? { sender_id: tx.sender_id } : {}),
        ...(tx.receiver_id ? { receiver_id: tx.receiver_id } : {}),
        amount: unitsToTokens(BigInt(tx.amount)),
        note: tx.text_data,
        nonce: tx.nonce,
        created_at: tx.created_at,
      })),
    down: [...down],
  };
}
