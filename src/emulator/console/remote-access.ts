/**
 * Who may use the console. It hands out every account's API key and lets the
 * caller act as anyone and break the emulator on purpose, so it answers
 * clients on this machine only, unless `allowRemoteConsole` says otherwise,
 * and only requests addressed to this machine from its own page
 * (../http/local-access.ts, the check the test API goes through too).
 */
import type { IncomingMessage } from 'node:http';
import { localAccessRefusal, type LocalAccessPolicy, type LocalAccessRefusal } from '../http/local-access.js';

export { isLoopbackAddress, isLoopbackHost } from '../http/local-access.js';

/** What a client on another machine reads (no secret in it). */
export const REMOTE_REFUSAL =
  'the emulator console answers clients on this machine only; start the emulator with --allow-remote-console (allowRemoteConsole: true) to serve it to others\n';

/** Why a request may not use the console, or undefined when it may: the text it is answered with (403 or 415). */
export function consoleRefusal(req: Pick<IncomingMessage, 'headers' | 'method' | 'socket'>, policy: LocalAccessPolicy): LocalAccessRefusal | undefined {
  const refusal = localAccessRefusal(req, policy);
  if (refusal?.reason === 'remote') return { ...refusal, message: REMOTE_REFUSAL };
  return refusal && { ...refusal, message: `the emulator console refused the request: ${refusal.message}\n` };
}

/** Whether a request may use the console: see {@link consoleRefusal}. */
export function consoleAllows(req: Pick<IncomingMessage, 'headers' | 'method' | 'socket'>, allowRemote: boolean, knownOrigins: () => readonly string[] = () => []): boolean {
  return consoleRefusal(req, { allowRemote, knownOrigins }) === undefined;
}

/** The warning printed when the emulator listens on more than loopback. */
export function exposureWarning(host: string, allowRemoteConsole: boolean): string {
  const console = allowRemoteConsole
    ? 'The console is served to every client (--allow-remote-console): anyone who can reach it can read every API key, act as any user and inject faults.'
    : 'The console and its API keys stay loopback-only (add --allow-remote-console to serve them to others).';
  return [
    `WARNING: the emulator listens on ${host}, not only on loopback: other machines can reach it.`,
    'It is a test server: no real authentication, seeded API keys, everything in memory. Never expose it to a network you do not trust.',
    console,
  ].join('\n');
}
