/**
 * Where the official SDK sends its requests when a bot names no host: the
 * production origins built into the SDK (login and REST, the token network
 * and prover, media playback). The preload sends requests to these origins to
 * the emulator instead, keeping the path, which the emulator's compat front
 * end serves.
 */
export const PRODUCTION_ORIGINS: readonly string[] = Object.freeze(['https://gw.mezon.ai', 'https://dong.mezon.ai', 'https://stn.mezon.ai']);

/** The environment variable naming the emulator to use. */
export const EMULATOR_URL_VARIABLE = 'CLANSTREAM_EMULATOR_URL';

/**
 * The environment variable naming more origins to send to the emulator, for
 * a bot that names its own host (the SDK's `host` option, as the platform's
 * official example does): origins (`https://host[:port]`) separated by
 * commas or spaces.
 */
export const EXTRA_ORIGINS_VARIABLE = 'CLANSTREAM_REDIRECT_ORIGINS';

/** The extra origins named in the environment (none when unset); a value that is no http(s) origin is an error naming it. */
export function extraOriginsFrom(env: Record<string, string | undefined>): string[] {
  const value = env[EXTRA_ORIGINS_VARIABLE] ?? '';
  return value
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry.replace(/\/+$/, '')) {
        throw new Error(`clanstream/compat-preload: ${EXTRA_ORIGINS_VARIABLE} holds "${entry}", which is not an http(s) origin (scheme, host and port only, e.g. https://gw.example.com)`);
      }
      return url.origin;
    });
}

/** The emulator's base URL from the environment; a missing or malformed one is an error that says how to set it. */
export function emulatorUrlFrom(env: Record<string, string | undefined>): URL {
  const value = env[EMULATOR_URL_VARIABLE];
  if (!value) {
    throw new Error(`clanstream/compat-preload: set ${EMULATOR_URL_VARIABLE} to the emulator's URL (e.g. http://127.0.0.1:7350, as \`clanstream emulator --compat\` prints it)`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`clanstream/compat-preload: ${EMULATOR_URL_VARIABLE} is not a URL: "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`clanstream/compat-preload: ${EMULATOR_URL_VARIABLE} must be an http(s) URL, got "${value}"`);
  return url;
}

/** The URL a request goes to: a production origin's request goes to the emulator, every other request is left alone. */
export function redirect(target: string, emulator: URL, origins: readonly string[] = PRODUCTION_ORIGINS): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return target;
  }
  if (!origins.includes(url.origin)) return target;
  const base = emulator.pathname.replace(/\/+$/, '');
  return `${emulator.origin}${base}${url.pathname}${url.search}`;
}
