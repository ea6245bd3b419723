import { ClanstreamError } from './clanstream-error.js';

/** One thing wrong with an input, at a dotted path such as `content.mk[0].e`. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
  /** `too_large` when the input exceeds a size limit; otherwise `invalid`. */
  readonly code: 'invalid' | 'too_large';
}

/** Input was refused before anything was sent. */
export class ValidationError extends ClanstreamError {
  readonly kind = 'validation' as const;
  readonly issues: readonly ValidationIssue[];

  constructor(issues: readonly ValidationIssue[], subject = 'input') {
    const first = issues[0];
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(first ? `Invalid ${subject}: ${first.path ? `${first.path}: ` : ''}${first.message}${more}` : `Invalid ${subject}`);
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
