import { useEffect, useState } from 'preact/hooks';
import type { ConsoleAccount } from '../contract.js';
import { ActivityPanel } from './activity-panel.js';
import { ChannelNav } from './channel-nav.js';
import { useChanges } from './changes.js';
import { ChatSession } from './chat-session.js';
import { Composer } from './composer.js';
import { consoleApi, reasonOf } from './console-api.js';
import { FaultsPanel } from './faults-panel.js';
import { LedgerPanel } from './ledger-panel.js';
import { MessageList } from './message-list.js';
import { WirePanel } from './wire-panel.js';
import { WorldPanel } from './world-panel.js';

const TABS = ['activity', 'wire', 'ledger', 'world', 'faults'] as const;
type Tab = (typeof TABS)[number];
const TAB_NAMES: Record<Tab, string> = { activity: 'Live', wire: 'Wire', ledger: 'Ledger', world: 'World', faults: 'Faults' };

/** On a phone-width screen one of the three columns shows at a time. */
type View = 'channels' | 'chat' | 'inspect';

function statusText(session: ChatSession | undefined, problem: string | undefined): [state: string, text: string] {
  if (!session) return problem ? ['error', problem] : ['closed', 'choose a user and log in'];
  if (session.status === 'error') return ['error', session.problem ?? 'error'];
  const text = session.status === 'ready' ? `logged in as ${session.account.username}` : `${session.account.username}: ${session.status}`;
  return [session.status, session.problem ? `${text} — ${session.problem}` : text];
}

export function App() {
  const [accounts, setAccounts] = useState<ConsoleAccount[]>([]);
  const [chosen, setChosen] = useState('');
  const [session, setSession] = useState<ChatSession | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const [tab, setTab] = useState<Tab>('activity');
  const [view, setView] = useState<View>('chat');
  useChanges(session?.changes);

  const logIn = (account: ConsoleAccount | undefined) => {
    if (!account) return;
    const next = new ChatSession(account, accounts.length > 0 ? accounts : [account], undefined);
    setSession(next);
    history.replaceState(null, '', `?as=${encodeURIComponent(account.username)}`);
    void next.login();
    consoleApi.world().then((world) => next.setWorld(world), (error: unknown) => setProblem(`could not read the world: ${reasonOf(error)}`));
  };

  useEffect(() => {
    consoleApi.accounts().then(
      (list) => {
        const ordered = [...list.filter((a) => !a.is_bot), ...list.filter((a) => a.is_bot)];
        setAccounts(ordered);
        if (ordered.length === 0) setProblem('the emulator has no accounts: seed a world first');
        const wanted = new URLSearchParams(location.search).get('as');
        setChosen((wanted && ordered.find((a) => a.username === wanted)?.id) || ordered[0]?.id || '');
      },
      (error: unknown) => setProblem(`could not list the accounts: ${reasonOf(error)}`),
    );
  }, []);

  // `?as=name` logs in at once (the "another user in a new tab" link).
  useEffect(() => {
    const wanted = new URLSearchParams(location.search).get('as');
    if (!session && wanted && accounts.length > 0) logIn(accounts.find((a) => a.username === wanted));
  }, [accounts]);

  // The session being replaced (or the page being left) closes its client: no socket outlives it.
  useEffect(() => {
    const close = () => session?.destroy();
    window.addEventListener('pagehide', close);
    return () => {
      window.removeEventListener('pagehide', close);
      close();
    };
  }, [session]);

  const [state, text] = statusText(session, problem);
  useEffect(() => {
    document.body.dataset.status = state;
    if (session?.shown) document.body.dataset.channel = session.shown;
    else delete document.body.dataset.channel;
  });

  const channelId = session?.selected;
  const channel = channelId ? session?.client.channels.get(channelId) : undefined;
  return (
    <>
      <header class="top">
        <h1>clanstream emulator</h1>
        <form
          id="login"
          onSubmit={(event) => {
            event.preventDefault();
            logIn(accounts.find((a) => a.id === chosen));
          }}
        >
          <label>
            Act as{' '}
            <select id="account" name="account" value={chosen} onChange={(e) => setChosen((e.currentTarget).value)}>
              {accounts.map((a) => (
                <option value={a.id}>{a.is_bot ? `${a.username} (bot)` : a.username}</option>
              ))}
            </select>
          </label>{' '}
          <button type="submit">Log in</button>{' '}
          <a href={`/?as=${encodeURIComponent(accounts.find((a) => a.id === chosen)?.username ?? '')}`} target="_blank" rel="noopener" class="new-tab">
            as well, in a new tab
          </a>
        </form>
        <span id="status" role="status">
          {text}
        </span>
      </header>
      <nav class="views" aria-label="Views">
        {(['channels', 'chat', 'inspect'] as const).map((v) => (
          <button type="button" aria-pressed={view === v} onClick={() => setView(v)}>
            {v === 'channels' ? 'Channels' : v === 'chat' ? 'Chat' : 'Inspect'}
          </button>
        ))}
      </nav>
      <main class="layout" data-view={view}>
        <div class="column channels-column">{session ? <ChannelNav session={session} /> : <p class="hint">Pick a user above and log in to see their channels.</p>}</div>
        <section class="column chat-column" aria-label="Chat">
          <h2 id="channel-title">{session && channelId ? session.label(channel, channelId) : 'No channel'}</h2>
          {session && channelId ? <MessageList session={session} channelId={channelId} /> : <ol id="messages" />}
          {session && <Composer session={session} />}
        </section>
        <aside class="column inspect-column" aria-label="Inspect">
          <div role="tablist" class="tabs">
            {TABS.map((t) => (
              <button type="button" role="tab" id={`tab-${t}`} aria-selected={tab === t} onClick={() => setTab(t)}>
                {TAB_NAMES[t]}
              </button>
            ))}
          </div>
          <div role="tabpanel" aria-labelledby={`tab-${tab}`}>
            {tab === 'faults' ? (
              <FaultsPanel />
            ) : !session ? (
              <p class="hint">Log in to follow the wire, the ledger and the world with names.</p>
            ) : tab === 'activity' ? (
              <ActivityPanel session={session} />
            ) : tab === 'wire' ? (
              <WirePanel session={session} />
            ) : tab === 'ledger' ? (
              <LedgerPanel session={session} />
            ) : (
              <WorldPanel session={session} />
            )}
          </div>
        </aside>
      </main>
    </>
  );
}
