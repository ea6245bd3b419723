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
  /** Gateway op, or the production request's name. */
  op?: string;
  /**
   * The production dialect the request or frame spoke ('sdk-2.8.33',
   * 'sdk-2.8.37', 'sdk-2.8.44'; several joined by " or " while a socket has
   * not told them apart); unset for the emulator's own protocol.
   */
  protocol?: string;
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

/** Bounds of the wire log beyond its entry count. */
export const WIRE_LOG_LIMITS = {
  /** A body or frame larger than this (raw, or as logged) is logged as `{ omitted_bytes }` instead of its content. */
  maxBodyBytes: 16 * 1024,
  /** What an entry counts for besides its strings and body. */
  entryOverheadBytes: 256,
  /** Characters kept of a path, op, cid or user id (a longer one is cut, saying how much was left out). */
  maxFieldChars: 2048,
  /** Characters kept of a value of a query the emulator logs before it knows who sent it (a socket's `connect`). */
  maxQueryValueChars: 64,
} as const;

/** A text cut to `max` characters, saying how many were left out. */
export function clipText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…(+${text.length - max} chars)`;
}

/** A query value of an unauthenticated request, as the wire log keeps it: cut to {@link WIRE_LOG_LIMITS.maxQueryValueChars}. */
export function clipQueryValue(value: string | null): string | null {
  return value === null ? null : clipText(value, WIRE_LOG_LIMITS.maxQueryValueChars);
}

/**
 * About how many bytes a logged value holds: its strings (characters), numbers, keys and
 * punctuation as JSON would write them, binary by its length. Stops counting past `limit`.
 */
export function loggedSize(value: unknown, limit = Infinity): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (typeof item === 'number' || typeof item === 'bigint') size += 8;
    else if (typeof item === 'boolean' || item === null || item === undefined) size += 5;
    else if (ArrayBuffer.isView(item)) size += item.byteLength;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      for (const element of item) stack.push(element);
    } else if (typeof item === 'object') {
      for (const [key, element] of Object.entries(item)) {
        size += key.length + 4;
        stack.push(element);
      }
    }
  }
  return size;
}

/** The string fields of an entry, cut to {@link WIRE_LOG_LIMITS.maxFieldChars}. */
const CLIPPED_FIELDS = ['userId', 'method', 'path', 'op', 'cid', 'protocol'] as const;

/**
 * A bounded log of what the emulator received, for tests to assert on: at
 * most `capacity` entries and about `capacityBytes` bytes of bodies, the
 * oldest going first (anyone who can reach the emulator can fill it).
 */
export class WireLog {
  private items: WireEntry[] = [];
  private sizes: number[] = [];
  private bytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly capacityBytes = Infinity,
  ) {}

  /**
   * Appends an entry stamped with the current time, dropping the oldest beyond the bounds (nothing is kept
   * when capacity is 0). `bodyBytes` is the size of the raw body or frame, when the caller knows it. It masks
   * nothing itself: callers pass masked paths and bodies.
   *
   * Every entry counts for what it really holds, whatever the caller says: its body as logged (binary
   * included) or its raw size, whichever is larger, and its strings, which are cut to a bound first.
   */
  record(entry: Omit<WireEntry, 'at'>, bodyBytes = 0): void {
    if (this.capacity <= 0) return;
    const kept: Omit<WireEntry, 'at'> = { ...entry };
    let size = WIRE_LOG_LIMITS.entryOverheadBytes;
    for (const field of CLIPPED_FIELDS) {
      const value = kept[field];
      if (value === undefined) continue;
      kept[field] = clipText(value, WIRE_LOG_LIMITS.maxFieldChars);
      size += kept[field].length;
    }
    if (kept.body !== undefined) {
      const logged = loggedSize(kept.body, WIRE_LOG_LIMITS.maxBodyBytes);
      const bodySize = Math.max(bodyBytes, logged);
      if (bodySize > WIRE_LOG_LIMITS.maxBodyBytes) kept.body = { omitted_bytes: bodyBytes > 0 ? bodyBytes : loggedSize(entry.body) };
      else size += bodySize;
    }
    this.items.push({ at: Date.now(), ...kept });
    this.sizes.push(size);
    this.bytes += size;
    // Drop from the front until both bounds hold; the newest entry always stays.
    let drop = 0;
    let bytes = this.bytes;
    while (this.items.length - drop > 1 && (this.items.length - drop > this.capacity || bytes > this.capacityBytes)) {
      bytes -= this.sizes[drop]!;
      drop += 1;
    }
    if (drop > 0) {
      this.items.splice(0, drop);
      this.sizes.splice(0, drop);
      this.bytes = bytes;
    }
  }

  /** Bytes the log counts as held (entries' bodies and their overhead). */
  get heldBytes(): number {
    return this.bytes;
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
    this.sizes = [];
    this.bytes = 0;
  }
}
