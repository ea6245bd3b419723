import { base64Of } from './base64.js';

/** What replaces a secret in any text clanstream produces. */
export const REDACTED = '[redacted]';

/** How a {@link SecretRedactor} is set up. */
export interface SecretRedactorOptions {
  /**
   * Secrets shorter than this are ignored (default 6: a shorter one would mangle ordinary text).
   * A redactor of one known secret whose every occurrence must go (a webhook token) may lower it;
   * the encoded forms are still only looked for from 6 characters on.
   */
  minLength?: number;
}

/** Length from which a secret is also looked for in its encoded forms. */
const ENCODED_FORMS_MIN = 6;

/**
 * Remembers the secrets of one client (API key, tokens, private key, webhook
 * tokens) and removes them from any text before it is logged or thrown. It
 * is the one redactor: every place that removes secrets from text uses it.
 */
export class SecretRedactor {
  // #private fields: util.inspect of anything holding the redactor never lists the secrets.
  readonly #secrets = new Set<string>();
  #longestFirst: string[] | undefined;
  readonly #minLength: number;

  constructor(options: SecretRedactorOptions = {}) {
    this.#minLength = Math.max(1, options.minLength ?? ENCODED_FORMS_MIN);
  }

  /**
   * Registers a secret, with the forms a server is likely to echo it in: URL-encoded, base64 of
   * `secret:` as in HTTP Basic, base64 and base64url (also where it sits inside a longer encoded
   * text), and hex.
   */
  add(secret: string | undefined): void {
    for (const form of this.formsOf(secret)) this.#secrets.add(form);
    this.#longestFirst = undefined;
  }

  remove(secret: string | undefined): void {
    for (const form of this.formsOf(secret)) this.#secrets.delete(form);
    this.#longestFirst = undefined;
  }

  private formsOf(secret: string | undefined): string[] {
    if (!secret || secret.length < this.#minLength) return [];
    return secret.length < ENCODED_FORMS_MIN ? [secret] : echoedForms(secret);
  }

  redact(text: string): string {
    let out = text;
    // Longest first: a secret inside a longer registered form is not cut before the longer one is.
    this.#longestFirst ??= [...this.#secrets].sort((a, b) => b.length - a.length);
    for (const secret of this.#longestFirst) {
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
function echoedForms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms = new Set([secret, encodeURIComponent(secret), unpaddedBase64(new TextEncoder().encode(`${secret}:`))]);
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  forms.add(hex);
  forms.add(hex.toUpperCase());
  const standard = unpaddedBase64(bytes);
  for (const encoded of [standard, toBase64Url(standard)]) forms.add(encoded);
  // Inside a longer base64 text the secret starts 0, 1 or 2 bytes into a 3-byte group, and each start encodes
  // it differently: the characters that depend on the secret's bytes alone are looked for, in both alphabets.
  for (const offset of [0, 1, 2]) {
    const shifted = new Uint8Array(offset + bytes.length);
    shifted.set(bytes, offset);
    const core = unpaddedBase64(shifted).slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    forms.add(core);
    forms.add(toBase64Url(core));
  }
  // A JWT's signature alone still lets no one forge it, but it names the token: a server quoting it leaks it.
  const signature = /^[\w-]+\.[\w-]+\.([\w-]{16,})$/.exec(secret)?.[1];
  if (signature) forms.add(signature);
  return [...forms];
}

/** Base64 (standard alphabet) without padding. */
const unpaddedBase64 = (bytes: Uint8Array): string => base64Of(bytes).replace(/=+$/, '');

const toBase64Url = (base64: string): string => base64.replaceAll('+', '-').replaceAll('/', '_');

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
