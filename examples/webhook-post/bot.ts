/**
 * webhook-post: tell people about a deploy through both webhooks, with no
 * bot login at all. A channel webhook posts into one channel
 * (`…/webhooks/{channelId}/{token}`); a clan webhook delivers a direct
 * message to any member of its clan (`…/clanwebhooks/{token}` + `/{user}`).
 * Typical callers are CI jobs and cron scripts.
 */
import { EMarkdownType, type ApiWebhookResult, type ChannelWebhook, type ChannelWebhookMessage, type ClanWebhook, type ClanWebhookMessage } from '../../src/index.js';

export interface DeployReport {
  project: string;
  version: string;
  ok: boolean;
  /** Where to read more (a CI page). */
  url: string;
  /** Username of who deployed: mentioned in the channel, and sent a DM. */
  by: string;
}

/** `{s, e}` of `part` inside `text` (UTF-16 indices, as the platform counts). */
function rangeOf(text: string, part: string): { s: number; e: number } {
  const s = text.indexOf(part);
  if (s < 0) throw new Error(`"${part}" is not in the text`);
  return { s, e: s + part.length };
}

/** The channel post: bold title, a mention of who deployed, and the link. */
export function channelPost(report: DeployReport): ChannelWebhookMessage {
  const title = `${report.project} ${report.version}`;
  const t = `${report.ok ? '✅' : '❌'} ${title} ${report.ok ? 'deployed' : 'failed to deploy'} by @${report.by} · ${report.url}`;
  return {
    t,
    mk: [
      { type: EMarkdownType.BOLD, ...rangeOf(t, title) },
      { type: EMarkdownType.LINK, ...rangeOf(t, report.url) },
    ],
    // A mention gives exactly one of username and user_id.
    mentions: [{ username: report.by, ...rangeOf(t, `@${report.by}`) }],
  };
}

/** The direct message: what happened, with the details preformatted. */
export function directMessage(report: DeployReport): ClanWebhookMessage {
  const details = `project: ${report.project}\nversion: ${report.version}\nstatus:  ${report.ok ? 'ok' : 'failed'}`;
  const t = `Your deploy ${report.ok ? 'went out' : 'failed'}.\n${details}\n${report.url}`;
  return { content: { t, mk: [{ type: EMarkdownType.PRE, ...rangeOf(t, details) }, { type: EMarkdownType.LINK, ...rangeOf(t, report.url) }] } };
}

/**
 * Posts the report in the channel and DMs the person who deployed. Both
 * clients check the message before sending (a ValidationError names the
 * field) and retry 429s and 5xx on their own; a refusal is an ApiError.
 */
export async function announceDeploy(hooks: { channel: ChannelWebhook; clan: ClanWebhook }, report: DeployReport): Promise<{ post: ApiWebhookResult; dm: ApiWebhookResult }> {
  // Independent requests: send both at once.
  const [post, dm] = await Promise.all([hooks.channel.send(channelPost(report)), hooks.clan.send(report.by, directMessage(report))]);
  return { post, dm };
}
