import { lastValueFrom, type Observable } from 'rxjs';
import { ValidationError } from '../errors/validation-error.js';
import type { ApiWebhookResult } from '../model/api.js';
import { INSPECT } from '../util/inspect.js';
import { resolveWebhookOptions, type WebhookClientOptions } from './options.js';
import { WebhookPoster } from './poster.js';
import { checkClanWebhookMessage, checkUserIdentifier } from './rules.js';
import type { ClanWebhookBody, ClanWebhookMessage } from './types.js';
import { parseClanWebhookUrl } from './url.js';
import { promised } from '../util/promised.js';

/** The route every clan webhook error and log line names (never the URL). */
export const CLAN_WEBHOOK_ROUTE = 'POST /clanwebhooks/{token}/{userIdentifier}';

/**
 * Delivers direct messages to clan members through a clan webhook
 * (docs/PROTOCOL.md §7.2). Constructed from the base URL copied from the clan
 * settings (`{webhook_url}/clanwebhooks/{token}`); the recipient, a username
 * or a user id, is given per message.
 *
 * `content` is JSON-encoded on the wire as the platform requires. The
 * recipient must be a member of the clan (else an ApiError 403 `forbidden`);
 * an unknown user is a 404. Rules, retries and redaction as {@link ChannelWebhook}.
 *
 * @example
 * ```ts
 * import { ClanWebhook } from 'clanstream';
 *
 * const hook = new ClanWebhook(process.env.CLAN_WEBHOOK_URL!);
 * await hook.send('alice', { content: { t: 'Your report is ready' } });
 * ```
 */
export class ClanWebhook {
  // Declared, not defined: the constructor assigns the public fields in this order (not set to undefined first).
  /** `{webhook_url}`: the URL up to `/clanwebhooks/`. */
  declare readonly baseUrl: string;
  readonly #poster: WebhookPoster;
  readonly #token: string;

  /** @throws ValidationError when `url` is not `{webhook_url}/clanwebhooks/{token}` or an option is invalid. */
  constructor(url: string, options: WebhookClientOptions = {}) {
    const target = parseClanWebhookUrl(url);
    this.baseUrl = target.baseUrl;
    this.#token = target.token;
    this.#poster = new WebhookPoster(target.baseUrl, target.token, resolveWebhookOptions(options));
  }

  /**
   * Sends a DM to the user with this id or username; resolves with the
   * message id and the DM channel id. Rejects with a ValidationError (nothing
   * sent) or an ApiError.
   */
  send(userIdOrUsername: string, message: ClanWebhookMessage): Promise<ApiWebhookResult> {
    return promised(() => {
      return lastValueFrom(this.send$(userIdOrUsername, message));
    });
  }

  /** {@link ClanWebhook.send} as a cold Observable; checks at once (throwing a ValidationError), posts on subscription. */
  send$(userIdOrUsername: string, message: ClanWebhookMessage): Observable<ApiWebhookResult> {
    const issues = [...checkUserIdentifier(userIdOrUsername), ...checkClanWebhookMessage(message)];
    if (issues.length > 0) throw new ValidationError(issues, 'clan webhook message');
    const body: ClanWebhookBody = {
      content: JSON.stringify(message.content),
      ...(message.attachments !== undefined ? { attachments: message.attachments } : {}),
    };
    return this.#poster.post$({ route: CLAN_WEBHOOK_ROUTE, path: `/clanwebhooks/${this.#token}/${encodeURIComponent(userIdOrUsername)}`, body });
  }

  /** A secret-free description. */
  toJSON(): Record<string, unknown> {
    return { kind: 'clan_webhook', baseUrl: this.baseUrl };
  }

  /** The class name and the `toJSON()` description (its base URL), never the token. */
  toString(): string {
    return `ClanWebhook ${JSON.stringify(this.toJSON())}`;
  }

  /** What `util.inspect` and `console.log` show: the same as `toString()`. */
  [INSPECT](): string {
    return this.toString();
  }
}
