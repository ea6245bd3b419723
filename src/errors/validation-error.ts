import { ClanstreamError } from './clanstream-error.js';
import { nameErrorClass } from './error-name.js';

/** One thing wrong with an input, at a dotted path such as `content.mk[0].e`. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
  /** `too_large` when the input exceeds a size limit; otherwise `invalid`. */
  readonly code: 'invalid' | 'too_large';
}

/** How many issues a message spells out. */
const MESSAGE_ISSUES = 3;

/** Input was refused before anything was sent. */
export class ValidationError extends ClanstreamError {
  static {
    nameErrorClass(this, 'ValidationError');
  }

  readonly kind = 'validation' as const;
  // Declared, not defined: the constructor assigns them in this order (not set to undefined first).
  declare readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], subject = 'input') {
    // The first few issues are all in the message (a config missing both botId and token says both); `issues` holds every one.
    const shown = issues.slice(0, MESSAGE_ISSUES).map((issue) => `${issue.path ? `${issue.path}: ` : ''}${issue.message}`);
    const more = issues.length > MESSAGE_ISSUES ? ` (and ${issues.length - MESSAGE_ISSUES} more)` : '';
    super(shown.length > 0 ? `Invalid ${subject}: ${shown.join('; ')}${more}` : `Invalid ${subject}`);
    this.issues = issues;
  }

  /** The first offending field, for quick checks. */
  get field(): string | undefined {
    return this.issues[0]?.path;
  }

  /** Field path → message, as the protocol's `fields` object. */
  get fields(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const issue of this.issues) out[issue.path || '(root)'] ??= issue.message;
    return out;
  }
}
