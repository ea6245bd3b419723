/**
 * clanstream's wallet against the platform's token-network client,
 * mmn-client-js 1.0.16 (installed in test/compat), and the bot SDK's
 * `sendToken` that drives it: for the same key, nonce, amount, sender,
 * receiver, memo, extra info and timestamp, the bytes signed, the Ed25519
 * signature and the JSON-RPC request bodies are the same.
 *
 * Both sides run unchanged against one capturing HTTP server on 127.0.0.1
 * (the token network and the prover), which records what each sends. The
 * only things set from outside are the inputs: the wallet's random key source
 * yields the case's seed while it prepares, and the SDK's clock reads the
 * case's timestamp while it signs.
 *
 * What differs by design (docs/COMPAT.md, "The wallet against the platform's
 * token-network client") is asserted as a difference, so it cannot change
 * unnoticed: an empty memo (the SDK signs "No note" in its place, clanstream
 * and mmn-client-js sign it empty), the prover's `client_type` (`"bot"`
 * unless the protocol sets it), and the order of keys in the JSON-RPC request
 * object.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { base58, base64, hex } from '@scure/base';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { addressOf } from '../../src/wallet/address.js';
import { EphemeralKey } from '../../src/wallet/ephemeral-key.js';
import { pkcs8ToSeed } from '../../src/wallet/keys.js';
import { buildTransferTx, signTx, transferExtraInfo } from '../../src/wallet/sign.js';
import { signedBytes, type TxMsg } from '../../src/wallet/transaction.js';
import { Wallet } from '../../src/wallet/wallet.js';
import { compatDir, describeWithCompatPackages, packageMissing } from './support/installed.js';
import { sdkMissing } from './support/sdk-bot.js';

/** The version pinned in test/compat/package.json. */
const MMN_CLIENT_VERSION = '1.0.16';

/** What the test reaches of mmn-client-js: public methods and the private ones that sign (plain JavaScript at run time). */
interface OracleMmnClient {
  getAddressFromUserId(userId: string): string;
  scaleAmountToDecimals(amount: string | number): string;
  sendTransaction(params: Record<string, unknown>): Promise<{ ok: boolean; tx_hash: string; error: string }>;
  rawEd25519ToPkcs8Hex(raw: Uint8Array): string;
  serializeTransaction(tx: TxMsg): Uint8Array;
  createAndSignTx(params: Record<string, unknown>): { tx_msg: TxMsg; signature: string };
}
interface OracleZkClient {
  getZkProofs(request: { userId: string; ephemeralPublicKey: string; jwt: string; address: string; clientType?: string }): Promise<unknown>;
}
interface OracleModule {
  MmnClient: new (config: { baseUrl: string }) => OracleMmnClient;
  ZkClient: new (config: { endpoint: string }) => OracleZkClient;
}
/** The SDK's client core; only `sendToken` and what it reads are used. */
interface SdkClientCore {
  sendToken(request: Record<string, unknown>): Promise<{ ok: boolean; tx_hash: string }>;
}

const PROOF = { proof: 'h6hIkWECrV64e22YPs4ggVofQtQkm76A_reSVrSlOHo', public_input: '{"user_id":"1840000000000000001","exp":1}' };
/** What both sides send the prover as `jwt` (clanstream: the session token; the SDK: the session's `id_token`). */
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOiIxODQwMDAwMDAwMDAwMDAwMDAxIn0.c2lnbmF0dXJl';

interface Case {
  name: string;
  seedHex: string;
  senderId: string;
  receiverId: string;
  /** As the caller gives it, in tokens. */
  amount: string;
  /** Scaled units, as both must write them. */
  units: string;
  /** The sender's current nonce; the transfer takes the next. */
  nonceBefore: number;
  note: string;
  senderName: string;
  extraAttribute: string;
  mmnExtraInfo?: Record<string, string>;
  timestamp: number;
}

const CASES: Case[] = [
  {
    name: 'a whole amount',
    seedHex: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    senderId: '1840000000000000001',
    receiverId: '1840000000000000002',
    amount: '5',
    units: '5000000',
    nonceBefore: 0,
    note: 'thanks',
    senderName: 'clanbot',
    extraAttribute: 'order-42',
    timestamp: 1795277658052,
  },
  {
    name: 'an amount with 6 decimals, mmn_extra_info replacing keys',
    seedHex: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    senderId: '1840000000000000003',
    receiverId: '1840000000000000004',
    amount: '1234.567891',
    units: '1234567891',
    nonceBefore: 41,
    note: 'split the bill',
    senderName: 'payer',
    extraAttribute: '',
    // The caller's keys may replace ExtraAttribute, never the ids.
    mmnExtraInfo: { ChannelId: '1840000000000000100', ClanId: '1840000000000000200', ExtraAttribute: 'from-extra-info', UserSenderId: 'spoofed' },
    timestamp: 1795277659000,
  },
  {
    name: 'the smallest amount',
    seedHex: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    senderId: '1840000000000000005',
    receiverId: '1840000000000000006',
    amount: '0.000001',
    units: '1',
    nonceBefore: 7,
    note: 'one unit',
    senderName: 'tiny',
    extraAttribute: 'x',
    timestamp: 1795277660001,
  },
  {
    name: 'an empty memo',
    seedHex: 'f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5',
    senderId: '1840000000000000007',
    receiverId: '1840000000000000008',
    amount: '2',
    units: '2000000',
    nonceBefore: 3,
    note: '',
    senderName: 'quiet',
    extraAttribute: '',
    timestamp: 1795277661234,
  },
  {
    name: 'a unicode memo, name and extra info',
    seedHex: '833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42',
    senderId: '1840000000000000009',
    receiverId: '1840000000000000010',
    amount: '0.5',
    units: '500000',
    nonceBefore: 12,
    note: 'cảm ơn 🎉 — 谢谢 ✓ "quoted" | piped',
    senderName: 'Tùng 🚀',
    extraAttribute: 'ключ',
    mmnExtraInfo: { Emoji: '🍵', Text: 'naïve façade' },
    timestamp: 1795277662500,
  },
];

/** One request the capturing server received. */
interface Captured {
  /** Which client sent it: the first path segment (`cs`, `sdk`, `mmn`). */
  client: string;
  /** `rpc` (token network) or `prove`. */
  kind: 'rpc' | 'prove';
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** The token network and the prover in one server, answering every client alike and recording what each sent. */
class CapturingServer {
  readonly captured: Captured[] = [];
  nonceBefore = 0;
  #server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const [, client = '', service = ''] = (request.url ?? '').split('/');
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        const kind = service === 'zk' ? 'prove' : 'rpc';
        this.captured.push({ client, kind, headers: request.headers, body });
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(kind === 'prove' ? { data: PROOF } : this.answer(body)));
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  answer(body: Record<string, unknown>): unknown {
    const params = body.params as Record<string, unknown>;
    const result = body.method === 'account.getcurrentnonce' ? { address: params.address, nonce: this.nonceBefore, tag: params.tag } : { ok: true, tx_hash: 'f'.repeat(64), error: '' };
    return { jsonrpc: '2.0', id: body.id, result };
  }

  /** What `client` sent, in order, and forgets it. */
  take(client: string): Captured[] {
    const mine = this.captured.filter((c) => c.client === client);
    this.captured.splice(0, this.captured.length, ...this.captured.filter((c) => c.client !== client));
    return mine;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

/** A scheduler that runs like `asyncScheduler` but whose clock reads `ms`: the wallet stamps transactions with it. */
function clockAt(ms: number): SchedulerLike {
  const schedule: SchedulerLike['schedule'] = (work, delay, state) => asyncScheduler.schedule(work as (this: unknown, state?: unknown) => void, delay, state);
  return { now: () => ms, schedule };
}

/** The tx.addtx request among what a client sent. */
function addTx(requests: Captured[]): Captured {
  const found = requests.find((r) => r.kind === 'rpc' && r.body.method === 'tx.addtx');
  if (!found) throw new Error(`no tx.addtx among ${JSON.stringify(requests.map((r) => r.body.method ?? r.kind))}`);
  return found;
}

const missing = packageMissing('mmn-client-js', MMN_CLIENT_VERSION) ?? sdkMissing();

describeWithCompatPackages(`the wallet against mmn-client-js ${MMN_CLIENT_VERSION}`, missing, "the wallet is checked against the platform's token-network client", () => {
  const server = new CapturingServer();
  let oracle: OracleModule;
  let SdkCore: new () => SdkClientCore;

  beforeAll(async () => {
    const require = createRequire(join(compatDir, 'package.json'));
    oracle = require('mmn-client-js') as OracleModule;
    SdkCore = (require('mezon-sdk/dist/cjs/mezon-client/client/MezonClientCore.js') as { MezonClientCore: new () => SdkClientCore }).MezonClientCore;
    await server.start();
  });
  afterAll(() => server.stop());

  /** clanstream's Wallet, its key made from `seed` and its clock at `timestamp`: sends one transfer, returns what it sent. */
  async function clanstreamSends(c: Case, clientType?: string): Promise<Captured[]> {
    server.nonceBefore = c.nonceBefore;
    const wallet = new Wallet({
      userId: () => c.senderId,
      username: () => c.senderName,
      sessionToken: () => JWT,
      mmnApiUrl: `${server.url}/cs/mmn`,
      zkApiUrl: `${server.url}/cs/zk`,
      scheduler: clockAt(c.timestamp),
      ...(clientType ? { clientType } : {}),
    });
    const seed = hex.decode(c.seedHex);
    // The key is the only randomness of a preparation: the case's seed stands in for it.
    const random = vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      (array as unknown as Uint8Array).set(seed);
      return array;
    });
    try {
      const status = await wallet.prepare();
      expect(status.state).toBe('ready');
    } finally {
      random.mockRestore();
    }
    const result = await wallet.sendToken({
      receiver_id: c.receiverId,
      amount: c.amount,
      note: c.note,
      sender_name: c.senderName,
      extra_attribute: c.extraAttribute,
      ...(c.mmnExtraInfo ? { mmn_extra_info: c.mmnExtraInfo } : {}),
    });
    expect(result).toMatchObject({ ok: true });
    wallet.dispose();
    return server.take('cs');
  }

  /** The bot SDK's sendToken, unchanged, over mmn-client-js, with the same key, proof and clock. */
  async function sdkSends(c: Case): Promise<Captured[]> {
    server.nonceBefore = c.nonceBefore;
    const mmn = new oracle.MmnClient({ baseUrl: `${server.url}/sdk/mmn` });
    const whole = /^\d+$/.test(c.amount);
    // The SDK scales only whole amounts (BigInt of the amount); a fractional one is given to mmn-client-js in units, as it takes them.
    if (!whole) mmn.scaleAmountToDecimals = () => c.units;
    const seed = hex.decode(c.seedHex);
    const sdk = Object.assign(Object.create(SdkCore.prototype as object) as SdkClientCore, {
      clientId: c.senderId,
      _mmnClient: mmn,
      keyGen: { publicKey: new EphemeralKey(seed).publicKey, privateKey: mmn.rawEd25519ToPkcs8Hex(Buffer.from(seed)) },
      zkProofs: PROOF,
    });
    const clock = vi.spyOn(Date, 'now').mockReturnValue(c.timestamp);
    try {
      const result = await sdk.sendToken({
        receiver_id: c.receiverId,
        amount: whole ? Number(c.amount) : c.amount,
        note: c.note,
        sender_name: c.senderName,
        extra_attribute: c.extraAttribute,
        ...(c.mmnExtraInfo ? { mmn_extra_info: c.mmnExtraInfo } : {}),
      });
      expect(result.ok).toBe(true);
    } finally {
      clock.mockRestore();
    }
    return server.take('sdk');
  }

  /** mmn-client-js's sendTransaction (what the SDK calls) given exactly clanstream's inputs, the memo included. */
  async function mmnClientSends(c: Case, extraInfo: Record<string, unknown>): Promise<Captured[]> {
    const mmn = new oracle.MmnClient({ baseUrl: `${server.url}/mmn/mmn` });
    const seed = hex.decode(c.seedHex);
    // Its request ids count from 1 per client: read the nonce first, as a transfer does.
    server.nonceBefore = c.nonceBefore;
    await (mmn as unknown as { getCurrentNonce(userId: string, tag: string): Promise<unknown> }).getCurrentNonce(c.senderId, 'pending');
    const result = await mmn.sendTransaction({
      sender: c.senderId,
      recipient: c.receiverId,
      amount: c.units,
      nonce: c.nonceBefore + 1,
      timestamp: c.timestamp,
      textData: c.note,
      extraInfo,
      publicKey: new EphemeralKey(seed).publicKey,
      privateKey: mmn.rawEd25519ToPkcs8Hex(Buffer.from(seed)),
      zkProof: PROOF.proof,
      zkPub: PROOF.public_input,
    });
    expect(result.ok).toBe(true);
    return server.take('mmn');
  }

  it.each(CASES)('signs the same bytes with the same key and signature as mmn-client-js: $name', (c) => {
    const mmn = new oracle.MmnClient({ baseUrl: `${server.url}/unused` });
    const seed = hex.decode(c.seedHex);
    const key = new EphemeralKey(seed);
    // Key formats: hex of a PKCS#8 wrapper around the seed. The platform's client writes the algorithm identifier's length
    // as 0x0b where DER has 0x05 (by design, clanstream writes DER); each reads the other's, and signs alike with it.
    const theirKey = mmn.rawEd25519ToPkcs8Hex(Buffer.from(seed));
    const ourKey = key.toKeyPair().privateKey;
    expect(theirKey).toBe(ourKey.replace(/^302e020100300506/, '302e020100300b06'));
    expect(pkcs8ToSeed(hex.decode(theirKey))).toEqual(seed);
    // Addresses: base58 of SHA-256 of the UTF-8 user id.
    expect(addressOf(c.senderId)).toBe(mmn.getAddressFromUserId(c.senderId));
    expect(addressOf(c.receiverId)).toBe(mmn.getAddressFromUserId(c.receiverId));

    const extraInfo = transferExtraInfo({ senderId: c.senderId, senderName: c.senderName, receiverId: c.receiverId, extraAttribute: c.extraAttribute, ...(c.mmnExtraInfo ? { mmnExtraInfo: c.mmnExtraInfo } : {}) });
    const tx = buildTransferTx(
      { sender: addressOf(c.senderId), recipient: addressOf(c.receiverId), units: BigInt(c.units), note: c.note, extraInfo },
      c.nonceBefore + 1,
      PROOF,
      c.timestamp,
    );
    const ours = signTx(tx, key);
    const signParams = {
      type: 0,
      sender: tx.sender,
      recipient: tx.recipient,
      amount: c.units,
      nonce: tx.nonce,
      timestamp: c.timestamp,
      textData: c.note,
      extraInfo: JSON.parse(extraInfo) as unknown,
      zkProof: PROOF.proof,
      zkPub: PROOF.public_input,
    };
    const theirs = mmn.createAndSignTx({ ...signParams, privateKey: theirKey });
    expect(hex.encode(signedBytes(tx))).toBe(hex.encode(mmn.serializeTransaction(theirs.tx_msg)));
    expect(ours.tx_msg).toEqual(theirs.tx_msg);
    expect(ours.signature).toBe(theirs.signature);
    expect(mmn.createAndSignTx({ ...signParams, privateKey: ourKey }).signature).toBe(ours.signature);
    // And the signature is what it should be: base58 of {"PubKey","Sig"} with the 64-byte Ed25519 signature of those bytes.
    const decoded = JSON.parse(new TextDecoder().decode(base58.decode(ours.signature))) as { PubKey: string; Sig: string };
    expect(decoded.PubKey).toBe(base64.encode(key.publicKeyBytes));
    expect(base64.decode(decoded.Sig)).toEqual(key.sign(signedBytes(tx)));
  });

  it.each(CASES)('sends the same JSON-RPC requests as the SDK and mmn-client-js: $name', async (c) => {
    const ours = await clanstreamSends(c);
    const sdk = await sdkSends(c);

    // The nonce read: same method, params and id.
    const nonceRead = (requests: Captured[]) => requests.find((r) => r.kind === 'rpc' && r.body.method === 'account.getcurrentnonce')?.body;
    expect(nonceRead(ours)).toEqual({ jsonrpc: '2.0', id: 1, method: 'account.getcurrentnonce', params: { address: addressOf(c.senderId), tag: 'pending' } });
    expect(nonceRead(sdk)).toEqual(nonceRead(ours));

    const ourTx = addTx(ours);
    const sdkTx = addTx(sdk);
    expect(ourTx.headers['content-type']).toBe('application/json');
    expect(sdkTx.headers['content-type']).toBe('application/json');
    const ourParams = ourTx.body.params as { tx_msg: TxMsg; signature: string };
    const sdkParams = sdkTx.body.params as { tx_msg: TxMsg; signature: string };
    expect(ourParams.tx_msg).toMatchObject({ type: 0, amount: c.units, nonce: c.nonceBefore + 1, timestamp: c.timestamp, text_data: c.note, zk_proof: PROOF.proof, zk_pub: PROOF.public_input });
    // The extra info the SDK writes, key for key and in its order: the signature covers the text.
    expect(ourParams.tx_msg.extra_info).toBe(sdkParams.tx_msg.extra_info);

    if (c.note === '') {
      // The SDK signs "No note" for an empty memo; clanstream signs the memo it was given, as mmn-client-js does.
      expect(sdkParams.tx_msg.text_data).toBe('No note');
      expect({ ...ourTx.body, params: { tx_msg: { ...ourParams.tx_msg, text_data: 'No note' } } }).toEqual({ ...sdkTx.body, params: { tx_msg: sdkParams.tx_msg } });
      expect(ourParams.signature).not.toBe(sdkParams.signature);
    } else {
      // Field for field: jsonrpc, id, method, params.tx_msg (all ten fields), params.signature.
      expect(ourTx.body).toEqual(sdkTx.body);
    }

    // mmn-client-js given exactly clanstream's inputs (the empty memo included) sends the identical body.
    const direct = addTx(await mmnClientSends(c, JSON.parse(sdkParams.tx_msg.extra_info) as Record<string, unknown>));
    expect(ourTx.body).toEqual(direct.body);
    // The request object's keys come in another order (id before method); JSON objects are unordered, nothing signed depends on it.
    expect(Object.keys(ourTx.body)).toEqual(['jsonrpc', 'id', 'method', 'params']);
    expect(Object.keys(direct.body)).toEqual(['jsonrpc', 'method', 'params', 'id']);
  });

  it("asks the prover as mmn-client-js does; client_type is the protocol's (clanstream's own: \"bot\", the SDK: \"mezon\")", async () => {
    const c = CASES[0]!;
    const key = new EphemeralKey(hex.decode(c.seedHex));
    const zk = new oracle.ZkClient({ endpoint: `${server.url}/sdk/zk` });
    await zk.getZkProofs({ userId: c.senderId, ephemeralPublicKey: key.publicKey, jwt: JWT, address: addressOf(c.senderId) });
    const sdkProve = server.take('sdk').find((r) => r.kind === 'prove')!;

    const asBot = (await clanstreamSends(c)).find((r) => r.kind === 'prove')!;
    expect(asBot.body).toEqual({ ...sdkProve.body, client_type: 'bot' });
    expect(sdkProve.body.client_type).toBe('mezon');

    const asMezon = (await clanstreamSends(c, 'mezon')).find((r) => r.kind === 'prove')!;
    expect(asMezon.body).toEqual(sdkProve.body);
    expect(asMezon.headers['content-type']).toBe(sdkProve.headers['content-type']);
  });
});
