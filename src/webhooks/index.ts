/** Channel and clan webhook clients (docs/PROTOCOL.md §7): browser-safe. */
export { ChannelWebhook, CHANNEL_WEBHOOK_ROUTE } from './channel-webhook.js';
export { ClanWebhook, CLAN_WEBHOOK_ROUTE } from './clan-webhook.js';
export { WEBHOOK_CLIENT_DEFAULTS, type WebhookClientOptions } from './options.js';
export { channelWebhookMessage, clanWebhookContent, type BuiltOrBuilder } from './from-builder.js';
export { checkChannelWebhookMessage, checkClanWebhookMessage, checkUserIdentifier } from './rules.js';
export {
  validateChannelWebhookBody,
  validateChannelWebhookMessage,
  validateClanWebhookBody,
  validateClanWebhookContent,
  validateClanWebhookMessage,
  WEBHOOK_LIMITS,
} from './validate.js';
export type * from './types.js';
export type { ApiWebhookResult } from '../model/api.js';
