/**
 * Client and server agree: every message the webhook clients refuse before
 * sending is also refused by the emulator when sent raw (the cases
 * test/emulator/webhooks.test.ts does not already cover), and what the
 * clients accept, the emulator stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { startEmulator, type Emulator, type EmulatorWebhook } from '../../src/emulator/index.js';
import { ChannelWebhook, ClanWebhook, type ChannelWebhookMessage, type ClanWebhookMessage } from '../../src/webhooks/index.js';
import { http } from '../helpers/raw.js';

interface ErrorBody {
  code: string;
  fields?: Record<string, string>;
}

function post(url: string, body: unknown) {
  const parsed = new URL(url);
  return http<ErrorBody>(parsed.origin, 'POST', parsed.pathname, { body });
}

function clientRefusal(send: () => Promise<unknown>): Promise<ValidationError> {
  return send().then(
    () => {
      throw new Error('the client sent it');
    },
    (error: unknown) => {
      if (!(error instanceof ValidationError)) throw error;
      return error;
    },
  );
}

const image = { fn: 'a.png', sz: 1, url: 'https://cdn.example.test/a.png', ft: 'image/png', w: 1, h: 1 };
const attachment = { url: 'https://cdn.example.test/a.png', filetype: 'image/png' };

describe('webhook rules: client and emulator agree', () => {
  let emu: Emulator;
  let channelHook: EmulatorWebhook;
  let clanHook: EmulatorWebhook;
  let channelId: string;
  let member: string;

  beforeAll(async () => {
    emu = await startEmulator();
    const owner = emu.createBot({ username: 'owner' });
    member = owner.botId;
    const clan = emu.createClan({ name: 'Parity', ownerId: owner.botId });
    channelId = clan.welcome_channel_id;
    channelHook = emu.createChannelWebhook(channelId);
    clanHook = emu.createClanWebhook(clan.id);
  });

  afterAll(async () => {
    await emu.close();
  });

  // [name, message, client field, server status, server field]
  const channelCases: Array<[string, unknown, string, number, string]> = [
    ['an empty text with an image', { t: '', images: [image] }, 'message.t', 400, 'message.t'],
    ['more than 100 mentions', { t: '@a', mentions: Array.from({ length: 101 }, () => ({ username: 'a', s: 0, e: 2 })) }, 'message.mentions', 413, 'mentions'],
    ['more than 20 images', { t: 'x', images: Array.from({ length: 21 }, () => image) }, 'message.images', 413, 'attachments'],
    ['a mention with an empty user_id', { t: '@a', mentions: [{ user_id: '', s: 0, e: 2 }] }, 'message.mentions[0].user_id', 400, 'message.mentions[0].user_id'],
    ['a mention with an empty username', { t: '@a', mentions: [{ username: '', s: 0, e: 2 }] }, 'message.mentions[0].username', 400, 'message.mentions[0].username'],
    ['mk that is not an array', { t: 'abc', mk: { type: 'pre', s: 0, e: 1 } }, 'message.mk', 400, 'message.mk'],
    ['an hg ending beyond t', { t: '#a', hg: [{ channelId: '1', s: 0, e: 3 }] }, 'message.hg[0].e', 400, 'message.hg[0].e'],
    ['an mk ending beyond a 2-unit emoji (UTF-16)', { t: '😀', mk: [{ type: 'pre', s: 0, e: 3 }] }, 'message.mk[0].e', 400, 'message.mk[0].e'],
    ['mk and hg making the content JSON too long', { t: 'x'.repeat(3900), mk: Array.from({ length: 10 }, () => ({ type: 'pre', s: 0, e: 1 })) }, 'message.t', 413, 'message.t'],
  ];

  it.each(channelCases)('channel webhook: %s', async (_name, message, clientField, status, serverField) => {
    const error = await clientRefusal(() => new ChannelWebhook(channelHook.url).send(message as ChannelWebhookMessage));
    expect(error.issues.map((i) => i.path)).toContain(clientField);
    const res = await post(channelHook.url, { type: 'hook', message });
    expect(res.status).toBe(status);
    expect(Object.keys(res.body.fields ?? {})).toContain(serverField);
    expect(emu.messages(channelId)).toEqual([]);
  });

  const clanCases: Array<[string, unknown, string, number, string]> = [
    ['an empty text', { content: { t: '' } }, 'content.t', 400, 'content.t'],
    ['an empty text with an attachment', { content: { t: '' }, attachments: [attachment] }, 'content.t', 400, 'content.t'],
    ['a text making the content JSON too long', { content: { t: 'x'.repeat(3993) } }, 'content.t', 413, 'content.t'],
    ['an mk without type', { content: { t: 'abc', mk: [{ s: 0, e: 1 }] } }, 'content.mk[0].type', 400, 'content.mk[0].type'],
    ['an mk without e', { content: { t: 'abc', mk: [{ type: 'pre', s: 0 }] } }, 'content.mk[0].e', 400, 'content.mk[0].e'],
    ['more than 20 attachments', { content: { t: 'a' }, attachments: Array.from({ length: 21 }, () => attachment) }, 'attachments', 413, 'attachments'],
  ];

  it.each(clanCases)('clan webhook: %s', async (_name, message, clientField, status, serverField) => {
    const error = await clientRefusal(() => new ClanWebhook(clanHook.url).send(member, message as ClanWebhookMessage));
    expect(error.issues.map((i) => i.path)).toContain(clientField);
    const raw = message as { content: unknown; attachments?: unknown };
    const res = await post(`${clanHook.url}/${member}`, { content: JSON.stringify(raw.content), ...(raw.attachments ? { attachments: raw.attachments } : {}) });
    expect(res.status).toBe(status);
    expect(Object.keys(res.body.fields ?? {})).toContain(serverField);
    expect(emu.channels('0').flatMap((c) => emu.messages(c.id))).toEqual([]);
  });

  it('what the clients accept at the limits, the emulator stores', async () => {
    const hook = new ChannelWebhook(channelHook.url);
    await hook.send({ t: '@a', mentions: Array.from({ length: 100 }, () => ({ username: 'a', s: 0, e: 2 })) });
    await hook.send({ t: 'x', images: Array.from({ length: 20 }, () => image) });
    await new ClanWebhook(clanHook.url).send(member, { content: { t: 'x'.repeat(3992) } });
    await new ClanWebhook(clanHook.url).send(member, { content: { t: 'a' }, attachments: Array.from({ length: 20 }, () => attachment) });
    expect(emu.messages(channelId)).toHaveLength(2);
    expect(emu.channels('0').flatMap((c) => emu.messages(c.id))).toHaveLength(2);
  });
});
