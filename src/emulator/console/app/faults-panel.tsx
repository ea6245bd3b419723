import { useRef, useState } from 'preact/hooks';
import type { ConsoleBotStatus, ConsoleFault } from '../contract.js';
import { consoleApi, reasonOf } from './console-api.js';
import { usePoll } from './use-poll.js';
import { VIEW_DEFAULTS } from './view-defaults.js';

const STATE_TEXT: Record<ConsoleBotStatus['state'], string> = {
  online: 'online',
  offline: 'offline',
  reconnecting: 'reconnecting…',
  recovered: 'recovered',
};

/** Each bot's states since the last fault, in order, without repeats. */
type Histories = Map<string, Array<ConsoleBotStatus['state']>>;

function record(histories: Histories, bots: readonly ConsoleBotStatus[]): void {
  for (const bot of bots) {
    const seen = histories.get(bot.id) ?? [];
    if (seen[seen.length - 1] !== bot.state) histories.set(bot.id, [...seen, bot.state]);
  }
}

function BotLine({ bot, history }: { bot: ConsoleBotStatus; history: ReadonlyArray<ConsoleBotStatus['state']> }) {
  return (
    <li class="bot" data-bot-id={bot.id} data-state={bot.state}>
      <strong>{bot.username}</strong>: <span class="state">{STATE_TEXT[bot.state]}</span>
      {bot.fault && <small> after “{bot.fault.kind}” at {new Date(bot.fault.at).toLocaleTimeString()}</small>}
      {bot.recovery && (
        <small>
          {' '}
          — came back with {bot.recovery.how === 'resume' ? 'a resume (same session, nothing missed)' : 'a new session (then a resync)'} at {new Date(bot.recovery.at).toLocaleTimeString()}
        </small>
      )}
      {bot.fault && <div class="history">{history.map((state) => STATE_TEXT[state]).join(' → ')}</div>}
    </li>
  );
}

const FAULTS: Array<[ConsoleFault, string, string]> = [
  [{ kind: 'drop' }, 'Drop every connection', 'cuts every gateway socket without a close frame; sessions stay resumable'],
  [{ kind: 'restart', downMs: 1000 }, 'Restart the emulator (1 s down)', 'a crash: gateway sessions are lost, clients start anew and resync'],
  [{ kind: 'expire-tokens' }, 'Expire every token', 'sockets close with 4004; clients refresh their session'],
  [{ kind: 'refresh-sessions' }, 'Refresh sessions (production protocol, sdk-2.8.44)', 'era-C sockets get refresh_session_event with a new session and go on under it'],
  [{ kind: 'rate-limit', count: 3, retryAfterSeconds: 1 }, 'Rate limit the next 3 requests', '429 with Retry-After: 1 on /v2'],
  [{ kind: 'fail-http', status: 503, count: 1 }, 'Fail the next request (503)', 'one HTTP request answers 503'],
  [{ kind: 'service', service: 'ledger', down: true }, 'Take the ledger down', 'token transfers fail with 503'],
  [{ kind: 'service', service: 'ledger', down: false }, 'Bring the ledger back', ''],
  [{ kind: 'clear-http' }, 'Clear pending HTTP faults', ''],
];

/** The bots' connection status, and buttons that break the emulator on purpose so a person can watch a bot recover. */
export function FaultsPanel() {
  const histories = useRef<Histories>(new Map());
  const { value: bots, problem, again } = usePoll(async () => {
    const next = await consoleApi.bots();
    record(histories.current, next);
    return next;
  }, VIEW_DEFAULTS.botsEveryMs);
  const [done, setDone] = useState<string | undefined>();
  const [delayMs, setDelayMs] = useState(3000);
  const inject = async (fault: ConsoleFault, what: string) => {
    try {
      const after = await consoleApi.fault(fault);
      if (after.some((bot) => bot.state === 'reconnecting')) histories.current.clear();
      record(histories.current, after);
      setDone(`${what}: done`);
    } catch (error) {
      setDone(`${what}: ${reasonOf(error)}`);
    }
    again();
  };
  return (
    <section aria-label="Faults" class="panel" id="faults">
      <h3>Bots</h3>
      {problem && <p role="alert">{problem}</p>}
      <ul class="bots">
        {bots?.map((bot) => (
          <BotLine bot={bot} history={histories.current.get(bot.id) ?? []} />
        ))}
      </ul>
      <h3>Inject a fault</h3>
      <ul class="fault-buttons">
        {FAULTS.map(([fault, label, help]) => (
          <li>
            <button type="button" data-fault={fault.kind} onClick={() => void inject(fault, label)} title={help}>
              {label}
            </button>
            {help && <small> {help}</small>}
          </li>
        ))}
        <li>
          <label>
            Delay everything for{' '}
            <input type="number" min={1} max={60000} step={500} value={delayMs} onInput={(e) => setDelayMs(Number((e.currentTarget).value))} aria-label="delay in milliseconds" /> ms
          </label>{' '}
          <button type="button" data-fault="delay" onClick={() => void inject({ kind: 'delay', ms: delayMs }, `Delay ${delayMs} ms`)}>
            Delay
          </button>
        </li>
      </ul>
      {done && (
        <p role="status" class="fault-result">
          {done}
        </p>
      )}
    </section>
  );
}
