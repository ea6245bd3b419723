import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ChannelWebhook, ClanWebhook, EMarkdownType, ValidationError } from '../../src/index.js';
import { createTestWorld, type TestWorld } from '../../src/testing/index.js';
import { announceDeploy, channelPost, directMessage, type DeployReport } from './bot.js';

const report: DeployReport = { project: 'web-app', version: '1.4.2', ok: true, url: 'https://ci.example.com/builds/812', by: 'alice' };

describe('examples/webhook-post', () => {
  let world: TestWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  async function start() {
    world = await createTestWorld();
    const general = world.channels.general!.channel_id;
    const channelHook = world.emu.createChannelWebhook(general, { name: 'CI' });
    const clanHook = world.emu.createClanWebhook(world.clan!.id, { name: 'CI' });
    const hooks = { channel: new ChannelWebhook(channelHook.url), clan: new ClanWebhook(clanHook.url) };
    return { world, general, channelHook, clanHook, hooks };
  }

  it('posts into the channel as the webhook, with bold, link and mention ranges over the right words', async () => {
    const { world, general, channelHook, hooks } = await start();
    const { post } = await announceDeploy(hooks, report);
    const [stored] = world.emu.messages(general);
    expect(stored?.message_id).toBe(post.message_id);
    expect(stored?.sender_id).toBe(channelHook.botUserId);
    const t = stored?.content.t ?? '';
    expect(t).toBe('✅ web-app 1.4.2 deployed by @alice · https://ci.example.com/builds/812');
    const cut = (range: { s?: number; e?: number }) => t.slice(range.s ?? 0, range.e);
    expect(stored?.content.mk?.map((m) => [m.type, cut(m)])).toEqual([
      [EMarkdownType.BOLD, 'web-app 1.4.2'],
      [EMarkdownType.LINK, 'https://ci.example.com/builds/812'],
    ]);
    expect(stored?.mentions.map((m) => [m.username, cut(m)])).toEqual([['alice', '@alice']]);
  });

  it("delivers the DM to the member's inbox, preformatted", async () => {
    const { world, clanHook, hooks } = await start();
    const { dm } = await announceDeploy(hooks, { ...report, ok: false });
    const [message] = world.emu.messages(dm.channel_id);
    expect(message?.sender_id).toBe(clanHook.botUserId);
    expect(world.emu.channel(dm.channel_id).member_ids.sort()).toEqual([clanHook.botUserId, world.accounts.alice!.id].sort());
    const t = message?.content.t ?? '';
    expect(t.startsWith('Your deploy failed.\n')).toBe(true);
    const pre = message?.content.mk?.find((m) => m.type === EMarkdownType.PRE);
    expect(t.slice(pre?.s ?? 0, pre?.e)).toBe('project: web-app\nversion: 1.4.2\nstatus:  failed');
  });

  it('is refused for someone outside the clan, and the error shows no secret', async () => {
    const { world, hooks, clanHook } = await start();
    world.emu.createUser({ username: 'stranger' });
    const error: unknown = await announceDeploy(hooks, { ...report, by: 'stranger' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(clanHook.token);
  });

  it('checks messages before sending anything', async () => {
    const { world, general, hooks } = await start();
    // A mention range past the end of the text, and a recipient with stray whitespace: refused locally.
    const bad = { ...channelPost(report), mentions: [{ username: 'alice', s: 0, e: 10_000 }] };
    await expect(hooks.channel.send(bad)).rejects.toBeInstanceOf(ValidationError);
    await expect(hooks.clan.send(' alice', directMessage(report))).rejects.toBeInstanceOf(ValidationError);
    expect(world.emu.messages(general)).toEqual([]);
  });
});
