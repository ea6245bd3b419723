/**
 * A data dir keeps the world between runs (`dataDir`, `--data-dir`): accounts
 * and their API keys, clans, channels, members, roles, messages and their
 * reactions, friends, webhooks, quick menus, balances, transactions, logouts
 * and the signing secret, so sessions issued before a restart stay valid.
 */
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { authenticate, http } from '../helpers/raw.js';

const emulators: Emulator[] = [];
afterEach(async () => {
  for (const emu of emulators.splice(0)) await emu.close();
});
async function start(dataDir: string, extra: Parameters<typeof startEmulator>[0] = {}): Promise<Emulator> {
  const emu = await startEmulator({ dataDir, ...extra });
  emulators.push(emu);
  return emu;
}
const freshDir = () => mkdtempSync(join(tmpdir(), 'clanstream-data-'));

/** Everything the test API can read back. */
function world(emu: Emulator) {
  const clans = emu.clans();
  return {
    credentials: emu.credentials(),
    clans,
    channels: clans.flatMap((clan) => emu.channels(clan.id)),
    messages: clans.flatMap((clan) => emu.channels(clan.id).map((c) => emu.messages(c.id))),
    roles: clans.flatMap((clan) => emu.roles(clan.id)),
    // Each run listens on a free port: the URL's path is what is kept.
    webhooks: emu.webhooks().map((hook) => ({ ...hook, url: new URL(hook.url).pathname })),
    transactions: emu.transactions(),
    balances: emu.credentials().map((a) => emu.balanceUnits(a.id)),
    nonces: emu.credentials().map((a) => emu.nonce(a.id)),
    friends: emu.credentials().map((a) => emu.friendsOf(a.id)),
  };
}

describe('dataDir', () => {
  it('keeps the world, the API keys and the secret across a restart', async () => {
    const dir = freshDir();
    const first = await start(dir, { seed: { users: [{ username: 'alice' }, { username: 'bob' }], clans: [{ name: 'Kept', owner: 'alice', members: ['bob'], channels: [{ name: 'notes' }], webhooks: [{ name: 'CI', channel: 'notes' }] }], balances: { alice: 10 } } });
    const [alice, bob] = first.credentials();
    const clan = first.clans()[0]!;
    const notes = first.channels(clan.id).find((c) => c.channel_label === 'notes')!.id;
    const bot = first.createBot({ username: 'later' });
    first.addClanMember(clan.id, bot.botId);
    const hello = first.as(alice!.id).send(notes, 'kept across restarts');
    first.as(bob!.id).react(hello.message_id, { emoji: '👍' });
    first.as(alice!.id).addFriend('bob');
    first.as(alice!.id).transfer(bob!.id, '2.5', 'rent');
    first.createRole({ clanId: clan.id, title: 'Keeper', userIds: [bob!.id] });
    first.createClanWebhook(clan.id, { name: 'Later hook' });
    const session = await authenticate(first.url, { id: alice!.id, token: alice!.token });
    const loggedOut = await authenticate(first.url, { id: bob!.id, token: bob!.token });
    expect((await http(first.url, 'POST', '/v2/session/logout', { token: loggedOut.token })).status).toBe(200);
    const lastId = BigInt(first.createUser({ username: 'last' }).id);
    const before = world(first);
    await first.close();
    emulators.splice(0);

    // The seed is ignored from now on: the kept world wins.
    const second = await start(dir, { seed: { users: [{ username: 'somebody-else' }] } });
    const after = world(second);
    expect(after).toEqual(before);
    expect(second.messages(notes)[0]).toMatchObject({ content: { t: 'kept across restarts' }, reactions: [{ emoji: '👍', count: 1 }] });
    expect(second.balance(bob!.id)).toBe(2.5);
    // The same secret: a session from before the restart still works; a logged-out one still does not.
    expect((await http(second.url, 'GET', '/v2/clans', { token: session.token })).status).toBe(200);
    expect((await http(second.url, 'GET', '/v2/clans', { token: loggedOut.token })).body).toMatchObject({ code: 'unauthenticated', message: 'the session was logged out' });
    // The API key logs in; the webhook URL (host aside) posts.
    await authenticate(second.url, { id: bot.botId, token: bot.token });
    const hook = second.webhooks()[0]!;
    const posted = await http(second.url, 'POST', new URL(hook.url).pathname, { body: { type: 'hook', message: { t: 'after the restart' } } });
    expect(posted.status).toBe(200);
    expect(second.messages(notes).map((m) => m.content.t)).toEqual(['kept across restarts', 'after the restart']);
    // New ids keep increasing past every id handed out before.
    expect(BigInt(second.createUser({ username: 'newer' }).id)).toBeGreaterThan(lastId);
  });

  it('writes while running, keeps the secret readable by its owner only, and refuses a file it cannot read', async () => {
    const dir = freshDir();
    const emu = await start(dir, { autosaveMs: 20 });
    const before = readFileSync(join(dir, 'world.json'), 'utf8');
    emu.createUser({ username: 'written-while-running' });
    const deadline = Date.now() + 5000;
    while (readFileSync(join(dir, 'world.json'), 'utf8') === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(join(dir, 'world.json'), 'utf8')).toContain('written-while-running');
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
    await emu.close();
    emulators.splice(0);

    writeFileSync(join(dir, 'world.json'), '{"version": 99}');
    await expect(startEmulator({ dataDir: dir })).rejects.toThrow(/world\.json has format version 99; this emulator reads version 1/);
    writeFileSync(join(dir, 'world.json'), '{not json');
    await expect(startEmulator({ dataDir: dir })).rejects.toThrow(/world\.json is not valid JSON .*move it away to start afresh/);
  });

  it('a given secret replaces the kept one; a seed that fails leaves no world behind', async () => {
    const dir = freshDir();
    await expect(startEmulator({ dataDir: dir, seed: { clans: [{ name: 'X', owner: 'nobody' }] } })).rejects.toThrow('clans[0].owner');
    expect(existsSync(join(dir, 'world.json'))).toBe(false);
    const emu = await start(dir, { secret: 'chosen-secret' });
    expect(readFileSync(join(dir, 'secret'), 'utf8').trim()).toBe('chosen-secret');
    expect(emu.options.secret).toBe('chosen-secret');
  });
});
