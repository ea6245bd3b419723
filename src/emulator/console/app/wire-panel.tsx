import { useEffect, useRef, useState } from 'preact/hooks';
import type { ConsoleWireEntry } from '../contract.js';
import type { ChatSession } from './chat-session.js';
import { consoleApi, reasonOf } from './console-api.js';
import { VIEW_DEFAULTS } from './view-defaults.js';


function describe(entry: ConsoleWireEntry): string {
  return entry.body === undefined ? '' : JSON.stringify(entry.body);
}

/** Requests and frames the emulator received and the events it pushed, newest first, filtered by channel, user and kind. */
export function WirePanel({ session }: { session: ChatSession }) {
  const [channel, setChannel] = useState('');
  const [user, setUser] = useState('');
  const [kind, setKind] = useState('');
  const [lines, setLines] = useState<ConsoleWireEntry[]>([]);
  const [problem, setProblem] = useState<string | undefined>();
  const last = useRef(0);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    last.current = 0;
    setLines([]);
    const poll = async () => {
      try {
        const page = await consoleApi.wire(last.current, { channel, user, kind });
        if (!live) return;
        last.current = page.last;
        setProblem(undefined);
        if (page.entries.length > 0) setLines((old) => [...[...page.entries].reverse(), ...old].slice(0, VIEW_DEFAULTS.wireShown));
      } catch (error) {
        if (live) setProblem(reasonOf(error));
      }
      if (live) timer = setTimeout(() => void poll(), VIEW_DEFAULTS.wireEveryMs);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [channel, user, kind]);

  const channels = session.sections().flatMap((s) => s.channels);
  return (
    <section aria-label="Wire log" class="panel" id="wire">
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Channel
          <select value={channel} onChange={(e) => setChannel((e.currentTarget).value)} name="channel">
            <option value="">any</option>
            {channels.map((c) => (
              <option value={c.id}>{session.label(c)}</option>
            ))}
          </select>
        </label>
        <label>
          User
          <select value={user} onChange={(e) => setUser((e.currentTarget).value)} name="user">
            <option value="">any</option>
            {session.directory('').users.map((u) => (
              <option value={u.id}>{u.name}</option>
            ))}
          </select>
        </label>
        <label>
          Kind
          <input name="kind" value={kind} placeholder="e.g. channel_message" onInput={(e) => setKind((e.currentTarget).value)} />
        </label>
      </form>
      {problem && <p role="alert">{problem}</p>}
      <ol class="wire-lines">
        {lines.map((line) => (
          <li key={line.seq} data-direction={line.direction} data-kind={line.kind}>
            <span class="arrow" title={line.direction === 'in' ? 'received' : 'pushed'}>
              {line.direction === 'in' ? '→' : '←'}
            </span>{' '}
            <time>{new Date(line.at).toLocaleTimeString()}</time> <strong>{line.kind}</strong>
            {line.protocol !== undefined && <span class="protocol" title="production protocol dialect"> [{line.protocol}]</span>}
            {line.status !== undefined && <span class="status"> {line.status}</span>}
            {line.user_ids.length > 0 && <span class="users"> {line.user_ids.map((id) => session.nameOf(id)).join(', ')}</span>}
            <code class="body">{describe(line)}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}
