/** Opens a {@link Wallet} for an emulator account with a raw session, as a client would after login. */
import type { Emulator, EmulatorAccount } from '../../src/emulator/index.js';
import type { ApiSession } from '../../src/model/api.js';
import { Wallet, type WalletDeps } from '../../src/wallet/index.js';
import { authenticate } from '../helpers/raw.js';

export interface WalletHarness {
  wallet: Wallet;
  /** The session the wallet reads its token from; `reauthenticate` replaces it. */
  session: { current: ApiSession };
  /** A new session for the account (what a session refresh does), seen by the wallet at its next read. */
  reauthenticate(): Promise<void>;
}

/** Quick retries keep tests of unavailable services short; the behaviour is the same as with the defaults. */
export const FAST_RETRY = { retries: 2, baseMs: 5, capMs: 20 } as const;

export async function openWallet(emu: Emulator, account: EmulatorAccount, deps: Partial<WalletDeps> = {}): Promise<WalletHarness> {
  const session = { current: await authenticate(emu.url, { id: account.id, token: account.token }) };
  const wallet = new Wallet({
    userId: () => account.id,
    username: () => account.username,
    sessionToken: () => session.current.token,
    mmnApiUrl: `${emu.url}/mmn`,
    zkApiUrl: `${emu.url}/zk`,
    apiRetry: FAST_RETRY,
    ...deps,
  });
  return {
    wallet,
    session,
    reauthenticate: async () => {
      session.current = await authenticate(emu.url, { id: account.id, token: account.token });
    },
  };
}

/** Nonces of the accepted transactions of one sender address, in the order the ledger accepted them. */
export function noncesOf(emu: Emulator, sender: string): number[] {
  return emu.transactions()
    .filter((t) => t.sender === sender)
    .map((t) => t.nonce);
}

export const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
