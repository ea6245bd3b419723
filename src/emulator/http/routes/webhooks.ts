import type { ApiWebhookResult } from '../../../model/api.js';
import type { ApiMessageAttachment, ApiMessageMention } from '../../../model/content.js';
import { EVERYONE_USER_ID } from '../../../model/enums.js';
import type { ChannelWebhookMessage, ClanWebhookAttachment, ClanWebhookContent } from '../../../webhooks/types.js';
import { validateChannelWebhookBody, validateClanWebhookBody, WEBHOOK_LIMITS } from '../../../webhooks/validate.js';
import { EmulatorError } from '../../errors.js';
import { ensureDm } from '../../platform/accounts.js';
import { postMessage } from '../../platform/messages.js';
import type { WebhookRecord } from '../../world/records.js';
import type { World } from '../../world/world.js';
import { route, type Route } from '../router.js';

/** The webhook of a token, if it is current and of the right kind. One error for every miss, so tokens cannot be probed. */
function webhookOf(world: World, token: string, kind: WebhookRecord['kind']): WebhookRecord {
  const webhook = world.webhooksByToken.get(token);
  if (!webhook || webhook.kind !== kind) throw EmulatorError.unauthenticated('unknown or reset webhook token');
  return webhook;
}

export const webhookRoutes: Route[] = [
  route(
    'POST',
    '/webhooks/{channelId}/{token}',
    ({ services, params, body }): ApiWebhookResult => {
      const { world } = services.platform;
      const webhook = webhookOf(world, params.token!, 'channel');
      if (webhook.target_id !== params.channelId) throw EmulatorError.unauthenticated('unknown or reset webhook token');
      world.channel(params.channelId);
      const issues = validateChannelWebhookBody(body);
      if (issues.length > 0) throw EmulatorError.fromIssues(issues, 'webhook message');
      const message = (body as { message: ChannelWebhookMessage }).message;
      const mentions: ApiMessageMention[] = (message.mentions ?? []).map((m) =>
        m.user_id !== undefined ? { user_id: m.user_id, s: m.s, e: m.e } : { username: m.username, s: m.s, e: m.e },
      );
      const attachments: ApiMessageAttachment[] = (message.images ?? []).map((img) => ({
        url: img.url,
        filetype: img.ft,
        filename: img.fn,
        size: img.sz,
        width: img.w,
        height: img.h,
      }));
      const record = postMessage(services.platform, {
        senderId: webhook.bot_user_id,
        channelId: params.channelId,
        bypassAccess: true,
        content: { t: message.t, ...(message.mk ? { mk: message.mk } : {}), ...(message.hg ? { hg: message.hg } : {}) },
        mentions,
        attachments,
        ...(mentions.some((m) => m.user_id === EVERYONE_USER_ID || m.username === 'everyone') ? { mention_everyone: true } : {}),
      });
      return { message_id: record.message_id, channel_id: record.channel_id };
    },
    'none',
    false,
    WEBHOOK_LIMITS.maxBodyBytes,
  ),
  route(
    'POST',
    '/clanwebhooks/{token}/{userIdentifier}',
    ({ services, params, body }): ApiWebhookResult => {
      const { world } = services.platform;
      const webhook = webhookOf(world, params.token!, 'clan');
      const recipient = world.userByIdOrName(params.userIdentifier!);
      if (!recipient) throw EmulatorError.notFound(`user ${params.userIdentifier!}`);
      if (!world.isMember(webhook.target_id, recipient.id)) throw EmulatorError.forbidden('the recipient is not a member of the webhook\'s clan');
      const checked = validateClanWebhookBody(body);
      if (!checked.content) throw EmulatorError.fromIssues(checked.issues, 'webhook message');
      const content = checked.content as unknown as ClanWebhookContent;
      const attachments = ((body as { attachments?: ClanWebhookAttachment[] }).attachments ?? []).map((a) => ({ url: a.url, filetype: a.filetype }));
      const dm = ensureDm(services.platform, webhook.bot_user_id, recipient.id);
      const record = postMessage(services.platform, {
        senderId: webhook.bot_user_id,
        channelId: dm.channel_id,
        content: { t: content.t, ...(content.mk ? { mk: content.mk } : {}) },
        attachments,
      });
      return { message_id: record.message_id, channel_id: record.channel_id };
    },
    'none',
    false,
    WEBHOOK_LIMITS.maxBodyBytes,
  ),
];
