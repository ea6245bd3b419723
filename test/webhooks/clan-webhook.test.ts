/**
 * ClanWebhook against the emulator: DMs into a member's inbox (a logged-in
 * bot receives them as channel_message), JSON-encoded content, refusals
 * before sending, non-members and unknown users, token resets, retries.
 */
import { inspect } from 'node:util';
import { filter, firstValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, DM_CLAN_ID, Events, ValidationError, type ServiceClient } from '../../src/index.js';
import { startEmulator, type BotCredentials, type Emulator, type EmulatorAccount, type EmulatorWebhook } from '../../src/emulator/index.js';
import { ClanWebhook, CLAN_WEBHOOK_ROUTE, type ClanWebhookMessage, type WebhookClientOptions } from '../../src/webhooks/index.js';
import { clientFor } from '../helpers/client.js';
import { everythingSaid, rejection } from '../helpers/outcomes.js';

const FAST: WebhookClientOptions = { backoff: { baseMs: 1, capMs: 2 }, random: () => 0 };

describe('ClanWebhook against the emulator', () => {
  let emu: Emulator;
  let bot: BotCredentials;
  let outsider: EmulatorAccount;
  let clanId: string;
  let webhook: EmulatorWebhook;
  let client: ServiceClient | undefined;

  beforeEach(async () => {
    emu = await startEmulator();
    const owner = emu.createUser({ username: 'owner' });
    bot = emu.createBot({ username: 'inbox' });
    outsider = emu.createUser({ username: 'outsider' });
    clanId = emu.createClan({ name: 'Clan', ownerId: owner.id }).id;
    emu.addClanMember(clanId, bot.botId);
    webhook = emu.createClanWebhook(clanId, { name: 'Reports' });
  });

  afterEach(async () => {
    client?.closeSocket();
    client = undefined;
    await emu.close();
  });

  const dmMessages = (): string[] => emu.channels(DM_CLAN_ID).flatMap((c) => emu.messages(c.id).map((m) => m.content.t ?? ''));

  it('delivers into the member\'s DM inbox; a logged-in bot receives it as channel_message (clan "0")', async () => {
    client = clientFor(emu, bot);
    await client.login();
    const received = firstValueFrom(client.stream(Events.ChannelMessage).pipe(filter((m) => m.sender_id === webhook.botUserId)));
    const t = 'Your report is ready: https://example.test/r/1';
    const mk = [{ type: 'lk', s: t.indexOf('https'), e: t.length }];
    const attachments = [{ url: 'https://cdn.example.test/report.pdf', filetype: 'application/pdf' }];

    const result = await new ClanWebhook(webhook.url, FAST).send(bot.botId, { content: { t, mk }, attachments });

    const event = await received;
    expect(event).toMatchObject({ message_id: result.message_id, channel_id: result.channel_id, clan_id: DM_CLAN_ID, mode: 4, code: 0, content: { t, mk } });
    expect(event.attachments).toEqual(attachments);
    expect(emu.channel(result.channel_id).member_ids.sort()).toEqual([bot.botId, webhook.botUserId].sort());
  });

  it('JSON-encodes content on the wire and addresses the user by username too (same DM channel)', async () => {
    const hook = new ClanWebhook(webhook.url, FAST);
    const first = await hook.send(bot.botId, { content: { t: 'one' } });
    const second = await hook.send('inbox', { content: { t: 'two', mk: [{ type: 'pre', s: 0, e: 3 }] } });
    expect(second.channel_id).toBe(first.channel_id);
    const bodies = emu.wire.requests('/clanwebhooks/').map((r) => r.body);
    expect(bodies).toEqual([{ content: JSON.stringify({ t: 'one' }) }, { content: JSON.stringify({ t: 'two', mk: [{ type: 'pre', s: 0, e: 3 }] }) }]);
    expect(emu.messages(first.channel_id).map((m) => m.content)).toEqual([{ t: 'one' }, { t: 'two', mk: [{ type: 'pre', s: 0, e: 3 }] }]);
  });

  it('encodes a user identifier with reserved characters as one path segment', async () => {
    const error = await rejection(new ClanWebhook(webhook.url, FAST).send('a/b?c', { content: { t: 'hi' } }));
    expect((error as ApiError).status).toBe(404);
    expect((error as ApiError).message).toContain('user a/b?c not found');
  });

  it('refuses a recipient who is not a clan member: typed 403 with the server message, token absent', async () => {
    const error = await rejection(new ClanWebhook(webhook.url, FAST).send(outsider.username, { content: { t: 'hi' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).code).toBe('forbidden');
    expect((error as ApiError).route).toBe(CLAN_WEBHOOK_ROUTE);
    expect((error as ApiError).message).toContain("the recipient is not a member of the webhook's clan");
    expect(everythingSaid(error)).not.toContain(webhook.token);
    expect(emu.channels(DM_CLAN_ID)).toEqual([]);
    // A 4xx is not retried.
    expect(emu.wire.requests('/clanwebhooks/')).toHaveLength(1);
  });

  it('refuses an unknown user with a typed 404', async () => {
    const error = await rejection(new ClanWebhook(webhook.url, FAST).send('nobody', { content: { t: 'hi' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('not_found');
  });

  const refusals: Array<[string, string, unknown, string]> = [
    ['the user is empty', '', { content: { t: 'hi' } }, 'user'],
    ['the user has surrounding spaces', ' inbox ', { content: { t: 'hi' } }, 'user'],
    ['content is missing', 'inbox', {}, 'content'],
    ['content is a string (it is encoded for you)', 'inbox', { content: '{"t":"hi"}' }, 'content'],
    ['t is missing', 'inbox', { content: {} }, 'content.t'],
    ['t is empty', 'inbox', { content: { t: '' } }, 'content.t'],
    ['t is too long for the message', 'inbox', { content: { t: 'x'.repeat(3993) } }, 'content.t'],
    ['an mk ends beyond t', 'inbox', { content: { t: '你好', mk: [{ type: 'pre', s: 0, e: 3 }] } }, 'content.mk[0].e'],
    ['an mk has no type', 'inbox', { content: { t: 'abc', mk: [{ s: 0, e: 1 }] } }, 'content.mk[0].type'],
    ['an attachment has no url', 'inbox', { content: { t: 'a' }, attachments: [{ filetype: 'image/png' }] }, 'attachments[0].url'],
    ['an attachment has no filetype', 'inbox', { content: { t: 'a' }, attachments: [{ url: 'https://cdn.example.test/a' }] }, 'attachments[0].filetype'],
    ['more than 20 attachments', 'inbox', { content: { t: 'a' }, attachments: Array.from({ length: 21 }, () => ({ url: 'https://cdn.example.test/a', filetype: 'image/png' })) }, 'attachments'],
  ];

  it.each(refusals)('refuses before sending when %s', async (_name, user, message, field) => {
    const hook = new ClanWebhook(webhook.url, FAST);
    const error = await rejection(hook.send(user, message as ClanWebhookMessage));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toContain(field);
    expect(everythingSaid(error)).not.toContain(webhook.token);
    expect(emu.wire.requests('/clanwebhooks/')).toEqual([]);
  });

  it('after a token reset the old client gets a typed 401; the new URL delivers', async () => {
    const old = new ClanWebhook(webhook.url, FAST);
    const reset = emu.resetWebhookToken(webhook.id);
    const error = await rejection(old.send(bot.botId, { content: { t: 'old' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).code).toBe('unauthenticated');
    expect(everythingSaid(error)).not.toContain(webhook.token);
    await new ClanWebhook(reset.url, FAST).send(bot.botId, { content: { t: 'new' } });
    expect(dmMessages()).toEqual(['new']);
  });

  it('retries 503 and 429, then delivers once', async () => {
    emu.failHttp({ status: 503, count: 1, pathPrefix: '/clanwebhooks/' });
    emu.failHttp({ status: 429, count: 1, pathPrefix: '/clanwebhooks/', retryAfterSeconds: 0 });
    await new ClanWebhook(webhook.url, FAST).send(bot.botId, { content: { t: 'persist' } });
    expect(emu.wire.requests('/clanwebhooks/').map((r) => r.status)).toEqual([503, 429, 200]);
    expect(dmMessages()).toEqual(['persist']);
  });

  it('never shows the token in toJSON, inspect or String', () => {
    const hook = new ClanWebhook(webhook.url);
    const shown = [JSON.stringify(hook), inspect(hook), String(hook)].join('\n');
    expect(shown).not.toContain(webhook.token);
    expect(JSON.parse(JSON.stringify(hook))).toEqual({ kind: 'clan_webhook', baseUrl: emu.url });
  });
});
