import type { AnyClanstreamError } from '../errors/index.js';

/** What happens to an error that reaches neither an `errors$` subscriber nor a logger. */
export type UnhandledErrors = 'print' | 'silent';

/** The default: silent is the one wrong choice for an error nobody handles. */
export const UNHANDLED_ERRORS_DEFAULT: UnhandledErrors = 'print';

/** Where an error came from, in words: the event whose listener failed, the request refused, the connection. */
export function originOf(error: AnyClanstreamError): string {
  switch (error.kind) {
    case 'listener':
      return `a listener for ${error.event}`;
    case 'gateway':
      return `the gateway's reply to ${error.op}`;
    case 'api':
      return error.route;
    case 'protocol':
      return 'an inbound gateway frame';
    case 'connection':
      return 'the gateway connection';
    case 'authentication':
    case 'clock_skew':
      return 'the session';
    case 'rate_limit':
      return error.route;
    case 'timeout':
      return error.operation;
    default:
      return 'the client';
  }
}

/**
 * The text printed for an unhandled error: its class, where it came from, its
 * message, the stack of what a listener threw (that is where the bug is), and
 * how to take over. `redact` removes the client's secrets from all of it.
 */
export function describeUnhandled(error: AnyClanstreamError, redact: (text: string) => string): string {
  const lines = [`clanstream: unhandled ${error.name} from ${originOf(error)}: ${error.message}`];
  const cause = error.cause;
  if (error.kind === 'listener' && cause instanceof Error && cause.stack) {
    lines.push(...cause.stack.split('\n').map((line) => `    ${line.trim()}`));
  }
  lines.push('  Subscribe to client.errors$ (or pass a logger) to handle errors yourself; `unhandledErrors: "silent"` turns this output off.');
  return redact(lines.join('\n'));
}
