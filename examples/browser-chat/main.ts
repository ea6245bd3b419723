/**
 * The browser chat page's script (bundled for the browser by ./serve.ts):
 * logs in with the credentials of the URL query (`?id=…&token=…&channel=…`,
 * or the form when they are missing), shows the messages of one channel as
 * they arrive, and sends what is typed.
 */
import { Events, ServiceClient, TypeMessage, type ChannelMessage } from '../../src/index.js';

function element<T extends HTMLElement>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`the page has no ${selector}`);
  return found;
}

const status = element<HTMLElement>('#status');
const messages = element<HTMLOListElement>('#messages');
const credentials = element<HTMLFormElement>('#credentials');
const sendForm = element<HTMLFormElement>('#send');
const text = element<HTMLInputElement>('#text');

function setStatus(state: string, line: string): void {
  document.body.dataset.status = state;
  status.textContent = line;
}

function show(message: ChannelMessage): void {
  if (message.code !== TypeMessage.Chat && message.code !== TypeMessage.Ephemeral) return;
  if (messages.querySelector(`li[data-message-id="${CSS.escape(message.message_id)}"]`)) return;
  const item = document.createElement('li');
  item.dataset.messageId = message.message_id;
  const who = document.createElement('b');
  who.textContent = message.username;
  item.append(who, message.content.t ?? '');
  messages.append(item);
}

async function chat(id: string, token: string, channelId: string): Promise<void> {
  const secure = location.protocol === 'https:';
  // The page is served by the emulator, so the platform is at the page's own origin.
  const client = new ServiceClient({
    botId: id,
    token,
    host: location.hostname,
    port: location.port || (secure ? '443' : '80'),
    useSSL: secure,
    mmnApiUrl: `${location.origin}/mmn`,
    zkApiUrl: `${location.origin}/zk`,
  });
  window.addEventListener('pagehide', () => client.destroy());
  client.stream(Events.ChannelMessage).subscribe((message) => {
    if (message.channel_id === channelId) show(message);
  });
  setStatus('connecting', 'logging in…');
  await client.login();
  const history = await client.api.listMessages(channelId, { limit: 50 });
  history.messages.forEach(show);
  sendForm.hidden = false;
  sendForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const line = text.value.trim();
    if (!line) return;
    text.value = '';
    client.sendMessage(channelId, line).catch((error: unknown) => setStatus('error', `not sent: ${String(error)}`));
  });
  setStatus('ready', `logged in as ${client.clientId ?? id}`);
}

const query = new URLSearchParams(location.search);
const [id, token, channel] = [query.get('id'), query.get('token'), query.get('channel')];
if (id && token && channel) {
  chat(id, token, channel).catch((error: unknown) => setStatus('error', `login failed: ${error instanceof Error ? error.message : String(error)}`));
} else {
  // No credentials in the URL: ask for them, and reload with them in the query.
  credentials.hidden = false;
  setStatus('closed', 'enter a user id, its API key and a channel id');
  credentials.addEventListener('submit', (event) => {
    event.preventDefault();
    const form = new FormData(credentials);
    const field = (name: string): string => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    location.search = new URLSearchParams({ id: field('id'), token: field('token'), channel: field('channel') }).toString();
  });
}
