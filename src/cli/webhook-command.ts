import { ApiError } from '../errors/api-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ApiWebhookResult } from '../model/api.js';
import { SecretRedactor } from '../util/redact.js';
import { ChannelWebhook } from '../webhooks/channel-webhook.js';
import { ClanWebhook } from '../webhooks/clan-webhook.js';
import type { WebhookMarkdown } from '../webhooks/types.js';
import { parseChannelWebhookUrl, parseClanWebhookUrl } from '../webhooks/url.js';
import { parse, UsageError } from './args.js';
import { createEmulatorWebhook, listEmulatorWebhooks } from './webhook-admin.js';

export const WEBHOOK_USAGE = `Usage: clanstream webhook channel <url> --text "…" [--pre]
       clanstream webhook clan <url> <user> --text "…" [--pre]
       clanstream webhook create <emulator-url> --channel <id or name> [--name N]
       clanstream webhook create <emulator-url> --clan <id or name> [--name N]
       clanstream webhook list <emulator-url>

Posts a message through a webhook and prints the new message's id; or, on a
running emulator, creates a webhook and prints its URL, or lists them.

  channel <url>          {webhook_url}/webhooks/{channelId}/{token}: posts into that channel
  clan <url> <user>      {webhook_url}/clanwebhooks/{token}: a direct message to <user>
                         (a user id or username; the user must be a member of the clan)
  --text T               the message text (required)
  --pre                  show the whole text preformatted (one "pre" range)
  --timeout MS           per-attempt timeout in ms (default 7000)
  --retries N            retries of 429, 5xx and network failures (default 3)
  create <emulator-url>  a new webhook of an emulator (its test API, this machine only):
    --channel C          a channel webhook for channel C (an id, or a name used once)
    --clan C             a clan webhook for clan C (an id, or a name used once)
    --name N             the name its bot user posts under
  list <emulator-url>    every webhook of an emulator with its URL

Exit codes: 0 done, 1 refused by the server (its message is printed), 2 usage error.
Posting never prints the webhook token; create and list print URLs, tokens included.`;

function numberOption(text: string | undefined, name: string, integer: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new UsageError(`--${name} must be a non-negative ${integer ? 'integer' : 'number'}, got "${text}"`);
  }
  return value;
}

/**
 * A redactor of the URL and its token (when it parses), for anything printed: the shared one, so a
 * server echoing the token encoded (base64, base64url, hex, URL-encoded) is covered too. Every length
 * counts: a short token must not be printed either.
 */
function redactorOf(kind: string | undefined, url: string | undefined): SecretRedactor {
  const redactor = new SecretRedactor({ minLength: 1 });
  if (url === undefined) return redactor;
  redactor.add(url);
  try {
    redactor.add(kind === 'clan' ? parseClanWebhookUrl(url).token : parseChannelWebhookUrl(url).token);
  } catch {
    // A URL that does not parse is never repeated by the errors it causes.
  }
  return redactor;
}

/** `clanstream webhook channel|clan …`: sends one message and prints its id. */
export async function runWebhook(argv: string[], out: (line: string) => void): Promise<number> {
  const { values, positionals } = parse(argv, {
    text: { type: 'string', short: 't' },
    pre: { type: 'boolean' },
    timeout: { type: 'string' },
    retries: { type: 'string' },
    channel: { type: 'string' },
    clan: { type: 'string' },
    name: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    out(WEBHOOK_USAGE);
    return 0;
  }
  const [kind, url, user, ...extra] = positionals;
  if (kind === 'create' || kind === 'list') {
    if (url === undefined) throw new UsageError(`missing <emulator-url>, e.g. http://127.0.0.1:7350`);
    if (user !== undefined) throw new UsageError('too many arguments');
    if (kind === 'list') {
      for (const hook of await listEmulatorWebhooks(url)) out(`${hook.kind}\t${hook.name}\t${hook.url}`);
      return 0;
    }
    if ((values.channel === undefined) === (values.clan === undefined)) throw new UsageError('give exactly one of --channel and --clan');
    const hook = await createEmulatorWebhook(url, { ...(values.channel !== undefined ? { channel: values.channel } : { clan: values.clan! }), ...(values.name !== undefined ? { name: values.name } : {}) });
    out(hook.url);
    return 0;
  }
  if (values.channel !== undefined || values.clan !== undefined || values.name !== undefined) throw new UsageError('--channel, --clan and --name go with "create"');
  const redactor = redactorOf(kind, url);
  const redact = (text: string): string => redactor.redact(text);
  try {
    if (kind !== 'channel' && kind !== 'clan') throw new UsageError('the first argument must be "channel", "clan", "create" or "list"');
    if (url === undefined) throw new UsageError(`missing <url> of the ${kind} webhook`);
    if (kind === 'clan' && user === undefined) throw new UsageError('missing <user>: the recipient\'s user id or username');
    if ((kind === 'channel' && user !== undefined) || extra.length > 0) throw new UsageError('too many arguments (quote the text and pass it with --text)');
    const text = values.text;
    if (text === undefined) throw new UsageError('--text is required');
    const timeout = numberOption(values.timeout, 'timeout', false);
    const retries = numberOption(values.retries, 'retries', true);
    const options = { ...(timeout !== undefined ? { timeout } : {}), ...(retries !== undefined ? { retries } : {}) };
    const mk: WebhookMarkdown[] | undefined = values.pre ? [{ type: 'pre', s: 0, e: text.length }] : undefined;

    let result: ApiWebhookResult;
    if (kind === 'channel') {
      result = await new ChannelWebhook(url, options).send({ t: text, ...(mk ? { mk } : {}) });
    } else {
      result = await new ClanWebhook(url, options).send(user!, { content: { t: text, ...(mk ? { mk } : {}) } });
    }
    // The id comes from the server: it is printed through the redactor too.
    out(redact(result.message_id));
    return 0;
  } catch (error) {
    // Input the request never got past is a usage error (2); a refusal by the server is a failure (1).
    if (error instanceof UsageError) throw new UsageError(redact(error.message));
    if (error instanceof ValidationError) throw new UsageError(redact(error.message));
    // No `cause`: the original error's message may carry the webhook token.
    // eslint-disable-next-line preserve-caught-error
    if (error instanceof ApiError) throw new Error(redact(error.message));
    // eslint-disable-next-line preserve-caught-error
    throw new Error(redact(error instanceof Error ? error.message : String(error)));
  }
}
