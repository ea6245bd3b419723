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
}

/** Removes `token=` query values and JWT-looking strings from text that may contain URLs. */
export function redactTokensInUrls(text: string): string {
  return text
    .replace(/([?&](?:token|refresh_token|jwt)=)[^&\s"']+/gi, `$1${REDACTED}`)
    .replace(/\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g, REDACTED);
}
