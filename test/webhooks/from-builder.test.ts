/**
 * Webhook messages built with MessageContentBuilder: the builder computes
 * every offset (UTF-16, so an emoji before a mention counts 2), the helper
 * turns the result into a webhook message with images, and the emulator
 * stores mentions and ranges that cut exactly the intended text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionRowBuilder, ButtonBuilder, ChannelWebhook, channelWebhookMessage, ClanWebhook, clanWebhookContent, EmbedBuilder, MessageContentBuilder, ValidationError } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const cut = (text: string, range: { s?: number; e?: number }) => text.slice(range.s ?? 0, range.e);

describe('webhook messages from the builder', () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await startEmulator({ seed: { users: [{ username: 'alice' }, { username: 'bob' }], clans: [{ name: 'Hooks', owner: 'alice', members: ['bob'], channels: [{ name: 'deploys' }] }] } });
  });
  afterEach(() => emu.close());

  it('posts mentions, markdown, a hashtag and an image with the offsets the builder computed', async () => {
    const clan = emu.clans()[0]!;
    const deploys = emu.channels(clan.id).find((c) => c.channel_label === 'deploys')!.id;
    const bob = emu.user('bob');
    const hook = new ChannelWebhook(emu.createChannelWebhook(deploys, { name: 'CI' }).url);
    const message = channelWebhookMessage(
      new MessageContentBuilder()
        .text('🚀 ')
        .bold('Build 42')
        .text(' passed, thanks ')
        .mention({ username: 'alice' })
        .text(' and ')
        .mention({ user_id: bob.id }, '@bob')
        .text(' · ')
        .hashtag(deploys, 'deploys')
        .text(' · ')
        .link('https://ci.example/42'),
      { images: [{ fn: 'coverage.png', sz: 20480, url: 'https://ci.example/42/coverage.png', ft: 'image/png', w: 640, h: 360 }] },
    );
    expect(message.t).toBe('🚀 Build 42 passed, thanks @alice and @bob · #deploys · https://ci.example/42');
    // The rocket is two UTF-16 units: "Build 42" starts at 3, not 2.
    expect(message.mk).toEqual([{ type: 'b', s: 3, e: 11 }, { type: 'lk', s: 56, e: 77 }]);

    const { message_id } = await hook.send(message);
    const stored = emu.messages(deploys).find((m) => m.message_id === message_id)!;
    const t = stored.content.t!;
    expect(stored.mentions.map((m) => [m.username ?? m.user_id, cut(t, m)])).toEqual([['alice', '@alice'], [bob.id, '@bob']]);
    expect(stored.content.mk?.map((mk) => [mk.type, cut(t, mk)])).toEqual([['b', 'Build 42'], ['lk', 'https://ci.example/42']]);
    expect(stored.content.hg?.map((hg) => [hg.channelId, cut(t, hg)])).toEqual([[deploys, '#deploys']]);
    expect(stored.attachments).toEqual([{ url: 'https://ci.example/42/coverage.png', filetype: 'image/png', filename: 'coverage.png', size: 20480, width: 640, height: 360 }]);
  });

  it('builds a clan webhook DM (text and markdown) the same way', async () => {
    const hook = new ClanWebhook(emu.createClanWebhook(emu.clans()[0]!.id, { name: 'Reports' }).url);
    const content = clanWebhookContent(MessageContentBuilder.preformatted('status: ok\nversion: 42'));
    expect(content).toEqual({ t: 'status: ok\nversion: 42', mk: [{ type: 'pre', s: 0, e: 22 }] });
    const { channel_id } = await hook.send('bob', { content });
    expect(emu.messages(channel_id).map((m) => m.content)).toEqual([content]);
  });

  it('refuses what a webhook cannot carry, naming the field', () => {
    const role = () => channelWebhookMessage(new MessageContentBuilder().mention({ role_id: '9' }, '@mods'));
    expect(role).toThrow(ValidationError);
    expect(role).toThrow('mentions[0]: a webhook can mention users only');
    const rich = new MessageContentBuilder().text('x').emoji('e1', 'party').addEmbed(new EmbedBuilder().setTitle('t')).addRow(new ActionRowBuilder().addComponents(new ButtonBuilder().setId('b').setLabel('B')));
    try {
      channelWebhookMessage(rich);
      expect.unreachable('an embed must be refused');
    } catch (error) {
      expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['content.ej', 'content.embed', 'content.components']);
    }
    expect(() => clanWebhookContent(new MessageContentBuilder().mention({ username: 'alice' }))).toThrow('mentions: a clan webhook message cannot mention anyone');
  });
});
