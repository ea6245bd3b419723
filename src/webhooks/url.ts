import { ValidationError } from '../errors/validation-error.js';

/** A channel webhook URL taken apart: `{baseUrl}/webhooks/{channelId}/{token}`. */
export interface ChannelWebhookTarget {
  /** `{webhook_url}`: everything before `/webhooks/`, without a trailing slash. Holds no secret. */
  baseUrl: string;
  channelId: string;
  /** The secret path segment, exactly as it appeared in the URL. */
  token: string;
}

/** A clan webhook URL taken apart: `{baseUrl}/clanwebhooks/{token}`. */
export interface ClanWebhookTarget {
  baseUrl: string;
  token: string;
}

type Shape = 'channel' | 'clan';

const EXPECTED: Record<Shape, string> = {
  channel: '{webhook_url}/webhooks/{channelId}/{token}',
  clan: '{webhook_url}/clanwebhooks/{token}',
};

/** One error for every malformed URL; it never repeats the URL, which carries the token. */
function invalid(shape: Shape, problem: string): ValidationError {
  return new ValidationError([{ path: 'url', message: `${problem}; expected ${EXPECTED[shape]}`, code: 'invalid' }], `${shape} webhook URL`);
}

/** Parses the URL and returns its origin-relative path segments (without empty trailing ones). */
function segmentsOf(url: unknown, shape: Shape): { origin: string; segments: string[] } {
  if (typeof url !== 'string' || url.trim() === '') throw invalid(shape, 'is required and must be a non-empty string');
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw invalid(shape, 'is not a valid absolute URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid(shape, 'must use http or https');
  if (parsed.username !== '' || parsed.password !== '') throw invalid(shape, 'must not contain credentials');
  if (parsed.search !== '' || parsed.hash !== '') throw invalid(shape, 'must not have a query or a fragment');
  const segments = parsed.pathname.split('/').slice(1);
  // One trailing slash, as left by a copy from a browser, is tolerated.
  if (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  if (segments.some((s) => s === '')) throw invalid(shape, 'has an empty path segment');
  return { origin: parsed.origin, segments };
}

function baseOf(origin: string, prefix: string[]): string {
  return prefix.length === 0 ? origin : `${origin}/${prefix.join('/')}`;
}

/**
 * Takes a channel webhook URL (`{webhook_url}/webhooks/{channelId}/{token}`) apart. A URL of another shape is a
 * {@link ValidationError} on `url` whose message does not contain the URL.
 */
export function parseChannelWebhookUrl(url: string): ChannelWebhookTarget {
  const { origin, segments } = segmentsOf(url, 'channel');
  const n = segments.length;
  if (n < 3 || segments[n - 3] !== 'webhooks') throw invalid('channel', 'is not a channel webhook URL');
  return { baseUrl: baseOf(origin, segments.slice(0, n - 3)), channelId: decodeSegment(segments[n - 2]!, 'channel'), token: segments[n - 1]! };
}

/**
 * Takes a clan webhook base URL (`{webhook_url}/clanwebhooks/{token}`) apart: the URL as copied from the
 * clan settings, without the user identifier (that is given per message).
 */
export function parseClanWebhookUrl(url: string): ClanWebhookTarget {
  const { origin, segments } = segmentsOf(url, 'clan');
  const n = segments.length;
  if (n >= 3 && segments[n - 3] === 'clanwebhooks') throw invalid('clan', 'already ends with a user identifier; give the base URL and pass the user to send()');
  if (n < 2 || segments[n - 2] !== 'clanwebhooks') throw invalid('clan', 'is not a clan webhook URL');
  return { baseUrl: baseOf(origin, segments.slice(0, n - 2)), token: segments[n - 1]! };
}

function decodeSegment(segment: string, shape: Shape): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw invalid(shape, 'has a malformed percent-encoding in the channel id');
  }
}
