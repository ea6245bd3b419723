import { randomBytes } from 'node:crypto';
import { EmulatorError } from '../errors.js';
import type { EmulatorWebhook } from '../types.js';
import type { WebhookRecord } from '../world/records.js';
import * as accounts from './accounts.js';
import type { PlatformContext } from './context.js';

const newWebhookToken = (): string => randomBytes(24).toString('base64url');

/** Creates a channel or clan webhook posting as a new bot user named after it; `token` fixes its token (a seed's). */
export function createWebhook(ctx: PlatformContext, kind: 'channel' | 'clan', targetId: string, name: string, token?: string): WebhookRecord {
  if (token !== undefined && ctx.world.webhooksByToken.has(token)) throw new EmulatorError(409, 'conflict', 'another webhook has this token');
  const bot = accounts.createAccount(ctx, { username: `${name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40)}-${ctx.ids.id().slice(-6)}`, display_name: name }, true);
  const webhook: WebhookRecord = { id: ctx.ids.id(), kind, target_id: targetId, token: token ?? newWebhookToken(), bot_user_id: bot.id, name };
  ctx.world.webhooks.set(webhook.id, webhook);
  ctx.world.webhooksByToken.set(webhook.token, webhook);
  return webhook;
}

/** Issues a new token for a webhook; the old URL stops working. */
export function resetWebhookToken(ctx: PlatformContext, webhookId: string): WebhookRecord {
  const webhook = ctx.world.webhooks.get(webhookId);
  if (!webhook) throw EmulatorError.notFound(`webhook ${webhookId}`);
  ctx.world.webhooksByToken.delete(webhook.token);
  webhook.token = newWebhookToken();
  ctx.world.webhooksByToken.set(webhook.token, webhook);
  return webhook;
}

/** A webhook as the test API shows it: its URL under `baseUrl` (for clan webhooks, the caller appends `/{user}`). */
export function webhookView(webhook: WebhookRecord, baseUrl: string): EmulatorWebhook {
  const url = webhook.kind === 'channel' ? `${baseUrl}/webhooks/${webhook.target_id}/${webhook.token}` : `${baseUrl}/clanwebhooks/${webhook.token}`;
  return { id: webhook.id, kind: webhook.kind, targetId: webhook.target_id, name: webhook.name, url, token: webhook.token, botUserId: webhook.bot_user_id };
}
