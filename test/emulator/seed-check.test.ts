/**
 * The seed format: schemas/world-seed.schema.json, shipped in the package, is
 * what the emulator checks seeds against; a bad seed is refused with the path
 * of each bad field and what is wrong with it, before anything is created.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSeed, DEFAULT_WORLD, loadSeed, SeedError, startEmulator, WORLD_SEED_SCHEMA, type Emulator } from '../../src/emulator/index.js';

const root = new URL('../../', import.meta.url);
const message = (seed: unknown): string => {
  try {
    checkSeed(seed);
  } catch (error) {
    expect(error).toBeInstanceOf(SeedError);
    return (error as Error).message;
  }
  throw new Error('the seed was accepted');
};

describe('the world-seed schema', () => {
  it('is the file the package ships and exports', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { files: string[]; exports: Record<string, unknown> };
    expect(pkg.files).toContain('schemas');
    // The subpath is the file's own path, so even node10 resolution (which ignores exports) finds it.
    expect(pkg.exports['./schemas/world-seed.schema.json']).toBe('./schemas/world-seed.schema.json');
    expect(JSON.parse(readFileSync(new URL('schemas/world-seed.schema.json', root), 'utf8'))).toEqual(WORLD_SEED_SCHEMA);
  });

  it('accepts the demo world, an empty world and a world naming its schema', () => {
    expect(checkSeed(DEFAULT_WORLD)).toBe(DEFAULT_WORLD);
    expect(checkSeed({})).toEqual({});
    const seed = { $schema: './node_modules/clanstream/schemas/world-seed.schema.json', users: [{ username: 'zed', token: 'zed-api-key' }], balances: { zed: '1.5' } };
    expect(checkSeed(seed)).toBe(seed);
  });

  it('names the path and field of every shape error', () => {
    expect(message({ clans: [{ name: 'A', channels: [{ name: 'ok' }, { name: 'talk', type: 'vocie' }] }] })).toBe(
      [
        'the seed is not a valid world seed (schemas/world-seed.schema.json):',
        '  clans[0].channels[1].type: must be one of "text", "voice", "stream", "thread", "forum", "app", "announcement", "service_voice" or one of 1, 4, 5, 6, 7, 8, 9, 10 (got "vocie")',
      ].join('\n'),
    );
    expect(message({ clans: [{ name: 'A', chanels: [] }] })).toContain('  clans[0].chanels: is not a field here (the fields are name, id, owner, members, welcome, channels, roles, webhooks)');
    expect(message({ users: [{ display_name: 'No Name' }] })).toContain('  users[0].username: is required');
    expect(message({ users: [{ username: 'has space' }] })).toContain('  users[0].username: must match ^[A-Za-z0-9_.-]{1,64}$');
    expect(message({ balances: { alice: -1 } })).toContain('  balances.alice: must be a number of at least 0 or a string matching');
    expect(message({ bots: 'clanbot' })).toContain('  bots: must be an array (got "clanbot")');
    expect(message([])).toContain('  (the top level): must be an object');
    expect(message({ clans: [{ name: 'A', roles: [{ title: 'Mod', color: 'orange' }] }] })).toContain('  clans[0].roles[0].color: must match ^#[0-9A-Fa-f]{6}$');
  });

  it('names the path of every reference to something that does not exist', () => {
    const text = message({
      users: [{ username: 'alice' }, { username: 'alice' }],
      clans: [{ name: 'A', owner: 'alice', members: ['bobb'], channels: [{ name: 'thread', type: 'thread', parent: 'nowhere' }], webhooks: [{ name: 'CI', channel: 'builds' }] }],
      balances: { carol: 5 },
    });
    expect(text.split('\n').slice(1)).toEqual([
      '  users[1].username: "alice" is taken by another account',
      '  clans[0].members[0]: names an unknown user "bobb" (the seed\'s accounts: alice)',
      '  clans[0].channels[0].parent: names "nowhere", which is not a channel listed before it in this clan',
      '  clans[0].webhooks[0].channel: names "builds", which is not a channel of this clan',
      '  balances.carol: names an unknown user "carol" (the seed\'s accounts: alice)',
    ]);
  });

  it('refuses two accounts with one API key, and two webhooks with one token, naming both holders and never the secret', () => {
    const key = 'shared-api-key-0123456789';
    const token = 'shared-webhook-token-0123456789';
    const text = message({
      bots: [{ username: 'clanbot', token: key }],
      users: [{ username: 'alice' }, { username: 'mallory', token: key }],
      clans: [{ name: 'A', webhooks: [{ name: 'CI', token }, { name: 'Copy', token }] }],
    });
    expect(text.split('\n').slice(1)).toEqual([
      '  users[1].token: is the API key of bots[0] ("clanbot") too: "mallory" and bots[0] ("clanbot") would share one key (give each account its own)',
      '  clans[0].webhooks[1].token: is the token of clans[0].webhooks[0] ("CI") too: two webhooks would share one URL (give each its own)',
    ]);
    expect(text).not.toContain(key);
    expect(text).not.toContain(token);
  });

  it('never repeats a malformed API key or webhook token in its errors', () => {
    const token = 'not a token: has spaces and is long enough to show';
    const text = message({ users: [{ username: 'zed', token: 12345678 }, { username: 'ann', token: 'short' }], clans: [{ name: 'A', webhooks: [{ name: 'CI', token }, { name: 'Two', token: ['x'] }] }] });
    expect(text.split('\n').slice(1)).toEqual([
      '  users[0].token: must be a string (got an integer, not shown: it is a secret)',
      '  users[1].token: must have at least 6 characters',
      `  clans[0].webhooks[0].token: must match ^[A-Za-z0-9_-]{16,128}$ (A fixed webhook token (URL-safe characters; a secret: errors never repeat it; every webhook needs its own).) (got a string of ${token.length} characters, not shown: it is a secret)`,
      '  clans[0].webhooks[1].token: must be a string (got an array, not shown: it is a secret)',
    ]);
    for (const secret of ['12345678', 'short', token.slice(0, 10), 'has spaces']) expect(text).not.toContain(secret);
  });

  it('lists five issues and counts the rest', () => {
    const text = message({ users: Array.from({ length: 7 }, () => ({ username: '' })) });
    expect(text.split('\n')).toHaveLength(7);
    expect(text).toContain('  …and 2 more');
  });
});

describe('seeding', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('refuses a bad seed file with its path, creating nothing', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'clanstream-seed-')), 'world.json');
    writeFileSync(file, JSON.stringify({ users: [{ username: 'zed' }], clans: [{ name: 'Z', owner: 'zedd' }] }));
    await expect(loadSeed(file)).rejects.toThrow(`the seed file ${file} is not a valid world seed`);
    await expect(startEmulator({ seed: file })).rejects.toThrow('clans[0].owner: names an unknown user "zedd"');
  });

  it('lets a seed given to a running emulator refer to its existing accounts', async () => {
    emu = await startEmulator();
    emu.createUser({ username: 'existing' });
    emu.seed({ clans: [{ name: 'Later', owner: 'existing' }] });
    expect(emu.clans().map((c) => c.name)).toEqual(['Later']);
    expect(() => emu!.seed({ users: [{ username: 'existing' }] })).toThrow('users[0].username: "existing" is taken by another account');
  });

  it('refuses an API key or a webhook token the running world already gives to someone else, creating nothing', async () => {
    emu = await startEmulator();
    const alice = emu.createUser({ username: 'alice', token: 'alices-own-api-key' });
    const hook = emu.createClanWebhook(emu.createClan({ name: 'Z', ownerId: alice.id }).id);
    const taken = (seed: Parameters<Emulator['seed']>[0]): string => {
      try {
        emu!.seed(seed);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('the seed was accepted');
    };
    const keyMessage = taken({ users: [{ username: 'mallory', token: 'alices-own-api-key' }] });
    expect(keyMessage).toContain('users[0].token: is the API key of the existing account "alice" too: "mallory" and the existing account "alice" would share one key');
    const tokenMessage = taken({ clans: [{ name: 'Y', webhooks: [{ name: 'Copy', token: hook.token }] }] });
    expect(tokenMessage).toContain('clans[0].webhooks[0].token: is the token of the existing webhook');
    for (const text of [keyMessage, tokenMessage]) for (const secret of ['alices-own-api-key', hook.token]) expect(text).not.toContain(secret);
    expect(emu.credentials().map((a) => a.username)).toEqual(['alice']);
    expect(emu.clans().map((c) => c.name)).toEqual(['Z']);
  });

  it('creates the webhooks a seed lists, with stable tokens for one secret', async () => {
    const seed = { users: [{ username: 'alice' }], clans: [{ name: 'Hooks', owner: 'alice', channels: [{ name: 'builds' }], webhooks: [{ name: 'CI', channel: 'builds' }, { name: 'Mailer' }, { name: 'Fixed', token: 'a-fixed-webhook-token' }] }] };
    emu = await startEmulator({ seed, secret: 'one secret' });
    const first = emu.webhooks();
    const alice = emu.credentials()[0]!;
    expect(first.map((h) => [h.kind, h.name])).toEqual([['channel', 'CI'], ['clan', 'Mailer'], ['clan', 'Fixed']]);
    expect(first[0]!.url).toBe(`${emu.url}/webhooks/${emu.channels(emu.clans()[0]!.id).find((c) => c.channel_label === 'builds')!.id}/${first[0]!.token}`);
    expect(first[2]!.token).toBe('a-fixed-webhook-token');
    await emu.close();

    emu = await startEmulator({ seed, secret: 'one secret' });
    expect(emu.webhooks().map((h) => h.token)).toEqual(first.map((h) => h.token));
    expect(emu.credentials()[0]!.token).toBe(alice.token);
    await emu.close();

    emu = await startEmulator({ seed, secret: 'another secret' });
    expect(emu.webhooks()[0]!.token).not.toBe(first[0]!.token);
    expect(emu.credentials()[0]!.token).not.toBe(alice.token);
  });
});
