/**
 * The one check in front of every route that hands out credentials or acts
 * as anyone: the web console (its page, accounts and API) and the test API
 * (`/emulator/…`). Reaching them from this machine is not enough, because a
 * browser on this machine carries requests for any page it shows:
 *
 * - a page of another origin can POST to them (a `text/plain` no-cors request
 *   needs no preflight), so a foreign `Origin` or `Sec-Fetch-Site` is refused
 *   and a body must be `application/json` (which a page of another origin can
 *   only send after a preflight that these routes never grant);
 * - DNS rebinding points a name the attacker owns at 127.0.0.1, so the
 *   request comes from loopback but addresses that name: the `Host` must be a
 *   name only this machine answers to (`localhost`, a loopback address, or
 *   the emulator's public URL), or an IP address when remote clients are let in.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for 127.0.0.0/8 and ::1, in any spelling (IPv4-mapped IPv6 included). */
export function isLoopbackAddress(address: string | undefined): boolean {
  const family = address ? isIP(address) : 0;
  return family !== 0 && LOOPBACK.check(address!, family === 6 ? 'ipv6' : 'ipv4');
}

/** True when binding `host` exposes the emulator only to this machine (`localhost`, 127.x, ::1). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host.replace(/^\[|\]$/g, ''));
}

/** Who the guarded routes answer. */
export interface LocalAccessPolicy {
  /** Clients on other machines too (the console's `allowRemoteConsole`); the test API never. */
  readonly allowRemote: boolean;
  /** Origins the emulator is reached at besides its own address (its public URL, a proxy in front of it). */
  readonly knownOrigins: () => readonly string[];
}

/** Why a request is refused: the status and a line for the caller (never a secret, never the header's text). */
export interface LocalAccessRefusal {
  readonly status: 403 | 415;
  readonly reason: 'remote' | 'host' | 'origin' | 'content-type';
  readonly message: string;
}

/** Fetch metadata values of a request the page itself made, or a person typed. */
const OWN_FETCH_SITES: ReadonlySet<string> = new Set(['same-origin', 'none']);

/** Methods that carry no body and change nothing. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

const header = (req: Pick<IncomingMessage, 'headers'>, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The host name of a `Host` header (brackets of an IPv6 literal removed), or undefined when it is not one. */
function hostnameOf(host: string | undefined): string | undefined {
  if (!host || /[\s/@?#\\]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return undefined;
  }
}

/** A name a DNS server the attacker runs cannot point here: loopback names and addresses, and IP literals when remote clients are allowed. */
function hostAllowed(hostname: string, policy: LocalAccessPolicy): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (isIP(hostname) !== 0) return policy.allowRemote || isLoopbackAddress(hostname);
  return policy.knownOrigins().some((origin) => hostnameOf(hostOfOrigin(origin)) === hostname);
}

function hostOfOrigin(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** Whether `origin` is the page's own: the scheme and the `Host` the request was sent to, or a known origin. */
function originAllowed(origin: string, host: string, policy: LocalAccessPolicy): boolean {
  const own = [`http://${host}`, `https://${host}`, ...policy.knownOrigins()].map((o) => o.toLowerCase());
  return own.includes(origin.toLowerCase());
}

/**
 * Checks a request to a guarded route: its socket (loopback unless remote
 * clients are allowed), `Host`, `Origin`, `Sec-Fetch-Site` (except on a
 * navigation, which shows the page to the person and hands the other site
 * nothing) and, on a request with a body, the content type. Undefined when
 * it may go on.
 */
export function localAccessRefusal(req: Pick<IncomingMessage, 'headers' | 'method' | 'socket'>, policy: LocalAccessPolicy): LocalAccessRefusal | undefined {
  if (!policy.allowRemote && !isLoopbackAddress(req.socket.remoteAddress)) {
    return { status: 403, reason: 'remote', message: 'this route answers clients on this machine only' };
  }
  const host = header(req, 'host');
  const hostname = hostnameOf(host);
  if (!hostname || !hostAllowed(hostname, policy)) {
    return {
      status: 403,
      reason: 'host',
      message: 'the Host header must name this machine (localhost or a loopback address, or the public URL); another name is how DNS rebinding reaches it',
    };
  }
  const origin = header(req, 'origin');
  const method = (req.method ?? 'GET').toUpperCase();
  const site = header(req, 'sec-fetch-site');
  const navigation = header(req, 'sec-fetch-mode') === 'navigate' && SAFE_METHODS.has(method);
  if ((origin !== undefined && !originAllowed(origin, host!, policy)) || (site !== undefined && !navigation && !OWN_FETCH_SITES.has(site))) {
    return { status: 403, reason: 'origin', message: 'requests from pages of other origins are refused here' };
  }
  if (!SAFE_METHODS.has(method) && !/^application\/json\s*(;|$)/i.test(header(req, 'content-type') ?? '')) {
    return { status: 415, reason: 'content-type', message: 'send the body as application/json' };
  }
  return undefined;
}
