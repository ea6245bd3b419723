/** What a newcomer is told to change when the client's own address is wrong. */
export const CLIENT_ADDRESS_SETTINGS = '`host`, `port` and `useSSL`';

/** The system code (ECONNREFUSED, ERR_SSL_…) and text of the deepest cause of a failed connection. */
function rootCause(error: unknown): { code: string; text: string } {
  let code = '';
  let text = '';
  let current: unknown = error;
  // fetch wraps the system error a level or two down its cause chain; ws hands it over directly.
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const found = (current as { code?: unknown }).code;
    if (typeof found === 'string') code = found;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') text = message;
    current = (current as { cause?: unknown }).cause ?? (current as { error?: unknown }).error;
  }
  return { code, text };
}

/** The page's origin when running in a browser (where CORS applies), else undefined. */
function pageOrigin(): string | undefined {
  const location = (globalThis as { document?: unknown; location?: { origin?: unknown } }).location;
  return typeof (globalThis as { document?: unknown }).document === 'object' && typeof location?.origin === 'string' ? location.origin : undefined;
}

/**
 * Words a failed connection: the address tried (already free of secrets),
 * the likely cause, and the setting to change. Used for REST requests and
 * the gateway socket alike.
 */
export function describeNetworkFailure(error: unknown, shownUrl: string, setting: string): string {
  const { code, text } = rootCause(error);
  const url = parsed(shownUrl);
  const named = code ? ` (${code})` : '';
  // The client's own address is chosen by `useSSL`; any other by the scheme of a URL setting.
  const client = setting.includes('useSSL');
  let why: string;
  if (code === 'ECONNREFUSED') why = `nothing listens on ${url.host}${named}: start the server, or correct ${setting}`;
  else if (/^(ENOTFOUND|EAI_)/.test(code)) why = `the name ${url.hostname} does not resolve${named}: correct ${setting}`;
  else if (/WRONG_VERSION|PACKET_LENGTH|HTTP_REQUEST/.test(code) || /wrong version number|packet length too long/.test(text)) {
    why = `${url.host} answered in plain HTTP, not TLS${named}: ${client ? 'set `useSSL: false`' : `use an address without TLS (http://, ws://) in ${setting}`}`;
  } else if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(code)) why = `the server's TLS certificate was refused${named}: correct ${setting}, or the server's certificate`;
  else if (/ECONNRESET|UND_ERR_SOCKET|EPIPE/.test(code)) {
    why = `the connection was closed before an answer came${named}${url.protocol === 'http:' || url.protocol === 'ws:' ? `; if the server speaks TLS, ${client ? 'set `useSSL: true`' : `use an address with TLS (https://, wss://) in ${setting}`}` : ''}`;
  } else if (/TIMEDOUT|TIMEOUT/.test(code)) why = `connecting timed out${named}: check ${setting} and the network`;
  else if (/UNREACH/.test(code)) why = `the host cannot be reached${named}: check ${setting} and the network`;
  else if (/^Z_/.test(code)) why = `the answer's compressed body is broken${named}`;
  else if (!code && pageOrigin() !== undefined) {
    // A browser tells a page nothing more: a CORS refusal, a refused port and a TLS failure all look alike.
    const cors = pageOrigin() !== url.origin ? `the server does not allow this page's origin (${pageOrigin()}) by CORS, or ` : '';
    why = `the browser refused or could not make the request: ${cors}no server answers there; check the server's allowed origins and ${setting}`;
  } else why = `${text || 'the server could not be reached'}${named}; check ${setting}`;
  return `could not reach ${shownUrl}: ${why}`;
}

function parsed(url: string): URL {
  try {
    return new URL(url);
  } catch {
    return new URL('http://unknown');
  }
}

/** A URL as errors and debug output show it: no query, no credentials, and the given secrets removed. */
export function shownUrl(url: string, hide: (text: string) => string): string {
  try {
    const parsed = new URL(url);
    return hide(`${parsed.protocol}//${parsed.host}${parsed.pathname}`);
  } catch {
    return '(an unreadable address)';
  }
}
