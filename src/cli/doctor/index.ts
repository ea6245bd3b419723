/**
 * `clanstream doctor`: logs in as a bot, opens the socket, finds which
 * protocol and dialect the server speaks, joins the clans, and prints a
 * report without secrets that a user can paste into a bug report.
 */
import { SecretRedactor } from '../../util/redact.js';
import { parse, UsageError } from '../args.js';
import type { DialectName } from '../../production/wire/dialects.js';
import { attempt, DOCTOR_DIALECTS, type Attempt, type DoctorDialect, type DoctorSettings } from './attempt.js';
import { formatReport, type DoctorReport } from './report.js';

export const DOCTOR_USAGE = `Usage: clanstream doctor --bot-id ID --token KEY [--host H] [--port P] [--ssl | --no-ssl]
                        [--dialect D] [--send CHANNEL-ID] [--json] [--timeout MS]

Checks a bot's connection and prints a report without secrets, to paste into a bug report:
logs in, opens the socket, finds the protocol the server speaks, joins the clans, and sends
one message only when --send says where.

  --bot-id ID        the bot's id (required)
  --token KEY        the bot's API key (required; never printed)
  --host H           the server (default: the protocol's)
  --port P           its port
  --ssl, --no-ssl    https/wss or http/ws
  --dialect D        auto (default), clanstream, sdk-2.8.33, sdk-2.8.37 or sdk-2.8.44.
                     auto tries clanstream's protocol, then production's dialects: a JSON
                     login answer tries sdk-2.8.33 first, a protobuf one sdk-2.8.44, then
                     sdk-2.8.37; a dialect the server's first frames name is tried next
  --send CHANNEL-ID  send one test message to this channel
  --json             print the report as JSON
  --timeout MS       per request and step (default 10000)
  --mmn-url URL, --zk-url URL
                     the token network and the prover the login prepares transfers with
                     (default: what the session names, else the protocol's)

Exit codes: 0 every step passed, 1 a step failed, 2 usage error.`;

const DEFAULT_TIMEOUT_MS = 10_000;

function settingsOf(argv: string[]): { settings: DoctorSettings; dialect: DoctorDialect | 'auto'; json: boolean } {
  const { values, positionals } = parse(argv, {
    'bot-id': { type: 'string' },
    token: { type: 'string' },
    host: { type: 'string' },
    port: { type: 'string' },
    ssl: { type: 'boolean' },
    'no-ssl': { type: 'boolean' },
    dialect: { type: 'string' },
    send: { type: 'string' },
    json: { type: 'boolean' },
    timeout: { type: 'string' },
    'mmn-url': { type: 'string' },
    'zk-url': { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const botId = values['bot-id'];
  const token = values.token;
  if (!botId) throw new UsageError('--bot-id is required');
  if (!token) throw new UsageError('--token is required');
  if (values.ssl && values['no-ssl']) throw new UsageError('--ssl and --no-ssl contradict each other');
  const dialect = values.dialect ?? 'auto';
  if (dialect !== 'auto' && !(DOCTOR_DIALECTS as readonly string[]).includes(dialect)) {
    throw new UsageError(`--dialect must be auto, ${DOCTOR_DIALECTS.join(', ')}; got "${dialect}"`);
  }
  const timeoutText = values.timeout;
  const timeoutMs = timeoutText === undefined ? DEFAULT_TIMEOUT_MS : Number(timeoutText);
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0)) throw new UsageError(`--timeout must be a positive whole number of ms, got "${timeoutText}"`);
  const port = values.port;
  if (port !== undefined && !/^\d{1,5}$/.test(port)) throw new UsageError(`--port must be a port number, got "${port}"`);
  const useSSL = values.ssl ? true : values['no-ssl'] ? false : undefined;
  const settings: DoctorSettings = {
    botId,
    token,
    timeoutMs,
    ...(values.host !== undefined ? { host: values.host } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(useSSL !== undefined ? { useSSL } : {}),
    ...(values.send !== undefined ? { send: values.send } : {}),
    ...(values['mmn-url'] !== undefined ? { mmnApiUrl: values['mmn-url'] } : {}),
    ...(values['zk-url'] !== undefined ? { zkApiUrl: values['zk-url'] } : {}),
  };
  return { settings, dialect: dialect as DoctorDialect | 'auto', json: values.json ?? false };
}

/**
 * The attempts that find the dialect: the one asked for; or, for `auto`,
 * clanstream's protocol first. Then production, in the order the login's
 * answer points to: a JSON session (clanstream's REST form, era A) tries
 * sdk-2.8.33 first, a protobuf one sdk-2.8.44, then sdk-2.8.37. A dialect
 * named by a socket's first frames ("the server speaks sdk-2.8.37 frames")
 * is tried next.
 */
async function detect(settings: DoctorSettings, dialect: DoctorDialect | 'auto'): Promise<Attempt[]> {
  if (dialect !== 'auto') return [await attempt(settings, dialect)];
  const first = await attempt(settings, 'clanstream');
  const tried: Attempt[] = [first];
  // A key the server refused is refused in every protocol: the report says so once.
  if (first.ok || first.steps[0]?.result.startsWith('HTTP 401')) return tried;
  const queue: DialectName[] = first.loginUnreadable ? ['sdk-2.8.44', 'sdk-2.8.37'] : ['sdk-2.8.33', 'sdk-2.8.44', 'sdk-2.8.37'];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (tried.some((a) => a.dialect === next)) continue;
    const result = await attempt(settings, next);
    tried.push(result);
    if (result.ok) break;
    if (result.serverSpeaks) queue.unshift(result.serverSpeaks);
  }
  return tried;
}

/** Runs `clanstream doctor`; resolves with the exit code. */
export async function runDoctor(argv: string[], out: (line: string) => void): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    out(DOCTOR_USAGE);
    return 0;
  }
  const { settings, dialect, json } = settingsOf(argv);
  const attempts = await detect(settings, dialect);
  const redactor = new SecretRedactor({ minLength: 1 });
  redactor.add(settings.token);
  for (const a of attempts) for (const secret of a.secrets) redactor.add(secret);
  const final = attempts[attempts.length - 1]!;
  const report: DoctorReport = {
    server: { host: settings.host ?? '(the protocol default)', port: settings.port ?? '(the protocol default)', ssl: settings.useSSL ?? '(the protocol default)' },
    botId: settings.botId,
    dialectAsked: dialect,
    dialect: final.ok ? final.dialect : undefined,
    ok: final.ok,
    attempts,
  };
  for (const line of formatReport(report, json, (text) => redactor.redact(text))) out(line);
  return final.ok ? 0 : 1;
}
