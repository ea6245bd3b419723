/**
 * The web console (runs in the browser, served as /console/app.js): pick a
 * seeded account, log in as it with clanstream's ServiceClient, watch every
 * channel live and talk in one. It imports the library from the browser
 * bundle served beside it (`/console/clanstream.js`), so the console is a
 * real user of that bundle.
 */
import { ChannelType, Events, ServiceClient, TypeMessage, type ChannelMessage, type TextChannel } from './clanstream.js';

/** One entry of GET /console/accounts. */
interface ConsoleAccount {
  id: string;
  username: string;
  display_name: string;
  is_bot: boolean;
  token: string;
}

function element<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`the console page has no ${selector}`);
  return found;
}

const ui = {
  login: element<HTMLFormElement>('#login'),
  account: element<HTMLSelectElement>('#account'),
  status: element<HTMLElement>('#status'),
  channels: element<HTMLElement>('#channels'),
  title: element<HTMLElement>('#channel-title'),
  messages: element<HTMLOListElement>('#messages'),
  activity: element<HTMLOListElement>('#activity'),
  send: element<HTMLFormElement>('#send'),
  text: element<HTMLInputElement>('#text'),
  sendButton: element<HTMLButtonElement>('#send button'),
};

/** Messages shown in the activity feed before the oldest are dropped. */
const ACTIVITY_LIMIT = 200;
const VOICE_TYPES = new Set<number>([ChannelType.CHANNEL_TYPE_GMEET_VOICE, ChannelType.CHANNEL_TYPE_SERVICE_VOICE]);

let accounts: ConsoleAccount[] = [];
let client: ServiceClient | undefined;
let selected: string | undefined;
/** DM channel id → who wrote in it (DM channels learnt from a message carry no member list). */
const dmPeers = new Map<string, string>();

function setStatus(status: string, text: string): void {
  document.body.dataset.status = status;
  ui.status.textContent = text;
}

function li(...parts: Array<[className: string, text: string]>): HTMLLIElement {
  const item = document.createElement('li');
  for (const [className, text] of parts) {
    const span = document.createElement('span');
    span.className = className;
    span.textContent = text;
    item.append(span);
  }
  return item;
}

function textOf(message: ChannelMessage): string {
  const text = message.content.t ?? '';
  if (text) return text;
  const embed = message.content.embed?.[0];
  return embed ? `[embed] ${embed.title ?? embed.description ?? ''}` : '[no text]';
}

function channelLabel(channel: TextChannel): string {
  if (channel.isDirect) {
    // Named after the other participants: a DM's own label is the same for both sides.
    const others = (channel.record.user_ids ?? []).filter((id) => id !== client?.clientId).map((id) => accounts.find((a) => a.id === id)?.username ?? id);
    return `@ ${others.join(', ') || dmPeers.get(channel.id) || channel.name || channel.id}`;
  }
  const type: ChannelType = channel.channel_type ?? 0;
  const kind = VOICE_TYPES.has(type) ? ' (voice)' : type === ChannelType.CHANNEL_TYPE_STREAMING ? ' (stream)' : '';
  return `# ${channel.name ?? channel.id}${kind}`;
}

// ---------------- messages ----------------

function messageItem(message: ChannelMessage): HTMLLIElement {
  const item = li(['who', message.display_name || message.username], ['text', textOf(message)]);
  item.dataset.messageId = message.message_id;
  item.dataset.senderId = message.sender_id;
  return item;
}

/** Adds, edits or removes a message in the open channel's list. */
function showInChannel(message: ChannelMessage): void {
  if (message.channel_id !== selected) return;
  const existing = ui.messages.querySelector<HTMLLIElement>(`li[data-message-id="${CSS.escape(message.message_id)}"]`);
  if (message.code === TypeMessage.ChatRemove || message.code === TypeMessage.DeleteEphemeralMsg) {
    existing?.remove();
    return;
  }
  const item = messageItem(message);
  if (existing) existing.replaceWith(item);
  else if (message.code !== TypeMessage.ChatUpdate) ui.messages.append(item);
  item.scrollIntoView({ block: 'nearest' });
}

function showInActivity(message: ChannelMessage): void {
  if (message.code === TypeMessage.ChatRemove) return;
  const channel = client?.channels.get(message.channel_id);
  const item = li(['where', channel ? channelLabel(channel) : message.channel_label || message.channel_id], ['who', message.username], ['text', textOf(message)]);
  ui.activity.prepend(item);
  while (ui.activity.children.length > ACTIVITY_LIMIT) ui.activity.lastElementChild?.remove();
}

function onMessage(message: ChannelMessage): void {
  if (message.code === TypeMessage.Typing || message.code === TypeMessage.Indicator) return;
  if (message.clan_id === '0' && message.sender_id !== client?.clientId && !dmPeers.has(message.channel_id)) {
    dmPeers.set(message.channel_id, message.username);
    queueRender();
  }
  showInChannel(message);
  showInActivity(message);
}

// ---------------- channels ----------------

function channelButton(channel: TextChannel): HTMLLIElement {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = channelLabel(channel);
  button.dataset.channelId = channel.id;
  button.setAttribute('aria-current', String(channel.id === selected));
  button.addEventListener('click', () => void openChannel(channel.id));
  item.append(button);
  return item;
}

function section(title: string, channels: TextChannel[]): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const heading = document.createElement('h2');
  heading.textContent = title;
  const list = document.createElement('ul');
  for (const channel of channels.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''))) list.append(channelButton(channel));
  fragment.append(heading, list);
  return fragment;
}

function renderChannels(): void {
  const current = client;
  if (!current) return;
  const parts: DocumentFragment[] = [];
  for (const clan of current.clans.values()) parts.push(section(clan.name, current.channels.filter((c) => c.clan_id === clan.id && !c.isDirect)));
  const direct = current.channels.filter((c) => c.isDirect);
  if (direct.length > 0) parts.push(section('Direct messages', direct));
  ui.channels.replaceChildren(...parts);
}

let renderQueued = false;
function queueRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  queueMicrotask(() => {
    renderQueued = false;
    renderChannels();
  });
}

async function openChannel(channelId: string): Promise<void> {
  const current = client;
  if (!current) return;
  selected = channelId;
  delete document.body.dataset.channel;
  const channel = current.channels.get(channelId);
  ui.title.textContent = channel ? channelLabel(channel) : channelId;
  ui.messages.replaceChildren();
  renderChannels();
  ui.text.disabled = false;
  ui.sendButton.disabled = false;
  try {
    const page = await current.api.listMessages(channelId, { limit: 50 });
    if (client !== current || selected !== channelId) return;
    // Live messages may already be shown; history goes before them, without duplicates.
    const first = ui.messages.firstChild;
    for (const message of page.messages) {
      if (ui.messages.querySelector(`li[data-message-id="${CSS.escape(message.message_id)}"]`)) continue;
      ui.messages.insertBefore(messageItem(message), first);
    }
    ui.messages.lastElementChild?.scrollIntoView({ block: 'nearest' });
    document.body.dataset.channel = channelId;
  } catch (error) {
    setStatus('ready', `could not load the history: ${error instanceof Error ? error.message : String(error)}`);
  }
}

// ---------------- logging in ----------------

function clientFor(account: ConsoleAccount): ServiceClient {
  const secure = location.protocol === 'https:';
  return new ServiceClient({
    botId: account.id,
    token: account.token,
    host: location.hostname,
    port: location.port || (secure ? '443' : '80'),
    useSSL: secure,
    mmnApiUrl: `${location.origin}/mmn`,
    zkApiUrl: `${location.origin}/zk`,
  });
}

async function logIn(account: ConsoleAccount): Promise<void> {
  client?.destroy();
  selected = undefined;
  dmPeers.clear();
  delete document.body.dataset.channel;
  ui.channels.replaceChildren();
  ui.messages.replaceChildren();
  ui.activity.replaceChildren();
  ui.title.textContent = 'No channel';
  ui.text.disabled = true;
  ui.sendButton.disabled = true;

  const next = clientFor(account);
  client = next;
  // Subscribed before login, so no message of the first moments is missed.
  next.stream(Events.ChannelMessage).subscribe(onMessage);
  next.status$.subscribe((status) => {
    if (client === next && status !== 'ready') setStatus(status, `${account.username}: ${status}`);
    else if (client === next) setStatus('ready', `logged in as ${account.username}`);
  });
  setStatus('connecting', `logging in as ${account.username}…`);
  try {
    await next.login();
  } catch (error) {
    if (client === next) setStatus('error', `login failed: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  if (client !== next) return;
  next.select((state) => state.channels).subscribe(queueRender);
  next.select((state) => state.clans).subscribe(queueRender);
  const firstClan = next.clans.first();
  const start = firstClan?.welcome_channel_id ?? next.channels.first()?.id;
  if (start) await openChannel(start);
}

async function send(): Promise<void> {
  const current = client;
  const channelId = selected;
  const text = ui.text.value.trim();
  if (!current || !channelId || !text) return;
  ui.text.value = '';
  try {
    await current.sendMessage(channelId, text);
  } catch (error) {
    ui.text.value = text;
    setStatus('error', `not sent: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function loadAccounts(): Promise<void> {
  const response = await fetch('/console/accounts', { cache: 'no-store' });
  if (!response.ok) throw new Error(`GET /console/accounts answered ${response.status}`);
  accounts = ((await response.json()) as { accounts: ConsoleAccount[] }).accounts;
  const people = accounts.filter((a) => !a.is_bot);
  const bots = accounts.filter((a) => a.is_bot);
  ui.account.replaceChildren(
    ...[...people, ...bots].map((account) => {
      const option = document.createElement('option');
      option.value = account.id;
      option.textContent = account.is_bot ? `${account.username} (bot)` : account.username;
      return option;
    }),
  );
  if (accounts.length === 0) setStatus('error', 'the emulator has no accounts: seed a world first');
}

ui.login.addEventListener('submit', (event) => {
  event.preventDefault();
  const account = accounts.find((a) => a.id === ui.account.value);
  if (account) void logIn(account);
});
ui.send.addEventListener('submit', (event) => {
  event.preventDefault();
  void send();
});
window.addEventListener('pagehide', () => client?.destroy());

loadAccounts().catch((error: unknown) => setStatus('error', `could not list the accounts: ${error instanceof Error ? error.message : String(error)}`));
