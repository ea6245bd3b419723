/**
 * Who may use the console. It hands out every account's API key and lets the
 * caller act as anyone and break the emulator on purpose, so it answers
 * clients on this machine only, unless `allowRemoteConsole` says otherwise.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True for 127.0.0.0/8 and ::1, in any spelling (IPv4-mapped IPv6 included). */
export function isLoopbackAddress(address: string | undefined): boolean {
  const family = address ? isIP(address) : 0;
  return family !== 0 && LOOPBACK.check(address!, family === 6 ? 'ipv6' : 'ipv4');
}

/** True when binding `host` exposes the emulator only to this machine (`localhost`, 127.x, ::1). */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || isLoopbackAddress(host.replace(/^\[|\]$/g, ''));
}

/** Whether a request may use the console: from this machine, or from anywhere when allowed. */
export function consoleAllows(req: Pick<IncomingMessage, 'socket'>, allowRemote: boolean): boolean {
  return allowRemote || isLoopbackAddress(req.socket.remoteAddress);
}

/** What a refused client reads (no secret in it). */
export const REMOTE_REFUSAL =
  'the emulator console answers clients on this machine only; start the emulator with --allow-remote-console (allowRemoteConsole: true) to serve it to others\n';

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
