/**
 * What the ledger refuses, driven through the wallet's own steps: a forged
 * signature, a replayed nonce, and a nonce that went stale because the same
 * user transferred from elsewhere.
 */
import { asyncScheduler, lastValueFrom, of } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorAccount } from '../../src/emulator/index.js';
import { HttpRequester } from '../../src/api/request.js';
import { addressOf } from '../../src/wallet/address.js';
import {
  buildTransferTx,
  createEphemeralKey,
  MmnClient,
  NonceAllocator,
  prepare$,
  ProverClient,
  signTx,
  transferExtraInfo,
  type TransferDraft,
  type TransferTrace,
} from '../../src/wallet/index.js';
import { FAST_RETRY, noncesOf, openWallet, range, type WalletHarness } from './harness.js';

describe('refusals', () => {
  let emu: Emulator;
  let alice: EmulatorAccount;
  let bob: EmulatorAccount;
  let harness: WalletHarness;

  beforeEach(async () => {
    emu = await startEmulator();
    alice = emu.createUser({ username: 'alice' });
    bob = emu.createUser({ username: 'bob' });
    emu.fund(alice.id, 100);
    harness = await openWallet(emu, alice);
  });

  afterEach(async () => {
    harness.wallet.dispose();
    await emu.close();
  });

  /** The wallet's steps, assembled by hand, so a test can sign with the wrong key. */
  function steps() {
    const http = new HttpRequester({ timeoutMs: 5000, ...FAST_RETRY, maxRetryAfterMs: 1000, scheduler: asyncScheduler, random: Math.random });
    const prover = new ProverClient(http, () => `${emu.url}/zk`);
    const mmn = new MmnClient(http, () => `${emu.url}/mmn`);
    const draft: TransferDraft = {
      sender: addressOf(alice.id),
      recipient: addressOf(bob.id),
      units: 1_000_000n,
      note: 'forged',
      extraInfo: transferExtraInfo({ senderId: alice.id, senderName: 'alice', receiverId: bob.id, extraAttribute: '' }),
    };
    const prepare = () =>
      lastValueFrom(prepare$(prover, { userId: () => alice.id, sessionToken: () => harness.session.current.token, clientType: 'bot', now: () => Date.now() }));
    return { mmn, draft, prepare };
  }

  it('refuses a transaction signed with a key the proof was not made for', async () => {
    const { mmn, draft, prepare } = steps();
    const prepared = await prepare();
    const tx = buildTransferTx(draft, 1, prepared.proof, Date.now());
    const forged = signTx(tx, createEphemeralKey());
    expect(await lastValueFrom(mmn.addTx$(forged))).toEqual({ ok: false, tx_hash: '', error: 'zk proof was made for another key' });
    expect(emu.transactions()).toEqual([]);
    expect(emu.balance(alice.id)).toBe(100);
  });

  it('refuses a signature over other bytes than the transaction\'s (tampered after signing)', async () => {
    const { mmn, draft, prepare } = steps();
    const prepared = await prepare();
    const signed = signTx(buildTransferTx(draft, 1, prepared.proof, Date.now()), prepared.key);
    const tampered = { ...signed, tx_msg: { ...signed.tx_msg, amount: '99000000' } };
    expect(await lastValueFrom(mmn.addTx$(tampered))).toEqual({ ok: false, tx_hash: '', error: 'signature does not match the transaction' });
    // The untampered one is accepted.
    expect((await lastValueFrom(mmn.addTx$(signed))).ok).toBe(true);
    expect(emu.balance(bob.id)).toBe(1);
  });

  it('refuses a replayed nonce: a forced reuse is refused after one resync and retry, and nothing moves twice', async () => {
    // An allocator whose network read is stuck at 0: every lease is nonce 1.
    const reads: number[] = [];
    const stale = new NonceAllocator(() => {
      reads.push(0);
      return of(0);
    });
    const traces: TransferTrace[] = [];
    const replaying = await openWallet(emu, alice, { nonces: stale, trace: (t) => traces.push(t) });
    try {
      expect((await replaying.wallet.sendToken({ receiver_id: bob.id, amount: 1, note: 'first' })).ok).toBe(true);
      stale.invalidate();
      const replay = await replaying.wallet.sendToken({ receiver_id: bob.id, amount: 1, note: 'replay' });
      expect(replay).toEqual({ ok: false, tx_hash: '', error: 'invalid nonce 1: expected 2' });
      // It resynchronised once (a second read) and retried once, then gave up.
      expect(traces.filter((t) => t.step === 'retry')).toEqual([{ step: 'retry', reason: 'nonce', error: 'invalid nonce 1: expected 2' }]);
      expect(reads).toHaveLength(3);
      // A nonce still refused after the resync is left unknown: the next transfer reads the network again.
      expect(stale.known(addressOf(alice.id))).toBeUndefined();
      expect(emu.transactions().map((t) => [t.nonce, t.text_data])).toEqual([[1, 'first']]);
      expect(emu.balance(bob.id)).toBe(1);
    } finally {
      replaying.wallet.dispose();
    }
  });

  it('resynchronises after the same user transferred from elsewhere, and retries once', async () => {
    await harness.wallet.prepare();
    expect((await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    // Another process of the same bot (its own wallet and allocator) sends two transfers.
    const elsewhere = await openWallet(emu, alice);
    expect((await elsewhere.wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    expect((await elsewhere.wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    elsewhere.wallet.dispose();
    expect(harness.wallet.nonces.known(addressOf(alice.id))).toBe(1);

    // This wallet still believes nonce 2 is next: refused, resynchronised, retried with nonce 4.
    const results = await Promise.all(range(1, 5).map(() => harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual(range(1, 8));
    expect(emu.balance(bob.id)).toBe(8);
  });

  it('a nonce read by the first transfer uses tag pending', async () => {
    await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    const reads = emu.wire.requests('/mmn').map((e) => e.body as { method: string; params: Record<string, unknown> });
    expect(reads.find((r) => r.method === 'account.getcurrentnonce')?.params).toEqual({ address: addressOf(alice.id), tag: 'pending' });
  });
});
