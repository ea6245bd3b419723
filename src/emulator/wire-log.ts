/** One request or frame the emulator received. */
export interface WireEntry {
  /** Milliseconds since the epoch. */
  at: number;
  transport: 'http' | 'ws';
  /** Authenticated user, when known. */
  userId?: string;
  /** HTTP method. */
  method?: string;
  /** HTTP path, with secret path segments and the query's token replaced by `***`. */
  path?: string;
  /** HTTP response status. */
  status?: number;
  /** Gateway op. */
  op?: string;
  cid?: string;
  /** Parsed body or frame payload, with secret fields replaced by `***`. */
  body?: unknown;
}

const SECRET_KEYS = new Set(['token', 'refresh_token', 'jwt', 'password', 'privateKey', 'private_key', 'signature', 'zk_proof', 'proof']);

/** Copies a parsed body or frame with secret fields masked, down to five levels (deeper than any payload of the protocol). */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 4 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  // defineProperty, not assignment: a "__proto__" key from JSON must stay a plain key.
  for (const [key, v] of Object.entries(value)) Object.defineProperty(out, key, { value: SECRET_KEYS.has(key) ? '***' : maskSecrets(v, depth + 1), enumerable: true, writable: true, configurable: true });
  return out;
}

/** A JWT (three base64url parts, the first a JSON object): never a legitimate path segment. */
const JWT_LIKE = /^eyJ[\w-]*\.[\w-]+\.[\w-]*$/;

/** Masks secret path segments: webhook tokens, JWTs, and a `token` query parameter. */
export function maskPath(path: string): string {
  const [pathname = '', query] = path.split('?', 2);
  // Webhook tokens travel in the path; mask every segment after a webhooks prefix except numeric ids,
  // so a token is hidden even when a caller put it in the wrong position or behind a base path.
  const segments = pathname.split('/');
  const hook = segments.findIndex((segment) => segment === 'webhooks' || segment === 'clanwebhooks');
  const masked = segments
    .map((segment, i) => {
      if (JWT_LIKE.test(safeDecode(segment))) return '***';
      return hook >= 0 && i > hook && !/^\d+$/.test(segment) ? '***' : segment;
    })
    .join('/');
  if (query === undefined) return masked;
  const params = new URLSearchParams(query);
  if (params.has('token')) params.set('token', '***');
  return `${masked}?${params.toString()}`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A bounded log of what the emulator received, for tests to assert on. */
export class WireLog {
  private items: WireEntry[] = [];

  constructor(private readonly capacity: number) {}

  /** Appends an entry stamped with the current time, dropping the oldest beyond capacity (nothing is kept when capacity is 0). It masks nothing itself: callers pass masked paths and bodies. */
  record(entry: Omit<WireEntry, 'at'>): void {
    if (this.capacity <= 0) return;
    this.items.push({ at: Date.now(), ...entry });
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
  }

  /** Everything logged, oldest first. */
  entries(): readonly WireEntry[] {
    return this.items;
  }

  /** Gateway frames of one op, oldest first. */
  frames(op: string): WireEntry[] {
    return this.items.filter((e) => e.transport === 'ws' && e.op === op);
  }

  /** HTTP requests whose masked path starts with a prefix. */
  requests(pathPrefix = '/'): WireEntry[] {
    return this.items.filter((e) => e.transport === 'http' && e.path?.startsWith(pathPrefix));
  }

  /** Forgets every entry. */
  clear(): void {
    this.items = [];
  }
}
