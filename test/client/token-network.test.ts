/**
 * The token network an emulator advertises: the session carries `mmn_url` and
 * `zk_url` (docs/PROTOCOL.md §2.2), and a client configured with host and port
 * alone transfers tokens through them. Explicit `mmnApiUrl`/`zkApiUrl` win;
 * without an advertisement the platform's defaults stay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, CLIENT_DEFAULTS, ServiceClient, Session } from '../../src/index.js';
import { resolveConfig } from '../../src/client/config.js';
import { tokenNetworkUrl } from '../../src/client/token-network.js';
import { authenticate, http } from '../helpers/raw.js';
import { deadPort, fakeJwt, Tracker } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

describe('token-network URLs from the session', () => {
  it('the emulator advertises mmn_url and zk_url in the session and again on refresh', async () => {
    const w = await t.world();
    const session = await authenticate(w.emu.url, { id: w.bot.botId, token: w.bot.token });
    expect(session).toMatchObject({ api_url: w.emu.url, mmn_url: `${w.emu.url}/mmn`, zk_url: `${w.emu.url}/zk` });
    const refreshed = await http<Record<string, unknown>>(w.emu.url, 'POST', '/v2/account/session/refresh', { body: { refresh_token: session.refresh_token } });
    expect(refreshed.body).toMatchObject({ mmn_url: `${w.emu.url}/mmn`, zk_url: `${w.emu.url}/zk` });
  });

  it('a client given only host and port transfers tokens through the advertised URLs', async () => {
    const w = await t.world();
    w.emu.fund(w.bot.botId, 10);
    const client = t.track(new ServiceClient({ botId: w.bot.botId, token: w.bot.token, host: '127.0.0.1', port: String(w.emu.port), useSSL: false }));
    await client.login();
    expect({ mmn: client.wallet.mmnApiUrl, zk: client.wallet.zkApiUrl }).toEqual({ mmn: `${w.emu.url}/mmn`, zk: `${w.emu.url}/zk` });
    const result = await client.sendToken({ receiver_id: w.alice.id, amount: '1.5', note: 'first transfer' });
    expect(result).toMatchObject({ ok: true, tx_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(w.emu.balance(w.alice.id)).toBe(1.5);
    expect(w.emu.balance(w.bot.botId)).toBe(8.5);
    expect(w.emu.transactions().map((tx) => tx.text_data)).toEqual(['first transfer']);
    expect(w.emu.wire.requests('/zk/prove').map((r) => r.status)).toContain(200);
  });

  it('explicit URLs win over the advertised ones (both, or only one of them)', async () => {
    const w = await t.world();
    w.emu.fund(w.bot.botId, 10);
    const nowhere = `http://127.0.0.1:${await deadPort()}`;
    const client = t.client(w, { mmnApiUrl: `${nowhere}/mmn`, zkApiUrl: `${nowhere}/zk`, apiRetry: { retries: 0 } });
    await client.login();
    expect({ mmn: client.wallet.mmnApiUrl, zk: client.wallet.zkApiUrl }).toEqual({ mmn: `${nowhere}/mmn`, zk: `${nowhere}/zk` });
    const result = await client.sendToken({ receiver_id: w.alice.id, amount: 1 });
    expect(result.ok).toBe(false);
    expect(result.cause).toBeInstanceOf(ApiError);
    expect(w.emu.transactions()).toEqual([]);
    expect(w.emu.wire.requests('/zk')).toEqual([]);

    // One URL set means the token network was configured: the other is the default, never the session's.
    const half = t.track(new ServiceClient({ botId: w.bot.botId, token: w.bot.token, host: '127.0.0.1', port: String(w.emu.port), useSSL: false, mmnApiUrl: `${w.emu.url}/mmn` }));
    await half.login();
    expect({ mmn: half.wallet.mmnApiUrl, zk: half.wallet.zkApiUrl }).toEqual({ mmn: `${w.emu.url}/mmn`, zk: CLIENT_DEFAULTS.zkApiUrl });
  });

  it('keeps the production defaults when the session advertises nothing usable', () => {
    const config = resolveConfig({ botId: '1', token: 'api-key-123456' });
    expect(config).toMatchObject({ mmnApiUrl: 'https://dong.clanstream.chat/mmn', zkApiUrl: 'https://zk.clanstream.chat', tokenNetworkFromSession: true });
    const pair = { token: fakeJwt({ uid: '1' }), refresh_token: fakeJwt({ uid: '1' }) };
    const silent = new Session(pair);
    const odd = new Session({ ...pair, mmn_url: 'javascript:alert(1)', zk_url: '' });
    const advertised = new Session({ ...pair, mmn_url: 'http://emu.test/mmn/', zk_url: 'http://emu.test/zk' });
    expect(tokenNetworkUrl(config, 'mmn_url', config.mmnApiUrl, undefined)).toBe(CLIENT_DEFAULTS.mmnApiUrl);
    expect(tokenNetworkUrl(config, 'mmn_url', config.mmnApiUrl, silent)).toBe(CLIENT_DEFAULTS.mmnApiUrl);
    expect(tokenNetworkUrl(config, 'mmn_url', config.mmnApiUrl, odd)).toBe(CLIENT_DEFAULTS.mmnApiUrl);
    expect(tokenNetworkUrl(config, 'zk_url', config.zkApiUrl, odd)).toBe(CLIENT_DEFAULTS.zkApiUrl);
    expect(tokenNetworkUrl(config, 'mmn_url', config.mmnApiUrl, advertised)).toBe('http://emu.test/mmn');
    // Stored and restored with the session.
    expect(Session.restore(advertised.toStorable())).toMatchObject({ mmn_url: 'http://emu.test/mmn/', zk_url: 'http://emu.test/zk' });
  });
});
