/** What replaces a secret in any text clanstream produces. */
export const REDACTED = '[redacted]';

/**
 * Remembers the secrets of one client (API key, tokens, private key, webhook
 * tokens) and removes them from any text before it is logged or thrown.
 */
export class SecretRedactor {
  private readonly secrets = new Set<string>();

  /** Registers a secret; values shorter than 6 characters are ignored (they would mangle ordinary text). */
  add(secret: string | undefined): void {
    if (secret && secret.length >= 6) this.secrets.add(secret);
  }

  remove(secret: string | undefined): void {
    if (secret) this.secrets.delete(secret);
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return redactTokensInUrls(out);
  }

  /**
   * Removes the secrets from an error clanstream made (its message, stack and
   * own string fields, `fields` included), in place, and returns it. A server
   * or a proxy may echo credentials into the text such an error carries.
   */
  redactError<E extends Error>(error: E): E {
    const own = error as unknown as Record<string, unknown>;
    for (const key of ['message', 'stack', ...Object.keys(error)]) {
      const value = own[key];
      if (typeof value === 'string') {
        const clean = this.redact(value);
        if (clean !== value) own[key] = clean;
      } else if (key === 'fields' && typeof value === 'object' && value !== null) {
        own[key] = redactFields(value as Record<string, string>, (text) => this.redact(text));
      }
    }
    return error;
  }
}

/** A copy of a `fields` record (field path → message) with `redact` applied to keys and values. */
export function redactFields(fields: Readonly<Record<string, string>>, redact: (text: string) => string): Record<string, string> {
  // fromEntries defines own properties, so a "__proto__" field name from a server stays a plain key.
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [redact(key), typeof value === 'string' ? redact(value) : value]));
}

/** Removes `token=` query values and JWT-looking strings from text that may contain URLs. */
export function redactTokensInUrls(text: string): string {
  return text
    .replace(/([?&](?:token|refresh_token|jwt)=)[^&\s"']+/gi, `$1${REDACTED}`)
    .replace(/\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g, REDACTED);
}
