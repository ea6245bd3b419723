/**
 * Accounts and channels (src/emulator/platform/accounts.ts): an API key
 * names one account; deleting a channel takes its threads with it, each
 * announced, and nothing of it stays behind (messages, quick menu entries).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../../src/emulator/index.js';
import { Events } from '../../../src/events/names.js';
import { ChannelType } from '../../../src/model/enums.js';
import type { ApiQuickMenuAccess } from '../../../src/model/api.js';
import { api, authenticate } from '../../helpers/raw.js';

let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
});

describe('createUser and createBot', () => {
  it('refuse an API key another account has (409, naming both, never the key); the first holder keeps logging in', async () => {
    emu = await startEmulator();
    const alice = emu.createUser({ username: 'alice', token: 'one-api-key-for-alice' });
    for (const create of [() => emu!.createUser({ username: 'mallory', token: 'one-api-key-for-alice' }), () => emu!.createBot({ username: 'malbot', token: 'one-api-key-for-alice' })]) {
      let refused: unknown;
      try {
        create();
      } catch (error) {
        refused = error;
      }
      expect(refused).toMatchObject({ status: 409, code: 'conflict', fields: { token: 'taken by another account' } });
      expect((refused as Error).message).toMatch(/^the API key given for (mallory|malbot) is the API key of alice; give each account its own$/);
      expect((refused as Error).message).not.toContain('one-api-key-for-alice');
    }
    expect(emu.credentials().map((a) => a.username)).toEqual(['alice']);
    const session = await authenticate(emu.url, { id: alice.id, token: 'one-api-key-for-alice' });
    expect(session.user_id).toBe(alice.id);
  });
});

describe('deleteChannel', () => {
  it('deletes the threads with the channel (each announced, threads first) and leaves no quick-menu entry behind', async () => {
    emu = await startEmulator();
    const bot = emu.createBot({ username: 'bot' });
    const alice = emu.createUser({ username: 'alice' });
    const clan = emu.createClan({ name: 'Clan', ownerId: alice.id });
    emu.addClanMember(clan.id, bot.botId);
    const parent = emu.createChannel({ clanId: clan.id, name: 'parent' });
    const thread = emu.createChannel({ clanId: clan.id, name: 'thread', type: ChannelType.CHANNEL_TYPE_THREAD, parentId: parent.channel_id });
    const other = emu.createChannel({ clanId: clan.id, name: 'other' });
    emu.as(alice.id).send(thread.channel_id, 'in the thread');
    const session = await authenticate(emu.url, { id: bot.botId, token: bot.token });
    const added = await api<ApiQuickMenuAccess>(session, 'POST', `/v2/channels/${parent.channel_id}/quickmenu`, { menu_name: 'help', action_msg: '*help' });
    expect(added.status).toBe(200);
    const deleted: string[] = [];
    const stop = emu.onEvent((type, payload) => {
      if (type === Events.ChannelDeleted) deleted.push((payload as { channel_id: string }).channel_id);
    });

    emu.deleteChannel(parent.channel_id, alice.id);
    stop();

    expect(deleted).toEqual([thread.channel_id, parent.channel_id]);
    expect(emu.channels(clan.id).map((c) => c.channel_id)).not.toContain(thread.channel_id);
    expect(emu.channels(clan.id).map((c) => c.channel_id)).toContain(other.channel_id);
    expect(() => emu!.messages(thread.channel_id)).toThrow(/not found/);
    expect(emu.quickMenus(parent.channel_id)).toEqual([]);
  });
});
