// A bot that names its own host, as the platform's official example does
// (`host: 'gw.mezon.ai'` there; a host of its own here). The compat preload
// points it at the emulator when that host's origin is named in
// CLANSTREAM_REDIRECT_ORIGINS. It reports its login, then what it hears.
import { MezonClient } from 'mezon-sdk';

const client = new MezonClient({ botId: process.env.BOT_ID, token: process.env.BOT_TOKEN, host: 'bots.example.test', port: '443', useSSL: true });
const report = (kind, data) => console.log(JSON.stringify({ kind, data }));

client.onChannelMessage((event) => report('channel_message', { message_id: event.message_id, content: event.content }));

client
  .login()
  .then(() => report('ready', { clientId: client.clientId }))
  .catch((error) => report('login_failed', { message: error instanceof Error ? error.message : String(error) }));
