import { lastValueFrom, type Observable } from 'rxjs';
import { ValidationError } from '../errors/validation-error.js';
import type { ApiWebhookResult } from '../model/api.js';
import { INSPECT } from '../util/inspect.js';
import { resolveWebhookOptions, type WebhookClientOptions } from './options.js';
import { WebhookPoster } from './poster.js';
import { checkChannelWebhookMessage } from './rules.js';
import type { ChannelWebhookBody, ChannelWebhookMessage } from './types.js';
import { parseChannelWebhookUrl } from './url.js';
import { promised } from '../util/promised.js';

/** The route every channel webhook error and log line names (never the URL). */
export const CHANNEL_WEBHOOK_ROUTE = 'POST /webhooks/{channelId}/{token}';

/**
 * Posts messages into one channel through its webhook: the URL a clan member
 * copies from the channel's integrations settings,
 * `{webhook_url}/webhooks/{channelId}/{token}` (docs/PROTOCOL.md §7.1). The
 * message appears as the webhook's bot user; no bot login is needed.
 *
 * Every rule is checked before anything is sent (a {@link ValidationError}
 * naming the field). A refused request is an {@link ApiError} with the
 * server's status, code and message; 429, 5xx, network errors and timeouts
 * are retried (bounded, honouring `Retry-After`). The token is never part of
 * an error, a log line, `toJSON()` or `inspect`.
 *
 * @example
 * ```ts
 * import { ChannelWebhook } from 'clanstream';
 *
 * const hook = new ChannelWebhook(process.env.WEBHOOK_URL!);
 * // "Build ok" with its first 8 characters preformatted
 * const { message_id } = await hook.send({ t: 'Build ok', mk: [{ type: 'pre', s: 0, e: 8 }] });
 * ```
 */
export class ChannelWebhook {
  // Declared, not defined: the constructor assigns the public fields in this order (not set to undefined first).
  /** `{webhook_url}`: the URL up to `/webhooks/`. */
  declare readonly baseUrl: string;
  /** The channel the webhook posts into. */
  declare readonly channelId: string;
  readonly #poster: WebhookPoster;
  readonly #path: string;

  /** @throws ValidationError when `url` is not `{webhook_url}/webhooks/{channelId}/{token}` or an option is invalid. */
  constructor(url: string, options: WebhookClientOptions = {}) {
    const target = parseChannelWebhookUrl(url);
    this.baseUrl = target.baseUrl;
    this.channelId = target.channelId;
    this.#path = `/webhooks/${encodeURIComponent(target.channelId)}/${target.token}`;
    this.#poster = new WebhookPoster(target.baseUrl, target.token, resolveWebhookOptions(options));
  }

  /**
   * Posts `{type: "hook", message}`; resolves with the new message's id and
   * channel. Rejects with a ValidationError (nothing sent) or an ApiError.
   */
  send(message: ChannelWebhookMessage): Promise<ApiWebhookResult> {
    return promised(() => lastValueFrom(this.send$(message)));
  }

  /**
   * {@link ChannelWebhook.send} as a cold Observable: checks the message at once (throwing a
   * ValidationError), then posts on each subscription; unsubscribing aborts.
   */
  send$(message: ChannelWebhookMessage): Observable<ApiWebhookResult> {
    const issues = checkChannelWebhookMessage(message);
    if (issues.length > 0) throw new ValidationError(issues, 'channel webhook message');
    const body: ChannelWebhookBody = { type: 'hook', message };
    return this.#poster.post$({ route: CHANNEL_WEBHOOK_ROUTE, path: this.#path, body });
  }

  /** A secret-free description. */
  toJSON(): Record<string, unknown> {
    return { kind: 'channel_webhook', baseUrl: this.baseUrl, channelId: this.channelId };
  }

  /** The class name and the `toJSON()` description (its base URL and channel id), never the token. */
  toString(): string {
    return `ChannelWebhook ${JSON.stringify(this.toJSON())}`;
  }

  /** What `util.inspect` and `console.log` show: the same as `toString()`. */
  [INSPECT](): string {
    return this.toString();
  }
}
