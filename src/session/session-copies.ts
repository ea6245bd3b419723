/**
 * Lets a session copied the usual ways (`{...session}`, or
 * `JSON.parse(JSON.stringify(session))`) be restored in the process that
 * made it. Those copies leave the tokens out (they are secrets and never
 * shown); they keep the session's `restore_key`, an opaque id under which
 * this process remembers the tokens of its most recent sessions. To keep a
 * session across processes, store `session.toStorable()`.
 */

/** Sessions whose tokens are remembered for restoring a copy; the oldest is forgotten first. */
export const SESSION_COPY_LIMITS = { remembered: 256 } as const;

interface Tokens {
  token: string;
  refresh_token: string;
}

const remembered = new Map<string, Tokens>();

/** A new opaque key (random, never derived from a token). */
export function newRestoreKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return `rk_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** Whether a value has the shape of a restore key. */
export function isRestoreKey(value: unknown): value is string {
  return typeof value === 'string' && /^rk_[0-9a-f]{32}$/.test(value);
}

/** Remembers the current tokens of a session under its key (the most recent first). */
export function rememberTokens(key: string, tokens: Tokens): void {
  remembered.delete(key);
  remembered.set(key, { token: tokens.token, refresh_token: tokens.refresh_token });
  if (remembered.size > SESSION_COPY_LIMITS.remembered) remembered.delete(remembered.keys().next().value!);
}

/** The tokens remembered under a key, if this process still has them. */
export function rememberedTokens(key: unknown): Tokens | undefined {
  return isRestoreKey(key) ? remembered.get(key) : undefined;
}
