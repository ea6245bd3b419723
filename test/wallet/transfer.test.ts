/**
 * Transfers through the Wallet against the emulator's ledger and prover:
 * what the ledger stored, balances, nonces, and the events both sides get.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorAccount } from '../../src/emulator/index.js';
import { ValidationError } from '../../src/errors/index.js';
import { addressOf } from '../../src/wallet/address.js';
import type { APISentTokenRequest } from '../../src/wallet/index.js';
import { authenticate, RawGateway, type Frame } from '../helpers/raw.js';
import { noncesOf, openWallet, range, type WalletHarness } from './harness.js';

function tokenEvent(frame: Frame): Record<string, unknown> {
  return frame.token_sent_event as Record<string, unknown>;
}

describe('Wallet transfers', () => {
  let emu: Emulator;
  let alice: EmulatorAccount;
  let bob: EmulatorAccount;
  let harness: WalletHarness;
  const gateways: RawGateway[] = [];

  beforeEach(async () => {
    emu = await startEmulator();
    alice = emu.createUser({ username: 'alice' });
    bob = emu.createUser({ username: 'bob' });
    emu.fund(alice.id, 100);
    harness = await openWallet(emu, alice);
  });

  afterEach(async () => {
    harness.wallet.dispose();
    await Promise.all(gateways.splice(0).map((g) => g.close()));
    await emu.close();
  });

  it('prepares at login: key, address, proof and nonce', async () => {
    const status = await harness.wallet.prepare();
    expect(status).toMatchObject({ state: 'ready', userId: alice.id, address: addressOf(alice.id) });
    expect(status.state === 'ready' && status.publicKey).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    expect(emu.wire.requests('/zk/prove')).toHaveLength(1);
    expect(harness.wallet.nonces.known(addressOf(alice.id))).toBe(0);
    // A transfer after preparation asks for no new proof.
    expect((await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    expect(emu.wire.requests('/zk/prove')).toHaveLength(1);
  });

  it('moves tokens end to end and both sides get token_sent_event', async () => {
    const aliceGateway = await RawGateway.start(harness.session.current);
    const bobGateway = await RawGateway.start(await authenticate(emu.url, { id: bob.id, token: bob.token }));
    gateways.push(aliceGateway, bobGateway);
    await harness.wallet.prepare();

    const result = await harness.wallet.sendToken({
      receiver_id: bob.id,
      amount: 2.5,
      note: 'for lunch',
      extra_attribute: 'order-42',
      mmn_extra_info: { channel_id: 'c1', source: 'test' },
    });
    expect(result).toEqual({ ok: true, tx_hash: expect.stringMatching(/^[0-9a-f]{64}$/), error: '' });

    expect(emu.balance(alice.id)).toBe(97.5);
    expect(emu.balance(bob.id)).toBe(2.5);
    expect(emu.nonce(alice.id)).toBe(1);
    const [stored, ...others] = emu.transactions();
    expect(others).toEqual([]);
    expect(stored).toMatchObject({
      tx_hash: result.tx_hash,
      type: 0,
      sender: addressOf(alice.id),
      recipient: addressOf(bob.id),
      sender_id: alice.id,
      receiver_id: bob.id,
      amount: '2500000',
      nonce: 1,
      text_data: 'for lunch',
    });
    // extra_info in the platform SDK's key order: mmn_extra_info merged after type, the ids last.
    expect(stored?.extra_info).toBe(
      JSON.stringify({ ExtraAttribute: 'order-42', UserSenderUsername: 'alice', type: 'transfer_token', channel_id: 'c1', source: 'test', UserSenderId: alice.id, UserReceiverId: bob.id }),
    );

    const expected = { sender_id: alice.id, sender_name: 'alice', receiver_id: bob.id, amount: 2.5, note: 'for lunch', extra_attribute: 'order-42', transaction_id: result.tx_hash };
    expect(tokenEvent(await aliceGateway.next((f) => 'token_sent_event' in f))).toEqual(expected);
    expect(tokenEvent(await bobGateway.next((f) => 'token_sent_event' in f))).toEqual(expected);
  });

  it('prepares on the first transfer when login did not', async () => {
    expect(harness.wallet.status).toEqual({ state: 'idle' });
    const result = await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 });
    expect(result.ok).toBe(true);
    expect(harness.wallet.status.state).toBe('ready');
    expect(emu.balance(bob.id)).toBe(1);
  });

  it('sends fractional amounts exactly (0.5, "1.000001", "0.000001")', async () => {
    for (const amount of [0.5, '1.000001', '0.000001', '2']) {
      expect((await harness.wallet.sendToken({ receiver_id: bob.id, amount })).ok).toBe(true);
    }
    expect(emu.transactions().map((t) => t.amount)).toEqual(['500000', '1000001', '1', '2000000']);
    expect(emu.balanceUnits(bob.id)).toBe(3_500_002n);
    expect(emu.balanceUnits(alice.id)).toBe(100_000_000n - 3_500_002n);
    expect(emu.nonce(alice.id)).toBe(4);
  });

  it('gives 50 concurrent transfers 50 consecutive nonces, all accepted', async () => {
    await harness.wallet.prepare();
    const results = await Promise.all(range(1, 50).map((i) => harness.wallet.sendToken({ receiver_id: bob.id, amount: '0.01', note: `#${i}` })));
    expect(results.filter((r) => !r.ok)).toEqual([]);
    expect(new Set(results.map((r) => r.tx_hash)).size).toBe(50);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual(range(1, 50));
    expect(emu.nonce(alice.id)).toBe(50);
    expect(emu.balance(bob.id)).toBe(0.5);
    // One nonce read at the start, then local counting.
    const nonceReads = emu.wire.requests('/mmn').filter((e) => (e.body as { method?: string } | undefined)?.method === 'account.getcurrentnonce');
    expect(nonceReads).toHaveLength(1);
  });

  it('refuses an unknown recipient with a clear error, and the nonce is not lost', async () => {
    const result = await harness.wallet.sendToken({ receiver_id: '1849999999999999999', amount: 1 });
    expect(result).toEqual({ ok: false, tx_hash: '', error: 'unknown recipient' });
    expect(emu.transactions()).toEqual([]);
    expect((await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    expect(noncesOf(emu, addressOf(alice.id))).toEqual([1]);
  });

  it('refuses an overdraft with the network\'s message', async () => {
    const result = await harness.wallet.sendToken({ receiver_id: bob.id, amount: '100.000001' });
    expect(result).toEqual({ ok: false, tx_hash: '', error: 'insufficient balance' });
    expect(emu.balance(alice.id)).toBe(100);
    expect(emu.transactions()).toEqual([]);
    expect((await harness.wallet.sendToken({ receiver_id: bob.id, amount: 100 })).ok).toBe(true);
    expect(emu.balance(alice.id)).toBe(0);
  });

  it('refuses a transfer to oneself', async () => {
    expect(await harness.wallet.sendToken({ receiver_id: alice.id, amount: 1 })).toEqual({ ok: false, tx_hash: '', error: 'sender and recipient are the same' });
  });

  it('leaves no nonce gap when transfers in the middle of a burst are refused', async () => {
    // 20 concurrent transfers; every fifth one overdraws. The refused ones give their nonce back.
    const requests = range(1, 20).map((i): APISentTokenRequest => ({ receiver_id: bob.id, amount: i % 5 === 0 ? 1_000 : 1, note: `#${i}` }));
    const results = await Promise.all(requests.map((r) => harness.wallet.sendToken(r)));
    expect(results.map((r) => r.ok)).toEqual(range(1, 20).map((i) => i % 5 !== 0));
    expect(results.filter((r) => !r.ok).map((r) => r.error)).toEqual(Array(4).fill('insufficient balance'));
    expect(noncesOf(emu, addressOf(alice.id))).toEqual(range(1, 16));
    expect(emu.transactions().map((t) => t.text_data)).toEqual(range(1, 20).filter((i) => i % 5 !== 0).map((i) => `#${i}`));
    expect(emu.balance(bob.id)).toBe(16);
  });

  describe('input refused with a ValidationError before anything is sent', () => {
    const invalid: Array<[string, unknown]> = [
      ['zero', 0],
      ['"0"', '0'],
      ['negative', -1],
      ['"-0.5"', '-0.5'],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
      ['7 decimals', 0.0000001],
      ['"1.0000001"', '1.0000001'],
      ['not a number', 'ten'],
      ['missing', undefined],
      ['an object', { value: 1 }],
    ];
    for (const [name, amount] of invalid) {
      it(`amount ${name}`, async () => {
        const error = await harness.wallet.sendToken({ receiver_id: bob.id, amount } as unknown as APISentTokenRequest).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).field).toBe('amount');
        expect((error as ValidationError).message).toMatch(/amount/);
        expect(emu.wire.requests('/mmn')).toEqual([]);
        expect(emu.wire.requests('/zk')).toEqual([]);
      });
    }

    it('a missing or empty receiver_id', async () => {
      for (const receiver_id of [undefined, '', '  ']) {
        const error = await harness.wallet.sendToken({ receiver_id, amount: 1 } as unknown as APISentTokenRequest).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).field).toBe('receiver_id');
      }
      expect(emu.wire.requests('/mmn')).toEqual([]);
    });

    it('every problem at once, and fields of the wrong type', async () => {
      const error = (await harness.wallet
        .sendToken({ amount: -1, note: 5, mmn_extra_info: [1] } as unknown as APISentTokenRequest)
        .catch((e: unknown) => e)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(Object.keys(error.fields).sort()).toEqual(['amount', 'mmn_extra_info', 'note', 'receiver_id']);
    });

    it('a sender_id other than the logged-in user', async () => {
      const error = (await harness.wallet.sendToken({ sender_id: bob.id, receiver_id: bob.id, amount: 1 }).catch((e: unknown) => e)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.field).toBe('sender_id');
      // Its own id is fine.
      expect((await harness.wallet.sendToken({ sender_id: alice.id, receiver_id: bob.id, amount: 1 })).ok).toBe(true);
    });
  });

  describe('building blocks', () => {
    it('getAddress, getCurrentNonce, getAccount, getZkProofs', async () => {
      expect(await harness.wallet.getAddress('1840000000000000001')).toBe('26HygD6JrNGpAjKGLrb5x6nhFdctrgXgDzEk1HZcNCSw');
      await expect(harness.wallet.getAddress('')).rejects.toBeInstanceOf(ValidationError);
      expect(await harness.wallet.getCurrentNonce(alice.id)).toEqual({ address: addressOf(alice.id), nonce: 0, tag: 'pending' });
      await harness.wallet.sendToken({ receiver_id: bob.id, amount: 1 });
      expect(await harness.wallet.getCurrentNonce(alice.id, 'latest')).toEqual({ address: addressOf(alice.id), nonce: 1, tag: 'latest' });
      await expect(harness.wallet.getCurrentNonce(alice.id, 'earliest' as 'latest')).rejects.toBeInstanceOf(ValidationError);
      expect(await harness.wallet.getAccount()).toEqual({ address: addressOf(alice.id), balance: '99000000', nonce: 1 });

      const pair = await harness.wallet.getEphemeralKeyPair();
      const proof = await harness.wallet.getZkProofs({ user_id: alice.id, jwt: harness.session.current.token, address: addressOf(alice.id), ephemeral_public_key: pair.publicKey });
      expect(proof).toEqual({ proof: expect.any(String), public_input: expect.stringContaining(pair.publicKey) });
      await expect(harness.wallet.getZkProofs({ user_id: alice.id, jwt: '', address: '', ephemeral_public_key: pair.publicKey })).rejects.toBeInstanceOf(ValidationError);
    });

    it('getZkProofs reports the prover\'s refusal as a typed ApiError', async () => {
      const pair = await harness.wallet.getEphemeralKeyPair();
      const error = await harness.wallet
        .getZkProofs({ user_id: alice.id, jwt: harness.session.current.token, address: addressOf(bob.id), ephemeral_public_key: pair.publicKey })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'api', status: 400, code: 'bad_request', fields: { address: 'does not match user_id' } });
    });
  });
});
