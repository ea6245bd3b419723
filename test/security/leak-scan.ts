/**
 * Collects every text a run produces (errors, log lines, inspect and JSON
 * output, console and CLI output) and checks that no registered secret
 * appears in it, in any of the encodings a secret plausibly travels in.
 * A failure names the secret, the encoding and where it was found, but
 * never prints the secret itself.
 */
import { inspect } from 'node:util';
import { base58, base64, hex } from '@scure/base';
import { expect } from 'vitest';
import type { Logger } from '../../src/index.js';

/** One way a secret may be written down. */
interface SecretForm {
  name: string;
  encoding: string;
  text: string;
}

/** A secret shown safely: its first 3 characters and its length. */
const hint = (text: string): string => `${text.slice(0, 3)}…(${text.length} chars)`;

/** Text around a leak with the secret itself masked, so the report can be read without exposing it. */
function context(text: string, at: number, secret: string): string {
  const before = text.slice(Math.max(0, at - 40), at);
  const after = text.slice(at + secret.length, at + secret.length + 40);
  return `${JSON.stringify(before)} <SECRET> ${JSON.stringify(after)}`;
}

export class LeakScanner {
  private readonly forms: SecretForm[] = [];
  private readonly texts: Array<{ where: string; text: string }> = [];

  /** Registers a secret under a name, with its usual encodings (raw, URL-encoded, base64, base64url, hex). */
  secret(name: string, value: string | undefined): void {
    if (value === undefined || value === '') return;
    const utf8 = new TextEncoder().encode(value);
    this.addForm(name, 'raw', value);
    this.addForm(name, 'encodeURIComponent', encodeURIComponent(value));
    this.addForm(name, 'base64', base64.encode(utf8));
    this.addForm(name, 'base64url', Buffer.from(value, 'utf8').toString('base64url'));
    this.addForm(name, 'hex', hex.encode(utf8));
    // Forms shorter than the whole secret would match ordinary text only by chance if they were short.
    if (/^[\w-]+\.[\w-]+\.[\w-]{20,}$/.test(value)) this.addForm(name, 'JWT signature', value.split('.')[2]!);
  }

  /** An API key also travels as HTTP Basic credentials (`base64("key:")`). */
  apiKey(name: string, value: string): void {
    this.secret(name, value);
    this.addForm(name, 'HTTP Basic', Buffer.from(`${value}:`).toString('base64'));
  }

  /** An ed25519 seed: hex, the reference SDK's PKCS#8 hex, base64, base58. */
  privateKey(name: string, seed: Uint8Array): void {
    this.addForm(name, 'hex', hex.encode(seed));
    this.addForm(name, 'PKCS#8 hex', `302e020100300506032b657004220420${hex.encode(seed)}`);
    this.addForm(name, 'base64', base64.encode(seed));
    this.addForm(name, 'base58', base58.encode(seed));
  }

  private addForm(name: string, encoding: string, text: string): void {
    if (text.length < 8) throw new Error(`secret ${name} (${encoding}) is too short to scan for reliably`);
    if (!this.forms.some((f) => f.text === text)) this.forms.push({ name, encoding, text });
  }

  get secretCount(): number {
    return this.forms.length;
  }

  /** Adds a plain text (a log line, console output). */
  text(where: string, text: string): void {
    this.texts.push({ where, text });
  }

  /**
   * Adds everything a value shows: `JSON.stringify`, `String()`, `toJSON()`,
   * `util.inspect` at any depth with hidden properties; for errors also the
   * message, the stack and every error of the cause chain.
   */
  value(where: string, value: unknown): void {
    this.describe(where, value, 0);
  }

  private describe(where: string, value: unknown, depth: number): void {
    if (depth > 8) return;
    this.texts.push({ where: `${where} (inspect)`, text: inspect(value, { depth: Infinity, showHidden: true, maxArrayLength: Infinity, maxStringLength: Infinity }) });
    this.texts.push({ where: `${where} (String)`, text: safely(() => String(value)) });
    this.texts.push({ where: `${where} (JSON)`, text: safely(() => JSON.stringify(value) ?? '') });
    if (typeof value === 'object' && value !== null) {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') this.texts.push({ where: `${where} (toJSON)`, text: safely(() => inspect(toJSON.call(value), { depth: Infinity })) });
    }
    if (value instanceof Error) {
      this.texts.push({ where: `${where} (message)`, text: value.message });
      this.texts.push({ where: `${where} (stack)`, text: value.stack ?? '' });
      if (value.cause !== undefined) this.describe(`${where} → cause`, value.cause, depth + 1);
      if (value instanceof AggregateError) value.errors.forEach((e: unknown, i) => this.describe(`${where} → errors[${i}]`, e, depth + 1));
    }
  }

  /** Everything collected so far, for assertions that something was collected at all. */
  collected(where: RegExp): string[] {
    return this.texts.filter((t) => where.test(t.where)).map((t) => t.text);
  }

  /** Fails listing every leak: which secret, in which encoding, where, with the secret masked. */
  expectNoLeaks(): void {
    const leaks: string[] = [];
    for (const { where, text } of this.texts) {
      const lower = text.toLowerCase();
      for (const form of this.forms) {
        // hex and base58 forms are also looked for case-insensitively (hex is printed either way).
        const at = form.encoding.includes('hex') ? lower.indexOf(form.text.toLowerCase()) : text.indexOf(form.text);
        if (at >= 0) leaks.push(`${form.name} [${form.encoding}, ${hint(form.text)}] in ${where}: ${context(text, at, form.text)}`);
      }
    }
    expect(leaks, `secrets leaked:\n${leaks.join('\n')}`).toEqual([]);
  }
}

function safely(show: () => string): string {
  try {
    return show();
  } catch (error) {
    return `[could not show: ${error instanceof Error ? error.message : String(error)}]`;
  }
}

/** A logger that writes every call, at every level, with its details fully inspected. */
export function recordingLogger(scanner: LeakScanner, where: string): Logger & { count: () => number; lines: string[] } {
  const lines: string[] = [];
  const write =
    (level: string) =>
    (message: string, ...details: unknown[]): void => {
      const line = `${level} ${message}${details.length > 0 ? ` ${inspect(details, { depth: Infinity, showHidden: true })}` : ''}`;
      lines.push(line);
      scanner.text(`${where} logger`, line);
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error'), count: () => lines.length, lines };
}

