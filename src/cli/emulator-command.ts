import { DEFAULT_WORLD, exposureWarning, isLoopbackHost, startEmulator, type Emulator } from '../emulator/index.js';
import { parse, UsageError } from './args.js';

export const EMULATOR_USAGE = `Usage: clanstream emulator [--port N] [--host H] [--seed world.json] [--compat]

Starts a local emulator of the platform with a seeded world and prints its
URL and the credentials of the seeded bot and users. Ctrl+C stops it.

  --port N          port to listen on (default 7350; 0 picks a free one)
  --host H          interface to bind (default 127.0.0.1); anything but loopback prints a warning
  --allow-remote-console
                    serve the web console (every API key, acting as any user, fault
                    controls) to other machines too; by default it answers this machine only
  --seed FILE       a world to create instead of the built-in demo world
  --token-ttl S     lifetime of session tokens in seconds (default 3600)
  --secret S        signing secret; keep it to keep sessions valid across restarts
  --compat          also speak the platform's production protocol, so bots written
                    with its official SDK run unchanged (docs/COMPAT.md)`;

/** Default CLI port (the library's tests use port 0). */
export const DEFAULT_CLI_PORT = 7350;

function portOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CLI_PORT;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got "${text}"`);
  return port;
}

/** The banner printed at start: where to connect and who can log in. */
export function describe(emu: Emulator): string {
  const lines = [
    `clanstream emulator listening on ${emu.url}`,
    `  console  ${emu.url}/  (watch channels live and talk as a user)`,
    `  gateway  ${emu.url.replace(/^http/, 'ws')}/ws`,
    `  ledger   ${emu.url}/mmn`,
    `  prover   ${emu.url}/zk`,
    ...(emu.options.compat ? [`  compat   official-SDK bots: CLANSTREAM_EMULATOR_URL=${emu.url} node --import clanstream/compat-preload bot.js`] : []),
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
  lines.push('', 'Press Ctrl+C to stop.');
  return lines.join('\n');
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
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    out(EMULATOR_USAGE);
    return 0;
  }
  const ttl = values['token-ttl'] === undefined ? undefined : Number(values['token-ttl']);
  if (ttl !== undefined && !(ttl > 0)) throw new UsageError('--token-ttl must be a positive number of seconds');
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
      ...(values.compat ? { compat: true } : {}),
      log: (line) => out(`[emulator] ${line}`),
    });
    // Before the banner, which lists every API key: whoever reads the keys reads the warning first.
    if (!isLoopbackHost(host)) out(`${exposureWarning(host, allowRemoteConsole)}\n`);
    out(describe(emu));
    await stopRequested;
    await emu.close();
  } finally {
    detach();
  }
  return 0;
}
