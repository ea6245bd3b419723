/**
 * The emulator's token network (JSON-RPC at /mmn) and prover (/zk/prove),
 * driven with raw HTTP. Addresses, signed bytes and signatures are built here
 * independently of src/wallet (FIELD-NOTES §4), so the emulator is checked
 * against the documented encodings rather than against its own helpers.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, base64 } from '@scure/base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorAccount } from '../../src/emulator/index.js';
import type { ApiSession } from '../../src/model/api.js';
import { authenticate, http, RawGateway, type Frame, type HttpResult } from '../helpers/raw.js';

const utf8 = new TextEncoder();

/** base58(sha256(utf8(userId))). */
const addressOf = (userId: string): string => base58.encode(sha256(utf8.encode(userId)));

interface TxMsg {
  type: number;
  sender: string;
  recipient: string;
  amount: string;
  timestamp: number;
  text_data: string;
  nonce: number;
  extra_info: string;
  zk_proof: string;
  zk_pub: string;
}

/** UTF-8 of `type|sender|recipient|amount|text_data|nonce|extra_info`. */
const signedBytes = (tx: TxMsg): Uint8Array =>
  utf8.encode(`${tx.type}|${tx.sender}|${tx.recipient}|${tx.amount}|${tx.text_data}|${tx.nonce}|${tx.extra_info}`);

/** Type 0: base58 of the UTF-8 JSON {"PubKey": base64(pk), "Sig": base64(sig)}. */
const proofSignature = (publicKey: Uint8Array, signature: Uint8Array): string =>
  base58.encode(utf8.encode(JSON.stringify({ PubKey: base64.encode(publicKey), Sig: base64.encode(signature) })));

interface Proof {
  proof: string;
  public_input: string;
}

interface KeyPair {
  secret: Uint8Array;
  publicKey: Uint8Array;
  publicKeyB58: string;
}

function newKey(): KeyPair {
  const secret = ed25519.utils.randomSecretKey();
  const publicKey = ed25519.getPublicKey(secret);
  return { secret, publicKey, publicKeyB58: base58.encode(publicKey) };
}

/** A user with a session, an ephemeral key and a proof binding the key to the user's address. */
interface Wallet {
  user: EmulatorAccount;
  session: ApiSession;
  address: string;
  key: KeyPair;
  proof: Proof;
}

interface AddTxResult {
  ok: boolean;
  tx_hash: string;
  error: string;
}

interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

interface RpcAnswer<R = unknown> {
  jsonrpc: '2.0';
  id: number | string | null;
  result?: R;
  error?: RpcError;
}

interface ErrorBody {
  code: string;
  message: string;
  fields?: Record<string, string>;
}

function prove(baseUrl: string, body: Record<string, unknown>): Promise<HttpResult<{ data: Proof } & ErrorBody>> {
  return http(baseUrl, 'POST', '/zk/prove', { body });
}

async function openWallet(emu: Emulator, user: EmulatorAccount): Promise<Wallet> {
  const session = await authenticate(emu.url, { id: user.id, token: user.token });
  const key = newKey();
  const address = addressOf(user.id);
  const res = await prove(emu.url, { user_id: user.id, ephemeral_pk: key.publicKeyB58, jwt: session.token, address, client_type: 'web' });
  if (res.status !== 200) throw new Error(`prove failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { user, session, address, key, proof: res.body.data };
}

let rpcId = 0;

async function rpc<R = unknown>(baseUrl: string, method: string, params: unknown): Promise<RpcAnswer<R>> {
  const id = ++rpcId;
  const res = await http<RpcAnswer<R>>(baseUrl, 'POST', '/mmn', { body: { jsonrpc: '2.0', id, method, params } });
  expect(res.status).toBe(200);
  expect(res.body.id).toBe(id);
  return res.body;
}

async function result<R>(baseUrl: string, method: string, params: unknown): Promise<R> {
  const answer = await rpc<R>(baseUrl, method, params);
  if (answer.error) throw new Error(`${method} failed: ${JSON.stringify(answer.error)}`);
  return answer.result as R;
}

interface TxOptions {
  amount?: string;
  nonce?: number;
  note?: string;
  extra?: Record<string, unknown>;
  recipient?: string;
  /** Sign these bytes instead of the transaction's. */
  signBytes?: Uint8Array;
  /** Sign with this key (and put it in the signature) instead of the wallet's. */
  signer?: KeyPair;
  proof?: Proof;
  timestamp?: number;
}

/** A signed type-0 transaction from a wallet. */
function transfer(from: Wallet, to: EmulatorAccount | string, options: TxOptions = {}): { tx_msg: TxMsg; signature: string } {
  const proof = options.proof ?? from.proof;
  const tx: TxMsg = {
    type: 0,
    sender: from.address,
    recipient: options.recipient ?? (typeof to === 'string' ? to : addressOf(to.id)),
    amount: options.amount ?? '1000000',
    timestamp: options.timestamp ?? Date.now(),
    text_data: options.note ?? 'thanks',
    nonce: options.nonce ?? 1,
    extra_info: JSON.stringify(
      options.extra ?? {
        type: 'transfer_token',
        UserSenderId: from.user.id,
        UserSenderUsername: from.user.username,
        UserReceiverId: typeof to === 'string' ? '' : to.id,
        ExtraAttribute: '',
      },
    ),
    zk_proof: proof.proof,
    zk_pub: proof.public_input,
  };
  const signer = options.signer ?? from.key;
  const signature = ed25519.sign(options.signBytes ?? signedBytes(tx), signer.secret);
  return { tx_msg: tx, signature: proofSignature(signer.publicKey, signature) };
}

const addTx = (baseUrl: string, signed: { tx_msg: TxMsg; signature: string }): Promise<AddTxResult> => result<AddTxResult>(baseUrl, 'tx.addtx', signed);

function payloadOf(frame: Frame, op: string): Record<string, unknown> {
  const payload = frame[op];
  if (typeof payload !== 'object' || payload === null) throw new Error(`frame has no ${op}: ${JSON.stringify(frame)}`);
  return payload as Record<string, unknown>;
}

describe('ledger and prover', () => {
  let emu: Emulator;
  let alice: EmulatorAccount;
  let bob: EmulatorAccount;
  const gateways: RawGateway[] = [];

  beforeEach(async () => {
    emu = await startEmulator();
    alice = emu.createUser({ username: 'alice' });
    bob = emu.createUser({ username: 'bob' });
    emu.fund(alice.id, 10);
  });

  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((g) => g.close()));
    await emu.close();
  });

  describe('POST /zk/prove', () => {
    it('returns {data: {proof, public_input}} binding the key to the address', async () => {
      const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const key = newKey();
      const res = await prove(emu.url, { user_id: alice.id, ephemeral_pk: key.publicKeyB58, jwt: session.token, address: addressOf(alice.id), client_type: 'web' });
      expect(res.status).toBe(200);
      expect(typeof res.body.data.proof).toBe('string');
      expect(res.body.data.proof.length).toBeGreaterThan(0);
      expect(JSON.parse(res.body.data.public_input)).toMatchObject({ user_id: alice.id, address: addressOf(alice.id), ephemeral_pk: key.publicKeyB58 });
    });

    it('refuses the jwt of another user with 403', async () => {
      const bobSession = await authenticate(emu.url, { id: bob.id, token: bob.token });
      const res = await prove(emu.url, { user_id: alice.id, ephemeral_pk: newKey().publicKeyB58, jwt: bobSession.token, address: addressOf(alice.id), client_type: 'web' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    });

    it('refuses an address that is not the user\'s with 400', async () => {
      const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const res = await prove(emu.url, { user_id: alice.id, ephemeral_pk: newKey().publicKeyB58, jwt: session.token, address: addressOf(bob.id), client_type: 'web' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fields ?? {})).toContain('address');
    });

    it('refuses a key that is not a base58 32-byte key with 400', async () => {
      const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
      for (const ephemeral_pk of ['not-base58-0OIl', base58.encode(new Uint8Array(16).fill(7)), base64.encode(newKey().publicKey)]) {
        const res = await prove(emu.url, { user_id: alice.id, ephemeral_pk, jwt: session.token, address: addressOf(alice.id), client_type: 'web' });
        expect(res.status).toBe(400);
        expect(Object.keys(res.body.fields ?? {})).toContain('ephemeral_pk');
      }
    });

    it('refuses a bad jwt (forged, refresh token) with 401', async () => {
      const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
      for (const jwt of ['not.a.jwt', `${session.token}x`, session.refresh_token]) {
        const res = await prove(emu.url, { user_id: alice.id, ephemeral_pk: newKey().publicKeyB58, jwt, address: addressOf(alice.id), client_type: 'web' });
        expect(res.status).toBe(401);
      }
    });

    it('refuses missing fields with 400 naming them', async () => {
      const res = await prove(emu.url, { user_id: alice.id });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fields ?? {}).sort()).toEqual(['address', 'ephemeral_pk', 'jwt']);
    });

    it('answers 503 while the prover is down, and works again when it is back', async () => {
      const session = await authenticate(emu.url, { id: alice.id, token: alice.token });
      const body = { user_id: alice.id, ephemeral_pk: newKey().publicKeyB58, jwt: session.token, address: addressOf(alice.id), client_type: 'web' };
      emu.setServiceDown('prover', true);
      const down = await prove(emu.url, body);
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('unavailable');
      emu.setServiceDown('prover', false);
      expect((await prove(emu.url, body)).status).toBe(200);
    });
  });

  describe('account methods', () => {
    it('account.getcurrentnonce answers for latest and pending', async () => {
      const address = addressOf(alice.id);
      expect(await result(emu.url, 'account.getcurrentnonce', { address, tag: 'latest' })).toEqual({ address, nonce: 0, tag: 'latest' });
      expect(await result(emu.url, 'account.getcurrentnonce', { address, tag: 'pending' })).toEqual({ address, nonce: 0, tag: 'pending' });
    });

    it('account.getaccount gives the balance as a decimal string of units', async () => {
      const address = addressOf(alice.id);
      expect(await result(emu.url, 'account.getaccount', { address })).toEqual({ address, balance: '10000000', nonce: 0 });
      emu.fund(alice.id, '0.000001');
      expect(await result(emu.url, 'account.getaccount', { address })).toEqual({ address, balance: '10000001', nonce: 0 });
      expect(emu.balanceUnits(alice.id)).toBe(10_000_001n);
      const bobAddress = addressOf(bob.id);
      expect(await result(emu.url, 'account.getaccount', { address: bobAddress })).toEqual({ address: bobAddress, balance: '0', nonce: 0 });
    });
  });

  describe('tx.addtx', () => {
    it('accepts a type 0 transfer: balances move, the nonce advances, the transaction is stored and announced to both sides', async () => {
      const aliceWallet = await openWallet(emu, alice);
      const bobSession = await authenticate(emu.url, { id: bob.id, token: bob.token });
      const aliceGateway = await RawGateway.start(aliceWallet.session);
      const bobGateway = await RawGateway.start(bobSession);
      gateways.push(aliceGateway, bobGateway);

      const signed = transfer(aliceWallet, bob, {
        amount: '2500000',
        note: 'for lunch',
        extra: { type: 'transfer_token', UserSenderId: alice.id, UserSenderUsername: 'alice', UserReceiverId: bob.id, ExtraAttribute: 'attr-1' },
      });
      const res = await addTx(emu.url, signed);
      expect(res.ok).toBe(true);
      expect(res.error).toBe('');
      expect(res.tx_hash).toMatch(/^[0-9a-f]{64}$/);

      expect(emu.balance(alice.id)).toBe(7.5);
      expect(emu.balance(bob.id)).toBe(2.5);
      expect(emu.balanceUnits(bob.id)).toBe(2_500_000n);
      expect(emu.nonce(alice.id)).toBe(1);
      expect(emu.nonce(bob.id)).toBe(0);
      const address = addressOf(alice.id);
      expect(await result(emu.url, 'account.getcurrentnonce', { address, tag: 'latest' })).toEqual({ address, nonce: 1, tag: 'latest' });
      expect(await result(emu.url, 'account.getcurrentnonce', { address, tag: 'pending' })).toEqual({ address, nonce: 1, tag: 'pending' });
      expect(await result(emu.url, 'account.getaccount', { address })).toEqual({ address, balance: '7500000', nonce: 1 });

      const stored = emu.transactions();
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        tx_hash: res.tx_hash,
        type: 0,
        sender: addressOf(alice.id),
        recipient: addressOf(bob.id),
        sender_id: alice.id,
        receiver_id: bob.id,
        amount: '2500000',
        nonce: 1,
        timestamp: signed.tx_msg.timestamp,
        text_data: 'for lunch',
        extra_info: signed.tx_msg.extra_info,
      });

      const expected = { sender_id: alice.id, sender_name: 'alice', receiver_id: bob.id, amount: 2.5, note: 'for lunch', extra_attribute: 'attr-1', transaction_id: res.tx_hash };
      expect(payloadOf(await aliceGateway.next((f) => 'token_sent_event' in f), 'token_sent_event')).toEqual(expected);
      expect(payloadOf(await bobGateway.next((f) => 'token_sent_event' in f), 'token_sent_event')).toEqual(expected);
    });

    it('answers an identical resubmission with the same result and moves nothing twice', async () => {
      const wallet = await openWallet(emu, alice);
      const gateway = await RawGateway.start(wallet.session);
      gateways.push(gateway);
      const signed = transfer(wallet, bob, { amount: '1000000' });
      const first = await addTx(emu.url, signed);
      expect(first).toMatchObject({ ok: true, error: '' });
      const again = await addTx(emu.url, signed);
      expect(again).toEqual(first);
      expect(emu.balance(alice.id)).toBe(9);
      expect(emu.balance(bob.id)).toBe(1);
      expect(emu.nonce(alice.id)).toBe(1);
      expect(emu.transactions().map((t) => t.tx_hash)).toEqual([first.tx_hash]);

      // The next transfer is the second event: the resubmission announced nothing.
      const next = await addTx(emu.url, transfer(wallet, bob, { amount: '1000000', nonce: 2 }));
      expect(next.ok).toBe(true);
      const events = await gateway.waitForEvents(2, 'token_sent_event');
      expect(events.map((f) => payloadOf(f, 'token_sent_event').transaction_id)).toEqual([first.tx_hash, next.tx_hash]);
      expect(emu.balance(alice.id)).toBe(8);
    });

    it('checks a resubmitted transaction in full when its signature differs', async () => {
      const wallet = await openWallet(emu, alice);
      const signed = transfer(wallet, bob, { amount: '1000000' });
      const first = await addTx(emu.url, signed);
      expect(first.ok).toBe(true);
      const garbage = base58.encode(new TextEncoder().encode(JSON.stringify({ PubKey: 'AAAA', Sig: 'AAAA' })));
      const again = await addTx(emu.url, { ...signed, signature: garbage });
      expect(again.ok).toBe(false);
      expect(emu.balance(alice.id)).toBe(9);
      expect(emu.transactions()).toHaveLength(1);
    });

    describe('refusals', () => {
      let wallet: Wallet;
      beforeEach(async () => {
        wallet = await openWallet(emu, alice);
      });

      async function expectRefused(signed: { tx_msg: TxMsg; signature: string }, error: string): Promise<void> {
        const before = { alice: emu.balanceUnits(alice.id), bob: emu.balanceUnits(bob.id), nonce: emu.nonce(alice.id), txs: emu.transactions().length };
        expect(await addTx(emu.url, signed)).toEqual({ ok: false, tx_hash: '', error });
        expect({ alice: emu.balanceUnits(alice.id), bob: emu.balanceUnits(bob.id), nonce: emu.nonce(alice.id), txs: emu.transactions().length }).toEqual(before);
      }

      it('a signature over other bytes', async () => {
        await expectRefused(transfer(wallet, bob, { signBytes: utf8.encode('something else') }), 'signature does not match the transaction');
      });

      it('an amount changed after signing', async () => {
        const signed = transfer(wallet, bob, { amount: '1000000' });
        await expectRefused({ ...signed, tx_msg: { ...signed.tx_msg, amount: '9000000' } }, 'signature does not match the transaction');
      });

      it('a note, recipient or nonce changed after signing', async () => {
        const signed = transfer(wallet, bob);
        await expectRefused({ ...signed, tx_msg: { ...signed.tx_msg, text_data: 'changed' } }, 'signature does not match the transaction');
        const carol = emu.createUser({ username: 'carol' });
        await expectRefused({ ...signed, tx_msg: { ...signed.tx_msg, recipient: addressOf(carol.id) } }, 'signature does not match the transaction');
        await expectRefused({ ...signed, tx_msg: { ...signed.tx_msg, extra_info: '{}' } }, 'signature does not match the transaction');
      });

      it('a reused nonce', async () => {
        expect((await addTx(emu.url, transfer(wallet, bob, { nonce: 1, note: 'first' }))).ok).toBe(true);
        await expectRefused(transfer(wallet, bob, { nonce: 1, note: 'second' }), 'invalid nonce 1: expected 2');
      });

      it('a nonce that skips ahead', async () => {
        await expectRefused(transfer(wallet, bob, { nonce: 2 }), 'invalid nonce 2: expected 1');
        await expectRefused(transfer(wallet, bob, { nonce: 0 }), 'invalid nonce 0: expected 1');
      });

      it('an overdraft', async () => {
        await expectRefused(transfer(wallet, bob, { amount: '10000001' }), 'insufficient balance');
        expect((await addTx(emu.url, transfer(wallet, bob, { amount: '10000000' }))).ok).toBe(true);
        expect(emu.balanceUnits(alice.id)).toBe(0n);
      });

      it('an unknown recipient', async () => {
        await expectRefused(transfer(wallet, base58.encode(ed25519.utils.randomSecretKey())), 'unknown recipient');
      });

      it('an amount that is not a positive integer of units', async () => {
        for (const amount of ['0', '1.5', '-1', '01', '']) {
          await expectRefused(transfer(wallet, bob, { amount }), 'amount must be a positive integer number of units');
        }
      });

      it('a transfer to oneself', async () => {
        await expectRefused(transfer(wallet, alice), 'sender and recipient are the same');
      });

      it('a proof made for another address', async () => {
        const bobWallet = await openWallet(emu, bob);
        // Alice's address as sender, with Bob's genuine proof and Bob's key.
        await expectRefused(transfer(wallet, bob, { proof: bobWallet.proof, signer: bobWallet.key, recipient: addressOf(bob.id) }), 'zk proof was made for another address');
      });

      it('a proof made for another key', async () => {
        await expectRefused(transfer(wallet, bob, { signer: newKey() }), 'zk proof was made for another key');
      });

      it('a forged proof', async () => {
        const forged = { proof: 'AAAA', public_input: JSON.stringify({ user_id: alice.id, address: wallet.address, ephemeral_pk: wallet.key.publicKeyB58, exp: 9_999_999_999 }) };
        await expectRefused(transfer(wallet, bob, { proof: forged }), 'zk proof is not valid');
        const stretched = { proof: wallet.proof.proof, public_input: forged.public_input };
        await expectRefused(transfer(wallet, bob, { proof: stretched }), 'zk proof is not valid');
      });

      it('a type 0 signature that is not the documented JSON encoding', async () => {
        const signed = transfer(wallet, bob);
        const raw = ed25519.sign(signedBytes(signed.tx_msg), wallet.key.secret);
        const result = await addTx(emu.url, { ...signed, signature: base58.encode(raw) });
        expect(result.ok).toBe(false);
        expect(result.error).not.toBe('');
        expect(emu.transactions()).toEqual([]);
      });

      it('an unknown transaction type', async () => {
        const signed = transfer(wallet, bob);
        await expectRefused({ ...signed, tx_msg: { ...signed.tx_msg, type: 2 } }, 'unknown transaction type 2');
      });
    });

    describe('type 1 (transfer by key)', () => {
      /** A type-1 transaction: the sender address is base58 of the public key, the signature base58 of the raw 64 bytes. */
      function byKey(key: KeyPair, to: EmulatorAccount, options: { sender?: string; nonce?: number } = {}): { tx_msg: TxMsg; signature: string } {
        const tx: TxMsg = {
          type: 1,
          sender: options.sender ?? key.publicKeyB58,
          recipient: addressOf(to.id),
          amount: '1000000',
          timestamp: Date.now(),
          text_data: 'by key',
          nonce: options.nonce ?? 1,
          extra_info: '{}',
          zk_proof: '',
          zk_pub: '',
        };
        return { tx_msg: tx, signature: base58.encode(ed25519.sign(signedBytes(tx), key.secret)) };
      }

      it('refuses an unfunded key address, and moves tokens once the address is funded', async () => {
        const key = newKey();
        const res = await addTx(emu.url, byKey(key, bob));
        expect(res).toEqual({ ok: false, tx_hash: '', error: 'insufficient balance' });
        expect(await result(emu.url, 'account.getaccount', { address: key.publicKeyB58 })).toEqual({ address: key.publicKeyB58, balance: '0', nonce: 0 });
        expect(emu.transactions()).toEqual([]);

        emu.fundAddress(key.publicKeyB58, 3);
        const accepted = await addTx(emu.url, byKey(key, bob));
        expect(accepted).toMatchObject({ ok: true, error: '' });
        expect(emu.balance(bob.id)).toBe(1);
        expect(await result(emu.url, 'account.getaccount', { address: key.publicKeyB58 })).toEqual({ address: key.publicKeyB58, balance: '2000000', nonce: 1 });
        expect(emu.transactions()).toHaveLength(1);
      });

      it('refuses a signature by another key and the nonce rule applies', async () => {
        const key = newKey();
        const other = newKey();
        const signed = byKey(key, bob);
        const forged = base58.encode(ed25519.sign(signedBytes(signed.tx_msg), other.secret));
        expect(await addTx(emu.url, { ...signed, signature: forged })).toEqual({ ok: false, tx_hash: '', error: 'signature does not match the transaction' });
        expect(await addTx(emu.url, byKey(key, bob, { nonce: 3 }))).toEqual({ ok: false, tx_hash: '', error: 'invalid nonce 3: expected 1' });
      });

      it('cannot spend from a user address (sha256 of an id is no public key one holds)', async () => {
        const key = newKey();
        expect(await addTx(emu.url, byKey(key, bob, { sender: addressOf(alice.id) }))).toEqual({ ok: false, tx_hash: '', error: 'signature does not match the transaction' });
        expect(emu.balance(alice.id)).toBe(10);
      });

      it('refuses a signature that is not 64 raw bytes', async () => {
        const signed = byKey(newKey(), bob);
        expect(await addTx(emu.url, { ...signed, signature: base58.encode(new Uint8Array(63)) })).toEqual({ ok: false, tx_hash: '', error: 'signature must be 64 bytes' });
      });
    });
  });

  describe('JSON-RPC envelope', () => {
    const post = (body: unknown, rawBody?: string): Promise<HttpResult<unknown>> =>
      http(emu.url, 'POST', '/mmn', rawBody !== undefined ? { rawBody } : { body });

    it('answers malformed JSON with -32700 and id null', async () => {
      const res = await post(undefined, '{"jsonrpc": "2.0", "id": 1, "method": ');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    });

    it('answers a request that is not an object, or lacks jsonrpc "2.0" or a method, with -32600', async () => {
      const address = addressOf(alice.id);
      for (const body of [42, 'account.getaccount', null]) {
        const res = await post(body);
        expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      }
      const missing = await post({ id: 7, method: 'account.getaccount', params: { address } });
      expect(missing.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
      const wrongVersion = await post({ jsonrpc: '1.0', id: 8, method: 'account.getaccount', params: { address } });
      expect(wrongVersion.body).toMatchObject({ id: 8, error: { code: -32600 } });
      const noMethod = await post({ jsonrpc: '2.0', id: 9, params: { address } });
      expect(noMethod.body).toMatchObject({ id: 9, error: { code: -32600 } });
    });

    it('answers an id that is not a string, number or null with -32600', async () => {
      const res = await post({ jsonrpc: '2.0', id: { nested: true }, method: 'account.getaccount', params: { address: addressOf(alice.id) } });
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it('answers an unknown method with -32601', async () => {
      const res = await post({ jsonrpc: '2.0', id: 'x1', method: 'account.steal', params: {} });
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 'x1', error: { code: -32601 } });
    });

    it('answers missing or mistyped params with -32602 and data naming the fields', async () => {
      const address = addressOf(alice.id);
      const cases: Array<[string, unknown, string]> = [
        ['account.getaccount', {}, 'address'],
        ['account.getaccount', { address: 42 }, 'address'],
        ['account.getaccount', { address: 'short' }, 'address'],
        ['account.getcurrentnonce', { tag: 'latest' }, 'address'],
        ['account.getcurrentnonce', { address, tag: 'earliest' }, 'tag'],
        ['account.getaccount', [address], 'params'],
        ['tx.addtx', { signature: 'x' }, 'tx_msg'],
        ['tx.addtx', { tx_msg: { type: 0 }, signature: 'x' }, 'nonce'],
        ['tx.addtx', { tx_msg: { ...transferShape(), amount: 1000000, nonce: '1' }, signature: 'x' }, 'amount'],
        ['tx.addtx', { tx_msg: transferShape() }, 'signature'],
      ];
      for (const [method, params, field] of cases) {
        const answer = await rpc(emu.url, method, params);
        expect(answer.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
        expect(Object.keys((answer.error?.data ?? {})), `${method} ${JSON.stringify(params)}`).toContain(field);
      }
      const mistyped = await rpc(emu.url, 'tx.addtx', { tx_msg: { ...transferShape(), amount: 1000000, nonce: '1' }, signature: 'x' });
      expect(Object.keys((mistyped.error?.data ?? {})).sort()).toEqual(['amount', 'nonce']);
    });

    it('answers a batch with an array of answers, in order', async () => {
      const address = addressOf(alice.id);
      const res = await post([
        { jsonrpc: '2.0', id: 1, method: 'account.getaccount', params: { address } },
        { jsonrpc: '2.0', id: 2, method: 'account.nope', params: {} },
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { jsonrpc: '2.0', id: 1, result: { address, balance: '10000000', nonce: 0 } },
        { jsonrpc: '2.0', id: 2, error: expect.objectContaining({ code: -32601 }) },
      ]);
    });

    it('answers each invalid element of a batch with its own -32600', async () => {
      const res = await post([1, { jsonrpc: '2.0', id: 3, method: 'account.nope' }]);
      expect(res.body).toEqual([
        { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
        { jsonrpc: '2.0', id: 3, error: expect.objectContaining({ code: -32601 }) },
      ]);
    });

    it('leaves notifications out of a batch answer', async () => {
      const address = addressOf(alice.id);
      const res = await post([
        { jsonrpc: '2.0', method: 'account.getaccount', params: { address } },
        { jsonrpc: '2.0', id: 'b', method: 'account.getcurrentnonce', params: { address, tag: 'latest' } },
      ]);
      expect(res.body).toEqual([{ jsonrpc: '2.0', id: 'b', result: { address, nonce: 0, tag: 'latest' } }]);
    });

    it('answers a notification (no id) with nothing: HTTP 204', async () => {
      const res = await post({ jsonrpc: '2.0', method: 'account.getaccount', params: { address: addressOf(alice.id) } });
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
    });

    it('answers a failing notification with nothing too (JSON-RPC 2.0 §4.1)', async () => {
      const unknown = await post({ jsonrpc: '2.0', method: 'account.nope', params: {} });
      expect(unknown.status).toBe(204);
      const badParams = await post({ jsonrpc: '2.0', method: 'account.getaccount', params: {} });
      expect(badParams.status).toBe(204);
      const batch = await post([{ jsonrpc: '2.0', method: 'account.nope' }]);
      expect(batch.status).toBe(204);
    });

    it('still executes a tx.addtx notification', async () => {
      const wallet = await openWallet(emu, alice);
      const res = await post({ jsonrpc: '2.0', method: 'tx.addtx', params: transfer(wallet, bob, { amount: '500000' }) });
      expect(res.status).toBe(204);
      expect(emu.balance(bob.id)).toBe(0.5);
    });

    it('answers an empty batch with a single -32600', async () => {
      const res = await post([]);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    });

    it('answers 503 while the token network is down', async () => {
      emu.setServiceDown('ledger', true);
      const res = await post({ jsonrpc: '2.0', id: 1, method: 'account.getaccount', params: { address: addressOf(alice.id) } });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'unavailable' });
      emu.setServiceDown('ledger', false);
      const back = await post({ jsonrpc: '2.0', id: 2, method: 'account.getaccount', params: { address: addressOf(alice.id) } });
      expect(back.status).toBe(200);
    });
  });

  /** A well-typed tx_msg (its values do not matter to the envelope checks). */
  function transferShape(): TxMsg {
    return {
      type: 0,
      sender: addressOf(alice.id),
      recipient: addressOf(bob.id),
      amount: '1',
      timestamp: Date.now(),
      text_data: '',
      nonce: 1,
      extra_info: '{}',
      zk_proof: '',
      zk_pub: '',
    };
  }
});

describe('proof expiry', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('refuses a transfer whose proof expired with the session token it was made from', async () => {
    emu = await startEmulator({ tokenTtlSeconds: 1 });
    const alice = emu.createUser({ username: 'alice' });
    const bob = emu.createUser({ username: 'bob' });
    emu.fund(alice.id, 5);
    const wallet = await openWallet(emu, alice);
    expect(JSON.parse(wallet.proof.public_input)).toHaveProperty('exp');
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(await addTx(emu.url, transfer(wallet, bob))).toEqual({ ok: false, tx_hash: '', error: 'zk proof has expired' });
    expect(emu.balance(alice.id)).toBe(5);
    expect(emu.transactions()).toEqual([]);
  });
});
