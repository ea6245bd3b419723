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

  /** A 400 `bad_request`; `fields` maps field paths to what is wrong with each. */
  static badRequest(message: string, fields?: Record<string, string>): EmulatorError {
    return new EmulatorError(400, 'bad_request', message, fields);
  }
  /** A 401 `unauthenticated` (missing or refused credentials). */
  static unauthenticated(message = 'authentication required'): EmulatorError {
    return new EmulatorError(401, 'unauthenticated', message);
  }
  /** A 403 `forbidden`: the caller may not do this (not a member, no channel access, not the sender, …). */
  static forbidden(message: string): EmulatorError {
    return new EmulatorError(403, 'forbidden', message);
  }
  /** A 404 `not_found` with the message `<what> not found`. */
  static notFound(what: string): EmulatorError {
    return new EmulatorError(404, 'not_found', `${what} not found`);
  }
  /** A 413 `payload_too_large`: a size limit was exceeded. */
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
