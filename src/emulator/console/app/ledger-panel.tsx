import type { ChatSession } from './chat-session.js';
import { consoleApi } from './console-api.js';
import { usePoll } from './use-poll.js';
import { VIEW_DEFAULTS } from './view-defaults.js';

/** Balances and nonces, and every accepted transfer, newest first. */
export function LedgerPanel({ session }: { session: ChatSession }) {
  const { value: ledger, problem } = usePoll(consoleApi.ledger, VIEW_DEFAULTS.ledgerEveryMs);
  return (
    <section aria-label="Token ledger" class="panel" id="ledger">
      {problem && <p role="alert">{problem}</p>}
      {ledger && ledger.down.length > 0 && <p class="warning">Down: {ledger.down.join(', ')} (transfers fail with 503 until brought back)</p>}
      <h3>Balances</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Balance</th>
            <th scope="col">Nonce</th>
          </tr>
        </thead>
        <tbody>
          {ledger?.balances.map((b) => (
            <tr data-user-id={b.user_id}>
              <td>{b.username}</td>
              <td class="number">{b.balance}</td>
              <td class="number">{b.nonce}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Transfers</h3>
      {ledger && ledger.transfers.length === 0 && <p>No transfer yet. The emulator's ledger settles a transfer as it accepts it, so none waits here as pending.</p>}
      <ol class="transfers">
        {ledger?.transfers.map((t) => (
          <li data-tx={t.tx_hash}>
            <strong>{t.sender_id ? session.nameOf(t.sender_id) : 'an address'}</strong> → <strong>{t.receiver_id ? session.nameOf(t.receiver_id) : 'an address'}</strong>: {t.amount}
            {t.note && ` ("${t.note}")`} <small>nonce {t.nonce} · {new Date(t.created_at).toLocaleTimeString()}</small>
          </li>
        ))}
      </ol>
    </section>
  );
}
