/**
 * The wallet when the prover or the token network is unavailable, and when
 * its proof expires: login-time preparation fails softly, transfers report
 * clear errors, and everything recovers without a restart.
 */
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorAccount } from '../../src/emulator/index.js';
import { ApiError } from '../../src/errors/index.js';
import { addressOf } from '../../src/wallet/address.js';
import type { TransferTrace, WalletStatus } from '../../src/wallet/index.js';
import { noncesOf, openWallet, range, sleep, type WalletHarness } from './harness.js';

const proveCount = (emu: Emulator): number => emu.wire.requests('/zk/prove').length;

describe('availability', () => {
  let emu: Emulator | undefined;
  const harnesses: WalletHarness[] = [];

  afterEach(async () => {
    for (const h of harnesses.splice(0)) h.wallet.dispose();
    await emu?.close();
    emu = undefined;
  });

  async function world(options: Parameters<typeof startEmulator>[0] = {}): Promise<{ emu: Emulator; alice: EmulatorAccount; bob: EmulatorAccount }> {
    emu = await startEmulator(options);
    const alice = emu.createUser({ username: 'alice' });
    const bob = emu.createUser({ username: 'bob' });
    emu.fund(alice.id, 100);
    return { emu, alice, bob };
  }

  async function open(...args: Parameters<typeof openWallet>): Promise<WalletHarness> {
    const harness = await openWallet(...args);
    harnesses.push(harness);
    return harness;
  }

  it('prover down at login: prepare fails softly, transfers say why, and work once it is back', async () => {
    const { emu, alice, bob } = await world();
    const { wallet } = await open(emu, alice);
    const statuses: WalletStatus['state'][] = [];
    wallet.status$.subscribe((s) => statuses.push(s.state));
    emu.setServiceDown('prover', true);

    const status = await wallet.prepare();
    expect(status.state).toBe('failed');
    expect(status.state === 'failed' && status.error).toBeInstanceOf(ApiError);
    expect(statuses).toEqual(['idle', 'preparing', 'failed']);

    const refused = await wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    expect(refused.ok).toBe(false);
    expect(refused.tx_hash).toBe('');
    expect(refused.error).toMatch(/^could not prepare the transfer .*503 unavailable.*the prover is down/);
    expect(refused.cause).toBeInstanceOf(ApiError);
    expect((refused.cause as ApiError).status).toBe(503);
    expect(emu.wire.requests('/mmn').filter((e) => (e.body as { method?: string }).method === 'tx.addtx')).toEqual([]);

    emu.setServiceDown('prover', false);
    const sent = await wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    expect(sent.ok).toBe(true);
    expect(wallet.status.state).toBe('ready');
    expect(emu.balance(bob.id)).toBe(1);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1]);
  });

  it('token network down at login: preparation still succeeds; the nonce is read at the first transfer', async () => {
    const { emu, alice, bob } = await world();
    const { wallet } = await open(emu, alice);
    emu.setServiceDown('ledger', true);
    expect((await wallet.prepare()).state).toBe('ready');
    expect(wallet.nonces.known(addressOf(alice.id))).toBeUndefined();
    emu.setServiceDown('ledger', false);
    expect((await wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
  });

  it('token network down: a clear error, no nonce lost, consecutive nonces once it is back', async () => {
    const { emu, alice, bob } = await world();
    const { wallet } = await open(emu, alice);
    await wallet.prepare();
    expect((await wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);

    emu.setServiceDown('ledger', true);
    const results = await Promise.all(range(1, 3).map(() => wallet.sendToken({ receiver_id: bob.id, amount: 1 })));
    for (const result of results) {
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/token network.*503 unavailable.*the token network is down/);
      expect(result.cause).toBeInstanceOf(ApiError);
    }

    emu.setServiceDown('ledger', false);
    const after = await Promise.all(range(1, 3).map(() => wallet.sendToken({ receiver_id: bob.id, amount: 1 })));
    expect(after.every((r) => r.ok)).toBe(true);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1, 2, 3, 4]);
    expect(emu.balance(bob.id)).toBe(4);
  });

  it('a tx.addtx that fails with 502 is retried with the identical transaction', async () => {
    const { emu, alice, bob } = await world();
    const { wallet } = await open(emu, alice);
    await wallet.prepare();
    emu.failHttp({ status: 502, pathPrefix: '/mmn' });
    expect((await wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    expect((await wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1, 2]);
    expect(emu.balance(bob.id)).toBe(2);
  });

  it('an answer lost after the ledger applied the transfer: the resent transaction is recognised, nothing moves twice', async () => {
    const { emu, alice, bob } = await world();
    let dropped = 0;
    // Delivers the first tx.addtx to the emulator, then loses its answer as a dropped connection would.
    const losing: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (dropped === 0 && typeof init?.body === 'string' && init.body.includes('"tx.addtx"')) {
        dropped += 1;
        await response.arrayBuffer();
        throw new TypeError('fetch failed');
      }
      return response;
    };
    const { wallet } = await open(emu, alice, { fetch: losing });
    const first = await wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    expect(dropped).toBe(1);
    expect(first).toMatchObject({ ok: true, error: '' });
    expect(emu.transactions().map((t) => t.tx_hash)).toEqual([first.tx_hash]);
    expect((await wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1, 2]);
    expect(emu.balance(bob.id)).toBe(2);
  });

  it('proof expired: the wallet prepares again (refreshing the session) and the transfer succeeds', async () => {
    const { emu, alice, bob } = await world({ tokenTtlSeconds: 1 });
    let refreshes = 0;
    const harness: WalletHarness = await open(emu, alice, {
      refreshSession: async () => {
        refreshes += 1;
        await harness.reauthenticate();
      },
    });
    const { wallet } = harness;
    // Tokens expire at whole seconds: make sure the first one lives long enough to make a proof.
    await freshSecond(harness);
    expect((await wallet.prepare()).state).toBe('ready');
    const firstKey = readyKey(wallet.status);
    expect((await wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);

    await sleep(1_200); // unavoidable: the emulator's clock decides expiry
    const result = await wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    expect(result).toMatchObject({ ok: true, error: '' });
    expect(refreshes).toBe(1);
    expect(readyKey(wallet.status)).not.toBe(firstKey);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1, 2]);
  });

  it('proof refused as expired by the network (the local clock lags): prepare again and retry once', async () => {
    const { emu, alice, bob } = await world({ tokenTtlSeconds: 1 });
    // The client's clock is a minute behind: it believes the proof is still valid.
    const lagging: SchedulerLike = { now: () => Date.now() - 60_000, schedule: asyncScheduler.schedule.bind(asyncScheduler) };
    const traces: TransferTrace[] = [];
    const harness: WalletHarness = await open(emu, alice, { scheduler: lagging, trace: (t) => traces.push(t), refreshSession: () => harness.reauthenticate() });
    await freshSecond(harness);
    await harness.wallet.prepare();
    await sleep(1_200); // unavoidable: the emulator's clock decides expiry
    const result = await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    expect(result).toMatchObject({ ok: true });
    expect(traces.filter((t) => t.step === 'retry')).toEqual([{ step: 'retry', reason: 'proof', error: 'zk proof has expired' }]);
    expect(proveCount(emu)).toBe(3); // login, then refused as expired (401), then with the refreshed session
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1]);
  });

  it('a refreshed session (new token) or invalidate() makes the next transfer use a new key and proof', async () => {
    const { emu, alice, bob } = await world();
    const harness = await open(emu, alice);
    await harness.wallet.prepare();
    const first = readyKey(harness.wallet.status);

    await harness.reauthenticate();
    expect((await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    const second = readyKey(harness.wallet.status);
    expect(second).not.toBe(first);

    harness.wallet.invalidate();
    expect(harness.wallet.status).toEqual({ state: 'idle' });
    expect((await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    expect(readyKey(harness.wallet.status)).not.toBe(second);
    expect(proveCount(emu)).toBe(3);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1, 2]);
  });

  // Found by the reliability suite (tokens living 3 s): a proof finished just after the session was refreshed
  // was stale on arrival, and the transfer asked for a preparation again while the finishing one had already
  // given its only value: it got none, and sendToken rejected with rxjs's EmptyError instead of resolving.
  it('a session refreshed while the proof is being made: the transfer prepares again and goes through', async () => {
    const { emu, alice, bob } = await world();
    let refreshDuringProof = false;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (refreshDuringProof && new URL(url).pathname === '/zk/prove') {
        refreshDuringProof = false;
        await harness.reauthenticate();
      }
      return response;
    };
    const harness = await open(emu, alice, { fetch });
    // Prepared at login (so the nonce is known), then the session is refreshed: the next transfer prepares again.
    await harness.wallet.prepare();
    await harness.reauthenticate();
    refreshDuringProof = true;
    const result = await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    expect(result).toMatchObject({ ok: true, error: '' });
    expect(proveCount(emu)).toBe(3);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1]);
  });

  it('concurrent transfers share one preparation', async () => {
    const { emu, alice, bob } = await world();
    const { wallet } = await open(emu, alice);
    const results = await Promise.all(range(1, 10).map(() => wallet.sendToken({ receiver_id: bob.id, amount: 1 })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(proveCount(emu)).toBe(1);
  });

  it('without a session, transfers say to log in', async () => {
    const { emu, bob } = await world();
    const { wallet } = await open(emu, bob, { userId: () => undefined });
    const result = await wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/call login\(\) first/);
    expect((await wallet.prepare()).state).toBe('failed');
  });
});

function readyKey(status: WalletStatus): string {
  if (status.state !== 'ready') throw new Error(`the wallet is ${status.state}`);
  return status.publicKey;
}

/** The emulator floors `iat` to whole seconds; authenticate again early in a second so a 1 s token lives ~1 s. */
async function freshSecond(harness: WalletHarness): Promise<void> {
  const remaining = 1000 - (Date.now() % 1000);
  if (remaining < 700) await sleep(remaining + 5);
  await harness.reauthenticate();
}
