import { performance } from 'node:perf_hooks';
import { ServiceClient } from '../../client/service-client.js';
import type { DebugRecord } from '../../debug/records.js';
import type { ClanstreamError } from '../../errors/clanstream-error.js';
import type { PlatformProtocol } from '../../protocol/platform-protocol.js';
import { production } from '../../production/sdk-2.8.33/index.js';
import type { DialectName } from '../../production/wire/dialects.js';
import { silentLogger } from '../../util/logger.js';

/** The protocols the doctor can speak: clanstream's own, or production in one dialect. */
export type DoctorDialect = 'clanstream' | DialectName;

export const DOCTOR_DIALECTS: readonly DoctorDialect[] = ['clanstream', 'sdk-2.8.33', 'sdk-2.8.37', 'sdk-2.8.44'];

/** What the doctor was told to check. */
export interface DoctorSettings {
  botId: string;
  token: string;
  host?: string;
  port?: string;
  useSSL?: boolean;
  mmnApiUrl?: string;
  zkApiUrl?: string;
  /** Per request and per step, ms. */
  timeoutMs: number;
  /** A channel to send one message to; nothing is sent without it. */
  send?: string;
}

/** One step of a check, as the report shows it. */
export interface DoctorStep {
  name: 'login' | 'socket' | 'clans' | 'send';
  ok: boolean;
  /** What was asked (URLs have their tokens redacted by the report). */
  url?: string;
  /** Milliseconds from the start of the attempt to the step's answer. */
  ms?: number;
  result: string;
}

/** A debug record with when it came, ms after the attempt started. */
export interface TimedRecord {
  atMs: number;
  record: DebugRecord;
}

/** One login in one dialect: its steps, its records, and the error that ended it. */
export interface Attempt {
  dialect: DoctorDialect;
  ok: boolean;
  steps: DoctorStep[];
  records: TimedRecord[];
  errors: string[];
  /** The session's tokens, for the report's redactor (never printed). */
  secrets: string[];
  /** The dialect the server named when it speaks another one. */
  serverSpeaks?: DialectName;
  /** The login was answered (2xx) in a form this protocol cannot read (production's protobuf Session to a JSON client). */
  loginUnreadable: boolean;
}

/** The text by which a production codec names the dialect the server speaks ("set the dialect to sdk-2.8.37"). */
const NAMED_DIALECT = /set the dialect to (sdk-\d+\.\d+\.\d+)/;

const describe = (error: unknown): string => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

function protocolOf(dialect: DoctorDialect): PlatformProtocol | 'clanstream' {
  // The doctor's REST calls are few: production's pace (one call per 1,024 ms) is kept.
  return dialect === 'clanstream' ? 'clanstream' : production({ dialect });
}

/** Rejects after `ms` with `what` in the message, unless `work` settles first. */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Logs in as the bot in one dialect, once, and reads what each step did from the client's debug records. */
export async function attempt(settings: DoctorSettings, dialect: DoctorDialect): Promise<Attempt> {
  const records: TimedRecord[] = [];
  const errors: string[] = [];
  const start = performance.now();
  const since = (): number => Math.round(performance.now() - start);
  const client = new ServiceClient({
    botId: settings.botId,
    token: settings.token,
    ...(settings.host !== undefined ? { host: settings.host } : {}),
    ...(settings.port !== undefined ? { port: settings.port } : {}),
    ...(settings.useSSL !== undefined ? { useSSL: settings.useSSL } : {}),
    ...(settings.mmnApiUrl !== undefined ? { mmnApiUrl: settings.mmnApiUrl } : {}),
    ...(settings.zkApiUrl !== undefined ? { zkApiUrl: settings.zkApiUrl } : {}),
    protocol: protocolOf(dialect),
    timeout: settings.timeoutMs,
    requestTimeoutMs: settings.timeoutMs,
    // One try of each: the doctor reports what happens, it does not wait for a server to come back.
    reconnect: { loginAttempts: 1, maxAttempts: 0 },
    apiRetry: { retries: 0 },
    unhandledErrors: 'silent',
    logger: silentLogger,
  });
  const watching = client.debug$.subscribe((record) => records.push({ atMs: since(), record }));
  const errorWatch = client.errors$.subscribe((error: ClanstreamError) => errors.push(describe(error)));
  const steps: DoctorStep[] = [];
  let loginError: unknown;
  let readyAt: number | undefined;
  try {
    await within(client.login(), settings.timeoutMs * 3, 'the login');
    readyAt = since();
  } catch (error) {
    loginError = error;
  }
  const secrets = sessionSecrets(client);

  const auth = records.find((r) => r.record.topic === 'http' && /authenticate/.test(r.record.route));
  const authRecord = auth?.record.topic === 'http' ? auth.record : undefined;
  const answered = authRecord?.type === 'http_answer' && authRecord.status >= 200 && authRecord.status < 300;
  // Answered, but the answer could not be read as a session: the login failed all the same.
  const loginUnreadable = answered && loginError instanceof Error && /authenticate/.test(loginError.message);
  const loggedIn = answered && !loginUnreadable;
  const httpResult = authRecord ? (authRecord.type === 'http_answer' ? `HTTP ${authRecord.status}` : authRecord.reason) : undefined;
  steps.push({
    name: 'login',
    ok: loggedIn,
    ...(authRecord ? { url: `POST ${authRecord.url}` } : {}),
    ...(auth ? { ms: auth.atMs } : {}),
    result: loggedIn ? httpResult! : [httpResult, loginError === undefined ? undefined : describe(loginError)].filter(Boolean).join(': ') || 'no login request was made',
  });
  const connecting = records.find((r) => r.record.topic === 'gateway' && r.record.type === 'connecting');
  const socketUrl = connecting?.record.topic === 'gateway' && connecting.record.type === 'connecting' ? connecting.record.url : undefined;
  steps.push({
    name: 'socket',
    ok: readyAt !== undefined,
    ...(socketUrl ? { url: socketUrl } : {}),
    ...(readyAt !== undefined ? { ms: readyAt } : {}),
    result: readyAt !== undefined ? 'ready' : loggedIn ? describe(loginError) : 'not tried: the login failed',
  });
  if (readyAt !== undefined) {
    const clans = [...client.clans].map(([id, clan]) => `${id} (${clan.name})`);
    steps.push({ name: 'clans', ok: true, result: clans.length === 0 ? 'the bot is in no clan' : `${clans.length} joined: ${clans.join(', ')}` });
    if (settings.send !== undefined) steps.push(await sendStep(client, settings, since));
  }
  watching.unsubscribe();
  errorWatch.unsubscribe();
  client.destroy();
  const named = NAMED_DIALECT.exec(loginError instanceof Error ? loginError.message : '')?.[1] as DialectName | undefined;
  return { dialect, ok: steps.every((s) => s.ok), steps, records, errors, secrets, loginUnreadable, ...(named ? { serverSpeaks: named } : {}) };
}

async function sendStep(client: ServiceClient, settings: DoctorSettings, since: () => number): Promise<DoctorStep> {
  const channelId = settings.send!;
  try {
    const channel = await within(client.channels.fetch(channelId), settings.timeoutMs, `fetching channel ${channelId}`);
    const sent = await within(channel.send({ t: 'clanstream doctor: a test message' }), settings.timeoutMs, 'the send');
    return { name: 'send', ok: true, ms: since(), result: `message ${sent.message_id} sent to channel ${channelId}` };
  } catch (error) {
    return { name: 'send', ok: false, ms: since(), result: describe(error) };
  }
}

/** The tokens of the session the client holds (to remove from the report). */
function sessionSecrets(client: ServiceClient): string[] {
  try {
    const session = client.sessionManager.getSession();
    return session ? [session.token, session.refresh_token, ...(session.id_token ? [session.id_token] : [])].filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}
