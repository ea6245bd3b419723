import { DEFAULT_WORLD, startEmulator, type Emulator } from '../emulator/index.js';
import { exposureWarning, isLoopbackHost } from '../emulator/console/remote-access.js';
import { parse, UsageError } from './args.js';

export const EMULATOR_USAGE = `Usage: clanstream emulator [--port N] [--host H] [--seed world.json] [--data-dir DIR] [--production-protocol]

Starts a local emulator of the platform with a seeded world and prints its
URL, the credentials of the seeded bots and users, and its webhook URLs.
Ctrl+C stops it.

  --port N          port to listen on (default 7350; 0 picks a free one)
  --host H          interface to bind (default 127.0.0.1); anything but loopback prints a warning
  --allow-remote-console
                    serve the web console (every API key, acting as any user, fault
                    controls) to other machines too; by default it answers this machine only
  --seed FILE       a world to create instead of the built-in demo world
                    (format: schemas/world-seed.schema.json in the package)
  --data-dir DIR    keep the world in DIR: accounts and API keys, clans,
                    channels, messages, webhooks, balances and the secret
                    survive a restart (the seed only creates the first world)
  --secret S        signing secret; the same secret gives the same seeded API
                    keys and webhook URLs and keeps issued sessions valid
                    across restarts (default: random, or the data dir's)
  --token-ttl S     lifetime of session tokens in seconds (default 3600)
  --cors ORIGIN     let pages of ORIGIN (e.g. http://localhost:5173) call the
                    API from a browser; repeat it for more origins, "*" for any;
                    never the console or the test API (/emulator/...), which hand
                    out API keys and webhook tokens to this machine's tools only
  --production-protocol, --compat
                    also serve the platform's production protocol over the same
                    world, in each of its wire dialects, told apart per connection:
                    sdk-2.8.33 (JSON REST on /v2/*, string ids: the official SDK
                    2.8.33, whose bots run unchanged), sdk-2.8.37 and sdk-2.8.44
                    (protobuf RPCs on /mezon.api.Mezon/<Method>, int64 ids; the
                    web client mezon-js; sdk-2.8.44 adds int32 cids, socket RPCs
                    answered in 0xFF frames and refresh_session_event).
                    See docs/COMPAT.md and docs/DIALECTS.md`;

/** `scheme://host[:port]` with nothing after it, as a browser sends in `Origin`; or `*`. */
function isOrigin(text: string): boolean {
  if (text === '*') return true;
  try {
    const url = new URL(text);
    return /^https?:$/.test(url.protocol) && url.origin === text;
  } catch {
    return false;
  }
}

/** Default CLI port (the library's tests use port 0). */
export const DEFAULT_CLI_PORT = 7350;

function portOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CLI_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${text}"`);
  return port;
}

/** The banner printed at start: where to connect, who can log in, the webhooks, and `notes` on how it runs. */
export function describe(emu: Emulator, notes: readonly string[] = []): string {
  const lines = [
    `clanstream emulator listening on ${emu.url}`,
    `  console  ${emu.url}/  (watch channels live and talk as a user)`,
    `  gateway  ${emu.url.replace(/^http/, 'ws')}/ws`,
    `  ledger   ${emu.url}/mmn`,
    `  prover   ${emu.url}/zk`,
    ...(emu.options.compat
      ? [
          `  production protocol  sdk-2.8.33, sdk-2.8.37, sdk-2.8.44 (REST /v2/* and /mezon.api.Mezon/*, socket ${emu.url.replace(/^http/, 'ws')}/ws?format=protobuf)`,
          `  compat   official-SDK bots: CLANSTREAM_EMULATOR_URL=${emu.url} node --import clanstream/compat-preload bot.js`,
        ]
      : []),
    '',
    'Accounts (log in with botId = id and token = API key):',
  ];
  for (const account of emu.credentials()) {
    lines.push(`  ${account.is_bot ? 'bot ' : 'user'}  ${account.username.padEnd(10)} id ${account.id}  token ${account.token}`);
  }
  const clans = emu.clans();
  if (clans.length > 0) {
    lines.push('', 'Clans:');
    for (const clan of clans) {
      const channels = emu.channels(clan.id).map((c) => `#${c.channel_label}`);
      lines.push(`  ${clan.name} (id ${clan.id}): ${channels.join(' ')}`);
    }
  }
  lines.push(...describeWebhooks(emu));
  lines.push('', ...notes, 'Press Ctrl+C to stop.');
  return lines.join('\n');
}

/** The banner's webhook lines: each URL, what it posts to, and how to make more. */
function describeWebhooks(emu: Emulator): string[] {
  const hooks = emu.webhooks();
  const lines = ['', 'Webhooks (post with "clanstream webhook channel|clan <url> …"):'];
  for (const hook of hooks) {
    const target = hook.kind === 'channel' ? `#${emu.channel(hook.targetId).channel_label ?? hook.targetId}` : emu.clan(hook.targetId).name;
    lines.push(`  ${hook.kind.padEnd(7)} ${`${hook.name} → ${target}`.padEnd(24)} ${hook.url}${hook.kind === 'clan' ? '  (append /<user>)' : ''}`);
  }
  if (hooks.length === 0) lines.push('  (none yet)');
  lines.push(`  more: clanstream webhook create ${emu.url} --channel <id or name> | --clan <id or name>`);
  return lines;
}

/** `clanstream emulator …`: runs until SIGINT or SIGTERM, then closes cleanly. */
export async function runEmulator(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parse(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    seed: { type: 'string' },
    'token-ttl': { type: 'string' },
    secret: { type: 'string' },
    'allow-remote-console': { type: 'boolean' },
    compat: { type: 'boolean' },
    'production-protocol': { type: 'boolean' },
    'data-dir': { type: 'string' },
    cors: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    out(EMULATOR_USAGE);
    return 0;
  }
  const ttl = values['token-ttl'] === undefined ? undefined : Number(values['token-ttl']);
  if (ttl !== undefined && !(ttl > 0)) throw new UsageError('--token-ttl must be a positive number of seconds');
  const cors = values.cors ?? [];
  for (const origin of cors) if (!isOrigin(origin)) throw new UsageError(`--cors takes an origin such as http://localhost:5173 (scheme, host and port only) or "*", got "${origin}"`);
  if (values.secret === '') throw new UsageError('--secret must not be empty');
  // Listen before the banner goes out: a supervisor that signals as soon as it reads
  // "Press Ctrl+C" must find a handler, not the default action that kills the process.
  let resolveStop!: () => void;
  const stopRequested = new Promise<void>((resolve) => (resolveStop = resolve));
  const detach = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
  // Detached at the first signal so that a second Ctrl+C still kills a close that hangs.
  const stop = (signal: NodeJS.Signals): void => {
    out(`\n${signal} received; stopping the emulator.`);
    detach();
    resolveStop();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const host = values.host ?? '127.0.0.1';
  const allowRemoteConsole = values['allow-remote-console'] ?? false;
  try {
    const emu = await startEmulator({
      port: portOf(values.port),
      host,
      allowRemoteConsole,
      seed: values.seed ?? DEFAULT_WORLD,
      ...(ttl !== undefined ? { tokenTtlSeconds: ttl } : {}),
      ...(values.secret ? { secret: values.secret } : {}),
      ...(values.compat || values['production-protocol'] ? { compat: true } : {}),
      ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
      ...(cors.length > 0 ? { corsOrigins: cors } : {}),
      log: (line) => out(`[emulator] ${line}`),
    });
    // Before the banner, which lists every API key: whoever reads the keys reads the warning first.
    if (!isLoopbackHost(host)) out(`${exposureWarning(host, allowRemoteConsole)}\n`);
    const notes = [
      ...(values['data-dir'] ? [`The world is kept in ${values['data-dir']} (written as it changes and at exit).`] : []),
      ...(cors.length > 0 ? [`Browser pages of ${cors.join(', ')} may call the API (CORS).`] : []),
    ];
    out(describe(emu, notes));
    await stopRequested;
    await emu.close();
  } finally {
    detach();
  }
  return 0;
}
