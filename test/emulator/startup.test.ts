import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORLD, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { http } from '../helpers/raw.js';

describe('startEmulator', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('binds 127.0.0.1 on a free port and answers /healthz', async () => {
    emu = await startEmulator();
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.port).toBeGreaterThan(0);
    const res = await http(emu.url, 'GET', '/healthz');
    expect(res).toMatchObject({ status: 200, body: { ok: true } });
  });

  it('creates the seed world with its accounts, clan, channels and balances', async () => {
    emu = await startEmulator({ seed: DEFAULT_WORLD });
    const accounts = emu.credentials();
    expect(accounts.map((a) => a.username)).toEqual(['clanbot', 'alice', 'bob', 'carol']);
    expect(accounts[0]).toMatchObject({ is_bot: true });
    const alice = emu.user('alice');
    const [clan] = emu.clans();
    expect(clan).toMatchObject({ name: 'Demo Clan', creator_id: alice.id });
    expect(clan!.member_ids).toHaveLength(4);
    expect(emu.channels(clan!.id).map((c) => c.channel_label)).toEqual(['general', 'random', 'lounge', 'stage', 'staff']);
    expect(emu.roles(clan!.id).map((r) => r.title)).toEqual(['Moderator']);
    expect(emu.balance(alice.id)).toBe(100);
    expect(emu.balance(emu.user('clanbot').id)).toBe(1000);
  });

  it('stops serving after close()', async () => {
    emu = await startEmulator();
    const url = emu.url;
    await emu.close();
    emu = undefined;
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
