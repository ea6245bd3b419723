/**
 * `clanstream/compat-preload`: runs an unchanged bot written with the
 * platform's official SDK against a local emulator started with `--compat`:
 *
 *   CLANSTREAM_EMULATOR_URL=http://127.0.0.1:7350 node --import clanstream/compat-preload bot.js
 *
 * The SDK builds its production addresses in (a bot usually passes only its
 * id and key); this preload sends the requests it makes to those addresses to
 * the emulator. The socket follows by itself: it opens on the `api_url` the
 * emulator's login answers. A bot that names its own host is pointed at the
 * emulator by naming that host's origin in CLANSTREAM_REDIRECT_ORIGINS
 * (origins separated by commas or spaces). Importing it changes the process's `fetch`, so it
 * is for bot processes only. See docs/COMPAT.md.
 *
 * @module clanstream/compat-preload
 */
import { emulatorUrlFrom, extraOriginsFrom, PRODUCTION_ORIGINS, redirect } from './redirect.js';

const emulator = emulatorUrlFrom(process.env);
const origins = [...PRODUCTION_ORIGINS, ...extraOriginsFrom(process.env)];
const original = globalThis.fetch;

globalThis.fetch = function fetchThroughEmulator(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  if (input instanceof Request) {
    const target = redirect(input.url, emulator, origins);
    return original(target === input.url ? input : new Request(target, input), init);
  }
  return original(redirect(input instanceof URL ? input.href : input, emulator, origins), init);
};

export { EMULATOR_URL_VARIABLE, EXTRA_ORIGINS_VARIABLE, PRODUCTION_ORIGINS } from './redirect.js';
