import type { Subject } from 'rxjs';
import { writeToStderr } from '../debug/stderr.js';
import { describeUnhandled, type UnhandledErrors } from '../debug/unhandled-error.js';
import type { ClanstreamError } from '../errors/clanstream-error.js';
import type { AnyClanstreamError } from '../errors/index.js';
import type { Logger } from '../util/logger.js';
import type { SecretRedactor } from '../util/redact.js';

/** What an {@link ErrorReporter} works with. */
export interface ErrorReporterDeps {
  redactor: SecretRedactor;
  /** The redacting logger (silent when the user gave none). */
  logger: Logger;
  /** The user gave a logger: every error is logged, so none is unhandled. */
  userLogger: boolean;
  unhandledErrors: UnhandledErrors;
  /** Where `errors$` comes from. */
  errors: Subject<AnyClanstreamError>;
}

/**
 * Reports the errors no call could receive: redacted, logged at `warn`, put
 * on `errors$`, and, when none of that reaches anyone, printed to stderr once
 * (unless the user opted out with `unhandledErrors: 'silent'`).
 */
export class ErrorReporter {
  constructor(private readonly deps: ErrorReporterDeps) {}

  /** `reachesCaller`: the error also reaches a caller (the `login()` it rejects), so it is not unhandled. */
  report(error: ClanstreamError, reachesCaller = false): void {
    // Errors quoting a frame or a server's words may repeat one of the client's secrets; none reaches errors$.
    this.deps.redactor.redactError(error);
    this.deps.logger.warn(`${error.name}: ${error.message}`);
    this.deliver(error, reachesCaller);
  }

  /** An error another reporter has redacted and logged already (a client this one wraps): put on `errors$`, and printed when nobody handles it. */
  relay(error: ClanstreamError): void {
    this.deliver(error, false);
  }

  private deliver(error: ClanstreamError, reachesCaller: boolean): void {
    const { redactor, errors } = this.deps;
    const handled = errors.observed || this.deps.userLogger || reachesCaller;
    errors.next(error as AnyClanstreamError);
    if (!handled && this.deps.unhandledErrors === 'print') writeToStderr(describeUnhandled(error as AnyClanstreamError, (text) => redactor.redact(text)));
  }
}
