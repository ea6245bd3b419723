/** What replaces a secret in any text clanstream produces. */
export const REDACTED = '[redacted]';

/**
 * Remembers the secrets of one client (API key, tokens, private key, webhook
 * tokens) and removes them from any text before it is logged or thrown.
 */
export class SecretRedactor {
  // A #private field: util.inspect of anything holding the redactor never lists the secrets.
  readonly #secrets = new Set<string>();

  /**
   * Registers a secret, with the forms a server is likely to echo it in (URL-encoded, base64 of
   * `secret:` as in HTTP Basic); values shorter than 6 characters are ignored (they would mangle ordinary text).
   */
  add(secret: string | undefined): void {
    for (const form of echoedForms(secret)) this.#secrets.add(form);
  }

  remove(secret: string | undefined): void {
    for (const form of echoedForms(secret)) this.#secrets.delete(form);
  }

  redact(text: string): string {
    let out = text;
    // Longest first: a secret inside a longer registered form is not cut before the longer one is.
    for (const secret of [...this.#secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      out = withoutCutSecret(out, secret);
    }
    return redactTokensInUrls(out);
  }

  /** Whether a text still holds a registered secret (for checks; `redact` is what removes them). */
  holdsSecret(text: string): boolean {
    for (const secret of this.#secrets) if (text.includes(secret) || withoutCutSecret(text, secret) !== text) return true;
    return false;
  }

  /**
   * Removes the secrets from an error clanstream made (its message, stack and
   * own string fields, `fields` included), in place, and returns it. A server
   * or a proxy may echo credentials into the text such an error carries.
   */
  redactError<E extends Error>(error: E, depth = 0): E {
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
    // The cause chain shows in util.inspect: clanstream's own errors in it are scrubbed too (a listener's error is the bot's own).
    const cause = (error as { cause?: unknown }).cause;
    if (depth < MAX_CAUSE_DEPTH && isOwnError(cause)) this.redactError(cause, depth + 1);
    return error;
  }
}

/** How many leading characters of a secret, cut off at the end of a text, are enough to remove them. */
const CUT_SECRET_MIN = 8;

/**
 * Removes the start of `secret` from the end of `text`: texts with a length limit (a WebSocket close
 * reason holds 123 bytes, a log line may be cut) end in the middle of an echoed secret.
 */
function withoutCutSecret(text: string, secret: string): string {
  if (secret.length <= CUT_SECRET_MIN) return text;
  const head = secret.slice(0, CUT_SECRET_MIN);
  // A cut secret starts within the last (length - 1) characters; the whole one was replaced already.
  for (let at = text.indexOf(head, Math.max(0, text.length - secret.length + 1)); at !== -1; at = text.indexOf(head, at + 1)) {
    if (secret.startsWith(text.slice(at))) return text.slice(0, at) + REDACTED;
  }
  return text;
}

/** How deep `redactError` follows a `cause` chain. */
const MAX_CAUSE_DEPTH = 8;

/** An error clanstream made (it carries a `kind`), as opposed to one a bot's own code threw. */
function isOwnError(value: unknown): value is Error {
  return value instanceof Error && typeof (value as { kind?: unknown }).kind === 'string';
}

/** A secret and the encodings of it that servers and proxies echo. */
function echoedForms(secret: string | undefined): string[] {
  if (!secret || secret.length < 6) return [];
  const forms = new Set([secret, encodeURIComponent(secret)]);
  try {
    for (const plain of [`${secret}:`, secret]) {
      const base64 = btoa(plain).replace(/=+$/, '');
      forms.add(base64).add(base64.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  } catch {
    // Not Latin-1: no Basic or base64 form to look for.
  }
  // A JWT's signature alone still lets no one forge it, but it names the token: a server quoting it leaks it.
  const signature = /^[\w-]+\.[\w-]+\.([\w-]{16,})$/.exec(secret)?.[1];
  if (signature) forms.add(signature);
  return [...forms];
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
