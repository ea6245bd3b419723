/**
 * Channel webhook (SPEC §4.2) and clan webhook (SPEC §4.3) of the emulator,
 * driven with raw HTTP: statuses, bodies, and what the emulator stored and pushed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount, type EmulatorWebhook } from '../../src/emulator/index.js';
import { authenticate, http, RawGateway, type Frame, type HttpResult } from '../helpers/raw.js';

const EVERYONE = '1775731111020111321';

interface ErrorBody {
  code: string;
  message: string;
  fields?: Record<string, string>;
}

interface WebhookResult {
  message_id: string;
  channel_id: string;
}

/** POSTs a JSON body (or a raw string) to a full webhook URL. */
function post<T = unknown>(url: string, body: unknown, options: { rawBody?: string; headers?: Record<string, string> } = {}): Promise<HttpResult<T>> {
  const parsed = new URL(url);
  return http<T>(parsed.origin, 'POST', parsed.pathname, options.rawBody !== undefined ? options : { ...options, body });
}

const hook = (message: unknown): unknown => ({ type: 'hook', message });

function payloadOf(frame: Frame, op: string): Record<string, unknown> {
  const payload = frame[op];
  if (typeof payload !== 'object' || payload === null) throw new Error(`frame has no ${op}: ${JSON.stringify(frame)}`);
  return payload as Record<string, unknown>;
}

describe('channel webhook', () => {
  let emu: Emulator;
  let listener: BotCredentials;
  let alice: EmulatorAccount;
  let clanId: string;
  let channelId: string;
  let webhook: EmulatorWebhook;
  const gateways: RawGateway[] = [];

  beforeEach(async () => {
    emu = await startEmulator();
    listener = emu.createBot({ username: 'listener' });
    alice = emu.createUser({ username: 'alice' });
    clanId = emu.createClan({ name: 'Hook Clan', ownerId: listener.botId }).id;
    emu.addClanMember(clanId, alice.id);
    channelId = emu.createChannel({ clanId, name: 'news' }).id;
    webhook = emu.createChannelWebhook(channelId, { name: 'Hooky' });
  });

  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((g) => g.close()));
    await emu.close();
  });

  async function connectListener(): Promise<RawGateway> {
    const session = await authenticate(emu.url, { id: listener.botId, token: listener.token });
    const gateway = await RawGateway.start(session, [clanId]);
    gateways.push(gateway);
    return gateway;
  }

  it('has a URL of the documented shape', () => {
    expect(webhook.url).toBe(`${emu.url}/webhooks/${channelId}/${webhook.token}`);
  });

  it('posts plain text as the webhook bot user: 200 {message_id, channel_id}, stored and pushed as channel_message', async () => {
    const gateway = await connectListener();
    const res = await post<WebhookResult>(webhook.url, hook({ t: 'hello from a webhook' }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['channel_id', 'message_id']);
    expect(res.body.channel_id).toBe(channelId);
    expect(res.body.message_id).toMatch(/\S/);

    const stored = emu.messages(channelId);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      message_id: res.body.message_id,
      channel_id: channelId,
      clan_id: clanId,
      sender_id: webhook.botUserId,
      display_name: 'Hooky',
      content: { t: 'hello from a webhook' },
      mentions: [],
      attachments: [],
    });
    expect(stored[0]!.mention_everyone).toBeUndefined();
    expect(emu.user(webhook.botUserId)).toMatchObject({ is_bot: true, display_name: 'Hooky' });

    const frame = await gateway.next((f) => 'channel_message' in f);
    expect(payloadOf(frame, 'channel_message')).toMatchObject({
      message_id: res.body.message_id,
      channel_id: channelId,
      clan_id: clanId,
      sender_id: webhook.botUserId,
      content: { t: 'hello from a webhook' },
      code: 0,
    });
  });

  it('keeps mk ranges (lk and pre)', async () => {
    const t = 'see https://example.test and run `npm test`';
    const link = t.indexOf('https://');
    const code = t.indexOf('`');
    const mk = [
      { type: 'lk', s: link, e: link + 'https://example.test'.length },
      { type: 'pre', s: code, e: t.length },
    ];
    const res = await post<WebhookResult>(webhook.url, hook({ t, mk }));
    expect(res.status).toBe(200);
    const [stored] = emu.messages(channelId);
    expect(stored?.message_id).toBe(res.body.message_id);
    expect(stored?.content).toEqual({ t, mk });
  });

  it('keeps mentions by username and by user_id; only the reserved everyone id sets mention_everyone', async () => {
    const t = '@alice and @alice again';
    const res = await post<WebhookResult>(webhook.url, hook({ t, mentions: [{ username: 'alice', s: 0, e: 6 }, { user_id: alice.id, s: 11, e: 17 }] }));
    expect(res.status).toBe(200);
    const [first] = emu.messages(channelId);
    expect(first?.mentions).toEqual([
      { username: 'alice', s: 0, e: 6 },
      { user_id: alice.id, s: 11, e: 17 },
    ]);
    expect(first?.mention_everyone).toBeUndefined();

    const gateway = await connectListener();
    const everyone = await post<WebhookResult>(webhook.url, hook({ t: '@everyone wake up', mentions: [{ user_id: EVERYONE, s: 0, e: 9 }] }));
    expect(everyone.status).toBe(200);
    const second = emu.messages(channelId).find((m) => m.message_id === everyone.body.message_id);
    expect(second?.mentions).toEqual([{ user_id: EVERYONE, s: 0, e: 9 }]);
    expect(second?.mention_everyone).toBe(true);
    const frame = await gateway.next((f) => 'channel_message' in f);
    expect(payloadOf(frame, 'channel_message')).toMatchObject({ message_id: everyone.body.message_id, mention_everyone: true });
  });

  it('stores images as attachments {url, filetype, filename, size, width, height}', async () => {
    const images = [
      { fn: 'cat.png', sz: 12345, url: 'https://cdn.example.test/cat.png', ft: 'image/png', w: 640, h: 480 },
      { fn: 'dog.jpg', sz: 0, url: 'https://cdn.example.test/dog.jpg', ft: 'image/jpeg', w: 1, h: 2 },
    ];
    const res = await post<WebhookResult>(webhook.url, hook({ t: 'pets', images }));
    expect(res.status).toBe(200);
    const [stored] = emu.messages(channelId);
    expect(stored?.attachments).toEqual([
      { url: 'https://cdn.example.test/cat.png', filetype: 'image/png', filename: 'cat.png', size: 12345, width: 640, height: 480 },
      { url: 'https://cdn.example.test/dog.jpg', filetype: 'image/jpeg', filename: 'dog.jpg', size: 0, width: 1, height: 2 },
    ]);
  });

  it('keeps channel hashtags (hg)', async () => {
    const other = emu.createChannel({ clanId, name: 'other' }).id;
    const t = 'see #other';
    const res = await post<WebhookResult>(webhook.url, hook({ t, hg: [{ channelId: other, s: 4, e: 10 }] }));
    expect(res.status).toBe(200);
    expect(emu.messages(channelId)[0]?.content).toEqual({ t, hg: [{ channelId: other, s: 4, e: 10 }] });
  });

  const image = { fn: 'a.png', sz: 10, url: 'https://cdn.example.test/a.png', ft: 'image/png', w: 2, h: 3 };
  const without = (key: keyof typeof image): Record<string, unknown> => Object.fromEntries(Object.entries(image).filter(([k]) => k !== key));
  const rejections: Array<[string, unknown, string]> = [
    ['type is not "hook"', { type: 'message', message: { t: 'x' } }, 'type'],
    ['type is missing', { message: { t: 'x' } }, 'type'],
    ['message is missing', { type: 'hook' }, 'message'],
    ['message is not an object', { type: 'hook', message: 'hi' }, 'message'],
    ['t is missing', hook({ mk: [] }), 'message.t'],
    ['t is not a string', hook({ t: 42 }), 'message.t'],
    ['a mention gives both username and user_id', hook({ t: '@alice', mentions: [{ username: 'alice', user_id: '1', s: 0, e: 6 }] }), 'message.mentions[0]'],
    ['a mention gives neither username nor user_id', hook({ t: '@alice', mentions: [{ s: 0, e: 6 }] }), 'message.mentions[0]'],
    ['a mention s is not an integer', hook({ t: '@alice', mentions: [{ username: 'alice', s: 0.5, e: 6 }] }), 'message.mentions[0].s'],
    ['a mention e is a string', hook({ t: '@alice', mentions: [{ username: 'alice', s: 0, e: '6' }] }), 'message.mentions[0].e'],
    ['a mention s is missing', hook({ t: '@alice', mentions: [{ username: 'alice', e: 6 }] }), 'message.mentions[0].s'],
    ['a mention e is missing', hook({ t: '@alice', mentions: [{ user_id: '1', s: 0 }] }), 'message.mentions[0].e'],
    ['a mention has s > e', hook({ t: '@alice', mentions: [{ username: 'alice', s: 4, e: 2 }] }), 'message.mentions[0].e'],
    ['a mention ends beyond t', hook({ t: '@alice', mentions: [{ username: 'alice', s: 0, e: 7 }] }), 'message.mentions[0].e'],
    ['a mention has a negative s', hook({ t: '@alice', mentions: [{ username: 'alice', s: -1, e: 6 }] }), 'message.mentions[0].s'],
    ['an mk s is not an integer', hook({ t: 'abc', mk: [{ type: 'pre', s: '0', e: 2 }] }), 'message.mk[0].s'],
    ['an mk has s > e', hook({ t: 'abc', mk: [{ type: 'pre', s: 2, e: 1 }] }), 'message.mk[0].e'],
    ['an mk ends beyond t', hook({ t: 'abc', mk: [{ type: 'lk', s: 0, e: 4 }] }), 'message.mk[0].e'],
    ['an mk has a negative s', hook({ t: 'abc', mk: [{ type: 'lk', s: -2, e: 1 }] }), 'message.mk[0].s'],
    ['an mk has no type', hook({ t: 'abc', mk: [{ s: 0, e: 1 }] }), 'message.mk[0].type'],
    ['an image has no fn', hook({ t: 'x', images: [without('fn')] }), 'message.images[0].fn'],
    ['an image has no sz', hook({ t: 'x', images: [without('sz')] }), 'message.images[0].sz'],
    ['an image has no url', hook({ t: 'x', images: [without('url')] }), 'message.images[0].url'],
    ['an image has no ft', hook({ t: 'x', images: [without('ft')] }), 'message.images[0].ft'],
    ['an image has no w', hook({ t: 'x', images: [without('w')] }), 'message.images[0].w'],
    ['an image has no h', hook({ t: 'x', images: [without('h')] }), 'message.images[0].h'],
    ['an image fn is a number', hook({ t: 'x', images: [{ ...image, fn: 7 }] }), 'message.images[0].fn'],
    ['an image sz is a string', hook({ t: 'x', images: [{ ...image, sz: '10' }] }), 'message.images[0].sz'],
    ['an image url is not a string', hook({ t: 'x', images: [{ ...image, url: { href: 'x' } }] }), 'message.images[0].url'],
    ['an image ft is null', hook({ t: 'x', images: [{ ...image, ft: null }] }), 'message.images[0].ft'],
    ['an image w is fractional', hook({ t: 'x', images: [{ ...image, w: 1.5 }] }), 'message.images[0].w'],
    ['an image h is negative', hook({ t: 'x', images: [{ ...image, h: -1 }] }), 'message.images[0].h'],
    ['images is not an array', hook({ t: 'x', images: image }), 'message.images'],
    ['an hg has no channelId', hook({ t: '#news', hg: [{ s: 0, e: 5 }] }), 'message.hg[0].channelId'],
    ['an hg has no s', hook({ t: '#news', hg: [{ channelId: '1', e: 5 }] }), 'message.hg[0].s'],
    ['an hg has no e', hook({ t: '#news', hg: [{ channelId: '1', s: 0 }] }), 'message.hg[0].e'],
  ];

  it.each(rejections)('refuses with 400 when %s', async (_name, body, field) => {
    const res = await post<ErrorBody>(webhook.url, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
    expect(Object.keys(res.body.fields ?? {})).toContain(field);
    expect(emu.messages(channelId)).toEqual([]);
  });

  it('refuses text that makes the message content exceed 4000 characters of JSON with 413 naming message.t', async () => {
    // {"t":"…"} adds 8 characters around the text.
    const fits = await post<WebhookResult>(webhook.url, hook({ t: 'x'.repeat(3992) }));
    expect(fits.status).toBe(200);
    const res = await post<ErrorBody>(webhook.url, hook({ t: 'x'.repeat(3993) }));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect(Object.keys(res.body.fields ?? {})).toEqual(['message.t']);
    expect(emu.messages(channelId)).toHaveLength(1);
  });

  it('refuses an empty text with 400 naming message.t', async () => {
    const res = await post<ErrorBody>(webhook.url, hook({ t: '' }));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields ?? {})).toEqual(['message.t']);
    expect(emu.messages(channelId)).toEqual([]);
  });

  it('refuses an unknown token with 401', async () => {
    const res = await http<ErrorBody>(emu.url, 'POST', `/webhooks/${channelId}/not-a-real-token`, { body: hook({ t: 'x' }) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
    expect(emu.messages(channelId)).toEqual([]);
  });

  it('refuses a token of another channel with 401 (and checks the token before the body)', async () => {
    const otherChannel = emu.createChannel({ clanId, name: 'other' }).id;
    const otherHook = emu.createChannelWebhook(otherChannel);
    const res = await http<ErrorBody>(emu.url, 'POST', `/webhooks/${channelId}/${otherHook.token}`, { body: hook({ t: 'x' }) });
    expect(res.status).toBe(401);
    const invalid = await http<ErrorBody>(emu.url, 'POST', `/webhooks/${channelId}/${otherHook.token}`, { body: { nonsense: true } });
    expect(invalid.status).toBe(401);
    expect(emu.messages(channelId)).toEqual([]);
    expect(emu.messages(otherChannel)).toEqual([]);
  });

  it('refuses a clan webhook token on the channel webhook path with 401', async () => {
    const clanHook = emu.createClanWebhook(clanId);
    const res = await http<ErrorBody>(emu.url, 'POST', `/webhooks/${channelId}/${clanHook.token}`, { body: hook({ t: 'x' }) });
    expect(res.status).toBe(401);
  });

  it('after resetWebhookToken the old URL answers 401 and the new one works', async () => {
    const oldUrl = webhook.url;
    const reset = emu.resetWebhookToken(webhook.id);
    expect(reset.token).not.toBe(webhook.token);
    expect(reset.url).toBe(`${emu.url}/webhooks/${channelId}/${reset.token}`);
    expect(reset.botUserId).toBe(webhook.botUserId);
    const old = await post<ErrorBody>(oldUrl, hook({ t: 'old' }));
    expect(old.status).toBe(401);
    const fresh = await post<WebhookResult>(reset.url, hook({ t: 'new' }));
    expect(fresh.status).toBe(200);
    expect(emu.messages(channelId).map((m) => m.content.t)).toEqual(['new']);
  });

  it('answers 404 once the channel is deleted', async () => {
    emu.deleteChannel(channelId);
    const res = await post<ErrorBody>(webhook.url, hook({ t: 'anyone there?' }));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('refuses a non-JSON content type with 415', async () => {
    const res = await post<ErrorBody>(webhook.url, undefined, { rawBody: JSON.stringify(hook({ t: 'x' })), headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
    expect(emu.messages(channelId)).toEqual([]);
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await post<ErrorBody>(webhook.url, undefined, { rawBody: '{"type":"hook","message":{"t":"x"' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
    expect(emu.messages(channelId)).toEqual([]);
  });
});

describe('channel webhook body size limit', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('answers 413 for a body over the 64 KiB webhook limit and accepts one under it', async () => {
    emu = await startEmulator();
    const owner = emu.createBot({ username: 'owner' });
    const clan = emu.createClan({ name: 'Big', ownerId: owner.botId });
    const webhook = emu.createChannelWebhook(clan.welcome_channel_id);
    const big = await post<ErrorBody>(webhook.url, hook({ t: 'x'.repeat(64 * 1024) }));
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('payload_too_large');
    expect(emu.messages(clan.welcome_channel_id)).toEqual([]);

    const small = await post<WebhookResult>(webhook.url, hook({ t: 'small' }));
    expect(small.status).toBe(200);
    expect(emu.messages(clan.welcome_channel_id).map((m) => m.content.t)).toEqual(['small']);
  });
});

describe('clan webhook', () => {
  let emu: Emulator;
  let recipient: BotCredentials;
  let outsider: EmulatorAccount;
  let clanId: string;
  let webhook: EmulatorWebhook;
  const gateways: RawGateway[] = [];

  beforeEach(async () => {
    emu = await startEmulator();
    const owner = emu.createUser({ username: 'owner' });
    recipient = emu.createBot({ username: 'inbox' });
    outsider = emu.createUser({ username: 'outsider' });
    clanId = emu.createClan({ name: 'Clan', ownerId: owner.id }).id;
    emu.addClanMember(clanId, recipient.botId);
    webhook = emu.createClanWebhook(clanId, { name: 'Clan Hook' });
  });

  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((g) => g.close()));
    await emu.close();
  });

  const body = (content: unknown, attachments?: unknown): unknown => ({ content: JSON.stringify(content), ...(attachments !== undefined ? { attachments } : {}) });

  it('has a base URL of the documented shape', () => {
    expect(webhook.url).toBe(`${emu.url}/clanwebhooks/${webhook.token}`);
  });

  it('delivers a DM from the webhook bot user, by user id: stored in a clan "0" DM channel of the two', async () => {
    const t = 'read https://example.test now';
    const mk = [{ type: 'lk', s: 5, e: 25 }];
    const attachments = [{ url: 'https://cdn.example.test/report.pdf', filetype: 'application/pdf' }];
    const res = await post<WebhookResult>(`${webhook.url}/${recipient.botId}`, body({ t, mk }, attachments));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['channel_id', 'message_id']);

    const dm = emu.channel(res.body.channel_id);
    expect(dm.clan_id).toBe('0');
    expect(dm.type).toBe(3);
    expect([...dm.member_ids].sort()).toEqual([webhook.botUserId, recipient.botId].sort());
    expect(emu.channels('0').map((c) => c.id)).toContain(res.body.channel_id);

    const stored = emu.messages(res.body.channel_id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      message_id: res.body.message_id,
      channel_id: res.body.channel_id,
      clan_id: '0',
      sender_id: webhook.botUserId,
      display_name: 'Clan Hook',
      content: { t, mk },
      attachments,
    });
  });

  it('delivers by username into the same DM channel', async () => {
    const first = await post<WebhookResult>(`${webhook.url}/${recipient.botId}`, body({ t: 'one' }));
    const second = await post<WebhookResult>(`${webhook.url}/inbox`, body({ t: 'two' }));
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.channel_id).toBe(first.body.channel_id);
    expect(emu.messages(first.body.channel_id).map((m) => [m.content.t, m.sender_id])).toEqual([
      ['one', webhook.botUserId],
      ['two', webhook.botUserId],
    ]);
  });

  it('pushes channel_message (clan_id "0", mode 4) to a connected recipient that joined nothing', async () => {
    const session = await authenticate(emu.url, { id: recipient.botId, token: recipient.token });
    const gateway = await RawGateway.start(session, []);
    gateways.push(gateway);
    const res = await post<WebhookResult>(`${webhook.url}/${recipient.username}`, body({ t: 'psst' }));
    expect(res.status).toBe(200);
    const frame = await gateway.next((f) => 'channel_message' in f);
    expect(payloadOf(frame, 'channel_message')).toMatchObject({
      message_id: res.body.message_id,
      channel_id: res.body.channel_id,
      clan_id: '0',
      mode: 4,
      sender_id: webhook.botUserId,
      content: { t: 'psst' },
    });
  });

  it('refuses a recipient who is not a member of the clan with 403', async () => {
    for (const id of [outsider.id, outsider.username, webhook.botUserId]) {
      const res = await post<ErrorBody>(`${webhook.url}/${id}`, body({ t: 'hi' }));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    expect(emu.channels('0')).toEqual([]);
  });

  it('refuses a recipient removed from the clan with 403 even when the DM already exists', async () => {
    const first = await post<WebhookResult>(`${webhook.url}/${recipient.botId}`, body({ t: 'one' }));
    expect(first.status).toBe(200);
    emu.removeClanMember(clanId, recipient.botId);
    const second = await post<ErrorBody>(`${webhook.url}/${recipient.botId}`, body({ t: 'two' }));
    expect(second.status).toBe(403);
    expect(emu.messages(first.body.channel_id).map((m) => m.content.t)).toEqual(['one']);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await post<ErrorBody>(`${webhook.url}/nobody-here`, body({ t: 'hi' }));
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  const rejections: Array<[string, unknown, string]> = [
    ['content is not a string', { content: { t: 'hi' } }, 'content'],
    ['content is missing', { attachments: [] }, 'content'],
    ['content is not JSON', { content: '{t: hi' }, 'content'],
    ['content JSON is not an object', { content: '"hi"' }, 'content'],
    ['content JSON has no t', { content: JSON.stringify({ mk: [] }) }, 'content.t'],
    ['content t is not a string', { content: JSON.stringify({ t: 5 }) }, 'content.t'],
    ['an mk ends beyond t', { content: JSON.stringify({ t: 'abc', mk: [{ type: 'lk', s: 0, e: 4 }] }) }, 'content.mk[0].e'],
    ['an mk has a negative s', { content: JSON.stringify({ t: 'abc', mk: [{ type: 'lk', s: -1, e: 2 }] }) }, 'content.mk[0].s'],
    ['an mk has s > e', { content: JSON.stringify({ t: 'abc', mk: [{ type: 'pre', s: 3, e: 1 }] }) }, 'content.mk[0].e'],
    ['an attachment has no url', { content: JSON.stringify({ t: 'a' }), attachments: [{ filetype: 'image/png' }] }, 'attachments[0].url'],
    ['an attachment has no filetype', { content: JSON.stringify({ t: 'a' }), attachments: [{ url: 'https://cdn.example.test/a.png' }] }, 'attachments[0].filetype'],
    ['attachments is not an array', { content: JSON.stringify({ t: 'a' }), attachments: { url: 'u', filetype: 'f' } }, 'attachments'],
  ];

  it.each(rejections)('refuses with 400 when %s', async (_name, requestBody, field) => {
    const res = await post<ErrorBody>(`${webhook.url}/${recipient.botId}`, requestBody);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
    expect(Object.keys(res.body.fields ?? {})).toContain(field);
    expect(emu.channels('0').flatMap((c) => emu.messages(c.id))).toEqual([]);
  });

  it('refuses an unknown token, and a channel webhook token, with 401', async () => {
    const unknown = await http<ErrorBody>(emu.url, 'POST', `/clanwebhooks/not-a-token/${recipient.botId}`, { body: body({ t: 'hi' }) });
    expect(unknown.status).toBe(401);
    const channelHook = emu.createChannelWebhook(emu.clan(clanId).welcome_channel_id);
    const wrongKind = await http<ErrorBody>(emu.url, 'POST', `/clanwebhooks/${channelHook.token}/${recipient.botId}`, { body: body({ t: 'hi' }) });
    expect(wrongKind.status).toBe(401);
    expect(emu.channels('0')).toEqual([]);
  });

  it('after resetWebhookToken the old URL answers 401 and the new one delivers', async () => {
    const oldUrl = webhook.url;
    const reset = emu.resetWebhookToken(webhook.id);
    expect(reset.url).toBe(`${emu.url}/clanwebhooks/${reset.token}`);
    const old = await post<ErrorBody>(`${oldUrl}/${recipient.botId}`, body({ t: 'old' }));
    expect(old.status).toBe(401);
    const fresh = await post<WebhookResult>(`${reset.url}/${recipient.botId}`, body({ t: 'new' }));
    expect(fresh.status).toBe(200);
    expect(emu.messages(fresh.body.channel_id).map((m) => m.content.t)).toEqual(['new']);
  });
});

describe('webhook tokens and the wire log', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('never records a webhook token in emu.wire', async () => {
    emu = await startEmulator();
    const member = emu.createBot({ username: 'member' });
    const clan = emu.createClan({ name: 'Wire', ownerId: member.botId });
    const channelHook = emu.createChannelWebhook(clan.welcome_channel_id);
    const clanHook = emu.createClanWebhook(clan.id);
    const tokens = [channelHook.token, clanHook.token];

    expect((await post(channelHook.url, hook({ t: 'ok' }))).status).toBe(200);
    expect((await post(channelHook.url, hook({ t: 5 }))).status).toBe(400);
    expect((await post(`${clanHook.url}/${member.botId}`, { content: JSON.stringify({ t: 'ok' }) })).status).toBe(200);
    expect((await post(`${clanHook.url}/nobody`, { content: JSON.stringify({ t: 'ok' }) })).status).toBe(404);
    // Tokens in the body and the query must be masked too.
    expect((await post(`${channelHook.url}?token=${channelHook.token}`, { type: 'hook', message: { t: 'q' }, token: channelHook.token })).status).toBe(200);
    const resetChannel = emu.resetWebhookToken(channelHook.id);
    const resetClan = emu.resetWebhookToken(clanHook.id);
    tokens.push(resetChannel.token, resetClan.token);
    expect((await post(channelHook.url, hook({ t: 'old' }))).status).toBe(401);
    expect((await post(resetChannel.url, hook({ t: 'new' }))).status).toBe(200);
    expect((await post(`${resetClan.url}/${member.username}`, { content: JSON.stringify({ t: 'new' }) })).status).toBe(200);

    const entries = emu.wire.entries();
    expect(emu.wire.requests('/webhooks/').length).toBeGreaterThanOrEqual(5);
    expect(emu.wire.requests('/clanwebhooks/').length).toBeGreaterThanOrEqual(3);
    expect(emu.wire.requests('/webhooks/').map((e) => e.path)).toContain(`/webhooks/${clan.welcome_channel_id}/***`);
    const json = JSON.stringify(entries);
    for (const token of tokens) expect(json).not.toContain(token);
  });

  // A token sent in another position (swapped with the channel id, or with the channel id left out) is refused,
  // and must not be kept in the log either.
  it('masks a webhook token sent in the wrong path position', async () => {
    emu = await startEmulator();
    const member = emu.createBot({ username: 'member' });
    const clan = emu.createClan({ name: 'Wire', ownerId: member.botId });
    const channelHook = emu.createChannelWebhook(clan.welcome_channel_id);
    const swapped = await http(emu.url, 'POST', `/webhooks/${channelHook.token}/${clan.welcome_channel_id}`, { body: hook({ t: 'x' }) });
    expect(swapped.status).toBe(401);
    const short = await http(emu.url, 'POST', `/webhooks/${channelHook.token}`, { body: hook({ t: 'x' }) });
    expect(short.status).toBe(404);
    expect(JSON.stringify(emu.wire.entries())).not.toContain(channelHook.token);
  });
});
