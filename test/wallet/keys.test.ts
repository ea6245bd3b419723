/**
 * The signing step against a fixed vector (RFC 8032 test 1 seed, a fixed
 * transaction), computed independently here with @noble/curves; and the
 * private key never showing in JSON, inspect output, errors or logs.
 */
import { inspect } from 'node:util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, base64, hex } from '@scure/base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import type { Logger } from '../../src/util/logger.js';
import { addressOf } from '../../src/wallet/address.js';
import { pkcs8ToSeed } from '../../src/wallet/keys.js';
import { buildTransferTx, EphemeralKey, signTx, transferExtraInfo, type TransferDraft } from '../../src/wallet/index.js';
import { decodeSignature } from '../../src/wallet/signature.js';
import { TxType } from '../../src/wallet/transaction.js';
import { minifiedLibrary } from '../helpers/minified-library.js';
import { openWallet } from './harness.js';

const utf8 = new TextEncoder();

/** RFC 8032 §7.1 TEST 1. */
const SEED_HEX = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const PUBLIC_KEY_HEX = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const PUBLIC_KEY_BASE58 = 'FVen3X669xLzsi6N2V91DoiyzHzg1uAgqiT8jZ9nS96Z';
/** RFC 8410 PKCS#8 prefix + seed. */
const PKCS8_HEX = `302e020100300506032b657004220420${SEED_HEX}`;
const SENDER_ID = '1840000000000000001';
const RECEIVER_ID = '1840000000000000002';
/** PROTOCOL §8.2. */
const SENDER_ADDRESS = '26HygD6JrNGpAjKGLrb5x6nhFdctrgXgDzEk1HZcNCSw';
const RECEIVER_ADDRESS = 'HDooZNoHcV2mzBgpbSeDPFaUy7bSHkZRvgT7rsCgs8yA';
/** Keys in the order the platform's SDK writes them (test/compat/wallet-oracle.test.ts proves it against the SDK). */
const EXTRA_INFO = '{"ExtraAttribute":"order-42","UserSenderUsername":"clanbot","type":"transfer_token","UserSenderId":"1840000000000000001","UserReceiverId":"1840000000000000002"}';
/** ed25519 of the vector's signed bytes with the seed (deterministic; tweetnacl, the platform client's signer, gives the same). */
const SIGNATURE_HEX =
  '726a6c4d3e75485fcf51bfd2cf33a9a3199a0116e1530d84fc20b1b8b7279a01611813dbe9e0d240031925b52cf31c41085f99c3a50376e6b5f962ede064de03';

describe('signing step: fixed vector', () => {
  const seed = hex.decode(SEED_HEX);
  const key = new EphemeralKey(seed);
  const draft: TransferDraft = {
    sender: addressOf(SENDER_ID),
    recipient: addressOf(RECEIVER_ID),
    units: 1_500_000n,
    note: 'thanks',
    extraInfo: transferExtraInfo({ senderId: SENDER_ID, senderName: 'clanbot', receiverId: RECEIVER_ID, extraAttribute: 'order-42' }),
  };
  const proof = { proof: 'h6hIkWECrV64e22YPs4ggVofQtQkm76A_reSVrSlOHo', public_input: '{"exp":1}' };
  const tx = buildTransferTx(draft, 1, proof, 1795277658052);

  it('derives the public key (base58), the PKCS#8 private key (hex) and the address', () => {
    expect(hex.encode(ed25519.getPublicKey(seed))).toBe(PUBLIC_KEY_HEX);
    expect(base58.encode(hex.decode(PUBLIC_KEY_HEX))).toBe(PUBLIC_KEY_BASE58);
    expect(key.publicKey).toBe(PUBLIC_KEY_BASE58);
    const pair = key.toKeyPair();
    expect(pair.publicKey).toBe(PUBLIC_KEY_BASE58);
    expect(pair.privateKey).toBe(PKCS8_HEX);
    // A well-formed PKCS#8 wrapper: SEQUENCE(46) { INTEGER 0, SEQUENCE { OID 1.3.101.112 }, OCTET STRING { OCTET STRING(32) seed } }.
    const der = hex.decode(pair.privateKey);
    expect(der.length).toBe(48);
    expect([der[0], der[1]]).toEqual([0x30, 46]);
    expect(hex.encode(der.slice(7, 12))).toBe('06032b6570');
    expect(hex.encode(pkcs8ToSeed(der))).toBe(SEED_HEX);
    // The platform's client writes the algorithm identifier's length as 0x0b; its keys read the same (test/compat/wallet-oracle.test.ts).
    expect(hex.encode(pkcs8ToSeed(hex.decode(`302e020100300b06032b657004220420${SEED_HEX}`)))).toBe(SEED_HEX);
    expect(() => pkcs8ToSeed(hex.decode(`302e020100300c06032b657004220420${SEED_HEX}`))).toThrow(RangeError);
    expect(base58.encode(sha256(utf8.encode(SENDER_ID)))).toBe(SENDER_ADDRESS);
    expect(addressOf(SENDER_ID)).toBe(SENDER_ADDRESS);
    expect(addressOf(RECEIVER_ID)).toBe(RECEIVER_ADDRESS);
  });

  it('derives the same keys and addresses in the minified browser bundle (its ed25519 and sha256 are the bundled ones)', async () => {
    const library = await minifiedLibrary();
    expect(library.keyPairFromSeed(seed)).toMatchObject({ publicKey: PUBLIC_KEY_BASE58, privateKey: PKCS8_HEX });
    expect(library.addressOf(SENDER_ID)).toBe(SENDER_ADDRESS);
    const generated = library.generateEphemeralKeyPair();
    expect(library.keyPairFromSeed(library.pkcs8ToSeed(hex.decode(generated.privateKey))).publicKey).toBe(generated.publicKey);
  }, 60_000);

  it('builds the documented tx_msg and extra_info', () => {
    expect(tx).toEqual({
      type: 0,
      sender: SENDER_ADDRESS,
      recipient: RECEIVER_ADDRESS,
      amount: '1500000',
      timestamp: 1795277658052,
      text_data: 'thanks',
      nonce: 1,
      extra_info: EXTRA_INFO,
      zk_proof: proof.proof,
      zk_pub: proof.public_input,
    });
  });

  it('signs the documented bytes and encodes the type 0 signature', () => {
    const message = utf8.encode(`0|${SENDER_ADDRESS}|${RECEIVER_ADDRESS}|1500000|thanks|1|${EXTRA_INFO}`);
    const expected = ed25519.sign(message, seed);
    expect(hex.encode(expected)).toBe(SIGNATURE_HEX);
    const signed = signTx(tx, key);
    expect(signed.tx_msg).toBe(tx);
    const json = new TextDecoder().decode(base58.decode(signed.signature));
    expect(JSON.parse(json)).toEqual({ PubKey: base64.encode(hex.decode(PUBLIC_KEY_HEX)), Sig: base64.encode(hex.decode(SIGNATURE_HEX)) });
    expect(json).toBe(`{"PubKey":"${base64.encode(hex.decode(PUBLIC_KEY_HEX))}","Sig":"${base64.encode(expected)}"}`);
    const decoded = decodeSignature(TxType.TransferByProof, signed.signature);
    expect('error' in decoded).toBe(false);
    expect(ed25519.verify(hex.decode(SIGNATURE_HEX), message, hex.decode(PUBLIC_KEY_HEX))).toBe(true);
  });

  it('merges the caller\'s mmn_extra_info keys after type and before the ids, as the platform\'s SDK does', () => {
    const info = transferExtraInfo({ senderId: 'a', senderName: 'b', receiverId: 'c', extraAttribute: '', mmnExtraInfo: { x: 1, nested: { y: [2] } } });
    expect(info).toBe('{"ExtraAttribute":"","UserSenderUsername":"b","type":"transfer_token","x":1,"nested":{"y":[2]},"UserSenderId":"a","UserReceiverId":"c"}');
  });

  it('never lets mmn_extra_info replace the sender\'s or the receiver\'s id, which token_sent_event is read from', () => {
    const info = transferExtraInfo({ senderId: 'a', senderName: 'b', receiverId: 'c', extraAttribute: 'e', mmnExtraInfo: { UserSenderId: 'spoofed', UserReceiverId: 'other', ExtraAttribute: 'mine' } });
    expect(JSON.parse(info)).toEqual({ ExtraAttribute: 'mine', UserSenderUsername: 'b', type: 'transfer_token', UserSenderId: 'a', UserReceiverId: 'c' });
  });
});

describe('the private key never shows', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await emu?.close();
    emu = undefined;
  });

  it('in key objects: JSON, inspect and String show the public key only', () => {
    const key = new EphemeralKey(hex.decode(SEED_HEX));
    const pair = key.toKeyPair();
    for (const text of [JSON.stringify(key), inspect(key), String(key), JSON.stringify(pair), inspect(pair, { showHidden: true, depth: 5 }), String(pair), JSON.stringify({ pair })]) {
      expect(text).not.toContain(SEED_HEX);
      expect(text).toContain(PUBLIC_KEY_BASE58);
    }
    expect(JSON.parse(JSON.stringify(pair))).toEqual({ publicKey: PUBLIC_KEY_BASE58, privateKey: '[redacted]' });
    // Still readable on purpose.
    expect(pair.privateKey).toBe(PKCS8_HEX);
  });

  it('in the wallet: JSON, inspect, status, logs and errors of a full run', async () => {
    const seeds: Uint8Array[] = [];
    const original = ed25519.utils.randomSecretKey;
    vi.spyOn(ed25519.utils, 'randomSecretKey').mockImplementation((given?: Uint8Array) => {
      const seed = original(given);
      seeds.push(seed.slice());
      return seed;
    });
    emu = await startEmulator();
    const alice = emu.createUser({ username: 'alice' });
    const bob = emu.createUser({ username: 'bob' });
    emu.fund(alice.id, 1);
    const lines: string[] = [];
    const record =
      (level: string) =>
      (message: string, ...details: unknown[]): void => {
        lines.push(`${level} ${message} ${inspect(details, { depth: 8 })}`);
      };
    const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
    const harness = await openWallet(emu, alice, { logger });
    const { wallet } = harness;

    const texts: string[] = [];
    const capture = (value: unknown): void => {
      texts.push(JSON.stringify(value) ?? '', inspect(value, { showHidden: true, depth: 8 }), String(value));
    };
    capture(await wallet.prepare());
    capture(wallet);
    capture(await wallet.sendToken({ receiver_id: bob.id, amount: 0.5 }));
    capture(await wallet.sendToken({ receiver_id: bob.id, amount: 5 })); // refused: insufficient balance
    capture(await wallet.sendToken({ receiver_id: 'nobody', amount: 0.1 }));
    emu.setServiceDown('ledger', true);
    const failed = await wallet.sendToken({ receiver_id: bob.id, amount: 0.1 });
    expect(failed.ok).toBe(false);
    capture(failed);
    capture(failed.cause);
    capture(failed.cause?.stack);
    capture(await wallet.sendToken({ receiver_id: bob.id, amount: 1e-9 }).catch((e: unknown) => e));
    capture(wallet.status);
    capture(wallet);
    texts.push(...lines);

    expect(seeds.length).toBeGreaterThan(0);
    const everything = texts.join('\n');
    for (const seed of seeds) {
      for (const form of [hex.encode(seed), `302e020100300506032b657004220420${hex.encode(seed)}`, base64.encode(seed), base58.encode(seed)]) {
        expect(everything).not.toContain(form);
        expect(everything.toLowerCase()).not.toContain(form.toLowerCase());
      }
    }
    // Neither does the session token the proofs were made from.
    expect(everything).not.toContain(harness.session.current.token);
    expect(lines.some((l) => l.includes('prepared'))).toBe(true);
    wallet.dispose();
  });
});
