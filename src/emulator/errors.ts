import type { ApiErrorCode } from '../model/api.js';
import type { ValidationIssue } from '../errors/validation-error.js';

/** A refusal by the emulator, mapped to an HTTP status or a gateway error reply. */
export class EmulatorError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'EmulatorError';
  }

  static badRequest(message: string, fields?: Record<string, string>): EmulatorError {
    return new EmulatorError(400, 'bad_request', message, fields);
  }
  static unauthenticated(message = 'authentication required'): EmulatorError {
    return new EmulatorError(401, 'unauthenticated', message);
  }
  static forbidden(message: string): EmulatorError {
    return new EmulatorError(403, 'forbidden', message);
  }
  static notFound(what: string): EmulatorError {
    return new EmulatorError(404, 'not_found', `${what} not found`);
  }
  static tooLarge(message: string): EmulatorError {
    return new EmulatorError(413, 'payload_too_large', message);
  }

  /** A 400 (or 413 when a size limit was the only problem) from validation issues. */
  static fromIssues(issues: readonly ValidationIssue[], subject: string): EmulatorError {
    const fields: Record<string, string> = {};
    for (const issue of issues) fields[issue.path || '(root)'] ??= issue.message;
    const first = issues[0];
    const message = `invalid ${subject}: ${first ? `${first.path ? `${first.path} ` : ''}${first.message}` : 'bad input'}`;
    return issues.every((i) => i.code === 'too_large')
      ? new EmulatorError(413, 'payload_too_large', message, fields)
      : new EmulatorError(400, 'bad_request', message, fields);
  }
}
