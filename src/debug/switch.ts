import { DEBUG_TOPICS, type DebugTopic } from './records.js';

/** How debug output is chosen in code: on, off, or only some topics. */
export type DebugSetting = boolean | readonly DebugTopic[];

/** The environment variables that turn debug output on, as read from `process.env` when there is one. */
export interface DebugEnvironment {
  /** `1`, `true`, `yes`, `on` or `*` for every topic; or a list such as `gateway,outbox`; `0` or `false` for none. */
  CLANSTREAM_DEBUG?: string | undefined;
  /** The `debug` package's convention: `clanstream*`, `clanstream:gateway`, `*`; `-clanstream:outbox` leaves a topic out. */
  DEBUG?: string | undefined;
}

const ON = /^(1|true|yes|on|\*)$/i;
const OFF = /^(0|false|no|off)?$/i;

/** The environment of this process, or an empty one (browsers have no `process`). */
export function processEnvironment(): DebugEnvironment {
  // Read defensively: the library entry also runs in browsers, where `process` does not exist.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env ? { CLANSTREAM_DEBUG: env.CLANSTREAM_DEBUG, DEBUG: env.DEBUG } : {};
}

function isTopic(name: string): name is DebugTopic {
  return (DEBUG_TOPICS as readonly string[]).includes(name);
}

/** `DEBUG`-style patterns (`*` wildcards, `-` to exclude) matched against `clanstream:<topic>`. */
function fromDebugPatterns(value: string): Set<DebugTopic> {
  const patterns = value.split(/[\s,]+/).filter(Boolean);
  const toRegExp = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*?')}$`);
  const include = patterns.filter((p) => !p.startsWith('-')).map(toRegExp);
  const exclude = patterns.filter((p) => p.startsWith('-')).map((p) => toRegExp(p.slice(1)));
  // `DEBUG=clanstream` names the whole library, as the debug package's root namespace would.
  const matches = (list: RegExp[], topic: DebugTopic) => list.some((re) => re.test(`clanstream:${topic}`) || re.test('clanstream'));
  return new Set(DEBUG_TOPICS.filter((topic) => matches(include, topic) && !exclude.some((re) => re.test(`clanstream:${topic}`))));
}

/**
 * The topics to print. An explicit setting wins; otherwise `CLANSTREAM_DEBUG`,
 * then `DEBUG`, decide. Unknown names in `CLANSTREAM_DEBUG` are ignored.
 */
export function debugTopics(setting: DebugSetting | undefined, env: DebugEnvironment = processEnvironment()): ReadonlySet<DebugTopic> {
  if (setting === true) return new Set(DEBUG_TOPICS);
  if (setting === false) return new Set();
  if (setting !== undefined) return new Set(setting.filter(isTopic));
  const own = env.CLANSTREAM_DEBUG?.trim();
  if (own !== undefined && own !== '') {
    if (ON.test(own)) return new Set(DEBUG_TOPICS);
    if (OFF.test(own)) return new Set();
    return new Set(own.split(/[\s,]+/).map((name) => name.replace(/^clanstream:/, '')).filter(isTopic));
  }
  return env.DEBUG ? fromDebugPatterns(env.DEBUG) : new Set();
}
