/**
 * ChannelWebhook against the emulator: delivery to a logged-in bot, every
 * client-side rule refused before anything is sent, typed errors for
 * refusals, retries of 503 and 429, and the token kept out of every error.
 */
import { inspect } from 'node:util';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, Events, ValidationError, type ServiceClient } from '../../src/index.js';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount, type EmulatorWebhook } from '../../src/emulator/index.js';
import { ChannelWebhook, CHANNEL_WEBHOOK_ROUTE, type ChannelWebhookMessage, type WebhookClientOptions } from '../../src/webhooks/index.js';
import { clientFor } from '../helpers/client.js';
import { everythingSaid, rejection } from '../helpers/outcomes.js';

/** Fast, deterministic retries for tests. */
const FAST: WebhookClientOptions = { backoff: { baseMs: 1, capMs: 2 }, random: () => 0 };

describe('ChannelWebhook against the emulator', () => {
  let emu: Emulator;
  let bot: BotCredentials;
  let alice: EmulatorAccount;
  let clanId: string;
  let channelId: string;
  let webhook: EmulatorWebhook;
  let client: ServiceClient | undefined;

  beforeEach(async () => {
    emu = await startEmulator();
    bot = emu.createBot({ username: 'watcher' });
    alice = emu.createUser({ username: 'alice' });
    clanId = emu.createClan({ name: 'Hooks', ownerId: bot.botId }).id;
    emu.addClanMember(clanId, alice.id);
    channelId = emu.createChannel({ clanId, name: 'deploys' }).id;
    webhook = emu.createChannelWebhook(channelId, { name: 'CI' });
  });

  afterEach(async () => {
    client?.closeSocket();
    client = undefined;
    await emu.close();
  });

  it('posts into the channel: returns {message_id, channel_id}, stores it, and a logged-in bot receives it as channel_message', async () => {
    client = clientFor(emu, bot);
    await client.login();
    const hook = new ChannelWebhook(webhook.url, FAST);
    const t = 'Build ok 🎉 @alice see #deploys';
    const message: ChannelWebhookMessage = {
      t,
      mk: [{ type: 'pre', s: 0, e: 8 }],
      mentions: [{ username: 'alice', s: t.indexOf('@'), e: t.indexOf('@') + 6 }],
      hg: [{ channelId, s: t.indexOf('#'), e: t.length }],
      images: [{ fn: 'graph.png', sz: 2048, url: 'https://cdn.example.test/graph.png', ft: 'image/png', w: 640, h: 480 }],
    };
    const received = firstValueFrom(client.stream(Events.ChannelMessage).pipe(filter((m) => m.channel_id === channelId)));

    const result = await hook.send(message);

    expect(Object.keys(result).sort()).toEqual(['channel_id', 'message_id']);
    expect(result.channel_id).toBe(channelId);
    const event = await received;
    expect(event).toMatchObject({
      message_id: result.message_id,
      channel_id: channelId,
      clan_id: clanId,
      sender_id: webhook.botUserId,
      code: 0,
      content: { t, mk: message.mk, hg: message.hg },
      mentions: message.mentions,
    });
    expect(event.attachments).toEqual([{ url: 'https://cdn.example.test/graph.png', filetype: 'image/png', filename: 'graph.png', size: 2048, width: 640, height: 480 }]);
    expect(emu.messages(channelId).map((m) => m.message_id)).toEqual([result.message_id]);
    expect(emu.wire.requests('/webhooks/').map((r) => r.body)).toEqual([{ type: 'hook', message }]);
  });

  it('sends the documented body {type: "hook", message} with Content-Type application/json', async () => {
    const seen: Array<{ contentType: string | null; body: unknown }> = [];
    const fetcher: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({ contentType: headers.get('content-type'), body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
      return globalThis.fetch(input, init);
    };
    const result = await new ChannelWebhook(webhook.url, { fetch: fetcher }).send({ t: 'hello' });
    expect(seen).toEqual([{ contentType: expect.stringMatching(/^application\/json/), body: { type: 'hook', message: { t: 'hello' } } }]);
    expect(emu.messages(channelId).map((m) => m.content)).toEqual([{ t: 'hello' }]);
    expect(result.channel_id).toBe(channelId);
  });

  const image = { fn: 'a.png', sz: 1, url: 'https://cdn.example.test/a.png', ft: 'image/png', w: 1, h: 1 };
  const refusals: Array<[string, unknown, string]> = [
    ['the message is not an object', 'hello', 'message'],
    ['t is missing', {}, 'message.t'],
    ['t is not a string', { t: 5 }, 'message.t'],
    ['t is over 4000 characters', { t: 'x'.repeat(4001) }, 'message.t'],
    ['t is empty', { t: '' }, 'message.t'],
    ['the content JSON would pass 4000 characters', { t: 'x'.repeat(3993) }, 'message.t'],
    ['an mk has no type', { t: 'abc', mk: [{ s: 0, e: 1 }] }, 'message.mk[0].type'],
    ['an mk has no s', { t: 'abc', mk: [{ type: 'pre', e: 1 }] }, 'message.mk[0].s'],
    ['an mk has no e', { t: 'abc', mk: [{ type: 'pre', s: 0 }] }, 'message.mk[0].e'],
    ['an mk ends beyond t (UTF-16)', { t: '😀', mk: [{ type: 'pre', s: 0, e: 3 }] }, 'message.mk[0].e'],
    ['an mk has s > e', { t: 'abc', mk: [{ type: 'lk', s: 2, e: 1 }] }, 'message.mk[0].e'],
    ['mk is not an array', { t: 'abc', mk: { type: 'pre', s: 0, e: 1 } }, 'message.mk'],
    ['a mention gives both username and user_id', { t: '@a', mentions: [{ username: 'a', user_id: '1', s: 0, e: 2 }] }, 'message.mentions[0]'],
    ['a mention gives neither', { t: '@a', mentions: [{ s: 0, e: 2 }] }, 'message.mentions[0]'],
    ['a mention has an empty user_id', { t: '@a', mentions: [{ user_id: '', s: 0, e: 2 }] }, 'message.mentions[0].user_id'],
    ['a mention range is fractional', { t: '@a', mentions: [{ username: 'a', s: 0.5, e: 2 }] }, 'message.mentions[0].s'],
    ['more than 100 mentions', { t: '@a', mentions: Array.from({ length: 101 }, () => ({ username: 'a', s: 0, e: 2 })) }, 'message.mentions'],
    ['an image has no url', { t: 'x', images: [{ ...image, url: undefined }] }, 'message.images[0].url'],
    ['an image size is negative', { t: 'x', images: [{ ...image, sz: -1 }] }, 'message.images[0].sz'],
    ['more than 20 images', { t: 'x', images: Array.from({ length: 21 }, () => image) }, 'message.images'],
    ['an hg has no channelId', { t: '#a', hg: [{ s: 0, e: 2 }] }, 'message.hg[0].channelId'],
    ['an hg ends beyond t', { t: '#a', hg: [{ channelId: '1', s: 0, e: 3 }] }, 'message.hg[0].e'],
  ];

  it.each(refusals)('refuses before sending when %s', async (_name, message, field) => {
    const hook = new ChannelWebhook(webhook.url, FAST);
    const error = await rejection(hook.send(message as ChannelWebhookMessage));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toContain(field);
    expect((error as ValidationError).message).toContain(field);
    expect(everythingSaid(error)).not.toContain(webhook.token);
    expect(() => hook.send$(message as ChannelWebhookMessage)).toThrow(ValidationError);
    expect(emu.wire.requests('/webhooks/')).toEqual([]);
    expect(emu.messages(channelId)).toEqual([]);
  });

  it('accepts the longest plain text the platform stores (3992 characters: {"t":"…"} is 4000)', async () => {
    await new ChannelWebhook(webhook.url, FAST).send({ t: 'x'.repeat(3992) });
    expect(emu.messages(channelId)).toHaveLength(1);
  });

  it('refuses an empty text even with an image (t is required), before sending', async () => {
    const error = await rejection(new ChannelWebhook(webhook.url, FAST).send({ t: '', images: [image] }));
    expect((error as ValidationError).field).toBe('message.t');
    expect(emu.wire.requests('/webhooks/')).toEqual([]);
  });

  it('after a token reset the old client gets a typed 401 ApiError without the token; a client of the new URL works', async () => {
    const old = new ChannelWebhook(webhook.url, FAST);
    await old.send({ t: 'before' });
    const reset = emu.resetWebhookToken(webhook.id);

    const error = await rejection(old.send({ t: 'after' }));
    expect(error).toBeInstanceOf(ApiError);
    const apiError = error as ApiError;
    expect(apiError.status).toBe(401);
    expect(apiError.code).toBe('unauthenticated');
    expect(apiError.route).toBe(CHANNEL_WEBHOOK_ROUTE);
    expect(apiError.message).toContain('unknown or reset webhook token');
    expect(everythingSaid(apiError)).not.toContain(webhook.token);
    expect(everythingSaid(apiError)).not.toContain(webhook.url);
    // Not retried: one request for the refused send.
    expect(emu.wire.requests('/webhooks/').filter((r) => r.status === 401)).toHaveLength(1);

    await new ChannelWebhook(reset.url, FAST).send({ t: 'fresh' });
    expect(emu.messages(channelId).map((m) => m.content.t)).toEqual(['before', 'fresh']);
  });

  it('reports a deleted channel as a 404 ApiError with the server message', async () => {
    emu.deleteChannel(channelId);
    const error = await rejection(new ChannelWebhook(webhook.url, FAST).send({ t: 'anyone?' }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).code).toBe('not_found');
    expect((error as ApiError).message).toContain(`channel ${channelId} not found`);
    expect(everythingSaid(error)).not.toContain(webhook.token);
  });

  it('retries 503 until it succeeds (bounded), then delivers once', async () => {
    emu.failHttp({ status: 503, count: 2, pathPrefix: '/webhooks/' });
    const result = await new ChannelWebhook(webhook.url, { ...FAST, retries: 3 }).send({ t: 'eventually' });
    expect(emu.wire.requests('/webhooks/').map((r) => r.status)).toEqual([503, 503, 200]);
    expect(emu.messages(channelId).map((m) => m.message_id)).toEqual([result.message_id]);
  });

  it('retries 429 after its Retry-After', async () => {
    emu.failHttp({ status: 429, count: 1, pathPrefix: '/webhooks/', retryAfterSeconds: 0 });
    await new ChannelWebhook(webhook.url, FAST).send({ t: 'slow down' });
    expect(emu.wire.requests('/webhooks/').map((r) => r.status)).toEqual([429, 200]);
    expect(emu.messages(channelId)).toHaveLength(1);
  });

  it('gives up after the retry budget with a typed 503 ApiError without the token', async () => {
    emu.failHttp({ status: 503, count: 10, pathPrefix: '/webhooks/' });
    const error = await rejection(new ChannelWebhook(webhook.url, { ...FAST, retries: 2 }).send({ t: 'never' }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect(everythingSaid(error)).not.toContain(webhook.token);
    expect(emu.wire.requests('/webhooks/').map((r) => r.status)).toEqual([503, 503, 503]);
    expect(emu.messages(channelId)).toEqual([]);
  });

  it('fails at once when Retry-After is longer than maxRetryAfterMs', async () => {
    emu.failHttp({ status: 429, count: 1, pathPrefix: '/webhooks/', retryAfterSeconds: 120 });
    const error = await rejection(new ChannelWebhook(webhook.url, { ...FAST, maxRetryAfterMs: 1000 }).send({ t: 'later' }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).retryAfterMs).toBe(120_000);
    expect(emu.wire.requests('/webhooks/')).toHaveLength(1);
  });

  it('keeps the token out of log lines, toJSON, inspect and String', async () => {
    const lines: string[] = [];
    const logger = { debug: (m: string) => lines.push(m), info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) };
    const hook = new ChannelWebhook(webhook.url, { ...FAST, logger });
    await hook.send({ t: 'logged' });
    emu.resetWebhookToken(webhook.id);
    await rejection(hook.send({ t: 'refused' }));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.join('\n')).toContain(CHANNEL_WEBHOOK_ROUTE);
    const shown = [...lines, JSON.stringify(hook), inspect(hook), String(hook), JSON.stringify(Object.entries(hook))].join('\n');
    expect(shown).not.toContain(webhook.token);
    expect(JSON.parse(JSON.stringify(hook))).toEqual({ kind: 'channel_webhook', baseUrl: emu.url, channelId });
  });
});
