import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a preflight allows: every method and header the API uses. */
const PREFLIGHT = {
  'access-control-allow-methods': 'GET, POST, PUT, DELETE',
  'access-control-allow-headers': 'authorization, content-type, accept',
  'access-control-max-age': '600',
} as const;

/**
 * CORS for a browser app served from another origin (`--cors <origin>`):
 * an allowed origin gets `access-control-allow-origin` on every response,
 * and its preflight (OPTIONS) is answered here with 204. Requests from other
 * origins are served as before, without CORS headers, so the browser blocks
 * them. Returns true when the request was a preflight and is answered.
 */
export function applyCors(req: IncomingMessage, res: ServerResponse, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (allowed.length === 0 || typeof origin !== 'string') return false;
  const any = allowed.includes('*');
  if (!any && !allowed.includes(origin)) return false;
  res.setHeader('access-control-allow-origin', any ? '*' : origin);
  res.setHeader('access-control-expose-headers', 'retry-after');
  if (!any) res.setHeader('vary', 'origin');
  if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) return false;
  res.writeHead(204, PREFLIGHT);
  res.end();
  return true;
}
