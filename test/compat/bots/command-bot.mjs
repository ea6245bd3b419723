// A bot written the way public bots of the platform's official SDK are: it is
// configured with its id and API key only, and knows nothing of the emulator.
// The compat tests run it unchanged (node --import clanstream/compat-preload).
// It reports what it sees and does as JSON lines on stdout, for the tests to read.
import { EButtonMessageStyle, EMessageComponentType, MezonClient } from 'mezon-sdk';

const client = new MezonClient({ botId: process.env.BOT_ID, token: process.env.BOT_TOKEN });
const report = (kind, data) => console.log(JSON.stringify({ kind, data }));

async function messageOf(event) {
  const channel = await client.channels.fetch(event.channel_id);
  return { channel, message: await channel.messages.fetch(event.message_id) };
}

const commands = {
  // A reply with an embed and a row of buttons.
  async ping(event) {
    const { message } = await messageOf(event);
    const ack = await message.reply({
      t: 'pong',
      embed: [{ color: '#2ecc71', title: 'Pong', description: 'Pick one', fields: [{ name: 'latency', value: 'none', inline: true }] }],
      components: [
        {
          components: [
            { id: 'again', type: EMessageComponentType.BUTTON, component: { label: 'Again', style: EButtonMessageStyle.PRIMARY } },
            { id: 'stop', type: EMessageComponentType.BUTTON, component: { label: 'Stop', style: EButtonMessageStyle.DANGER } },
          ],
        },
      ],
    });
    report('replied', ack);
  },
  // A dropdown.
  async menu(event) {
    const { channel } = await messageOf(event);
    const ack = await channel.send({
      t: 'Lunch?',
      components: [
        {
          components: [
            {
              id: 'lunch',
              type: EMessageComponentType.SELECT,
              component: { placeholder: 'Pick', options: [{ label: 'Pizza', value: 'pizza' }, { label: 'Tacos', value: 'tacos' }] },
            },
          ],
        },
      ],
    });
    report('sent', ack);
  },
  // Edit, react to and delete a message of its own.
  async cycle(event) {
    const { channel } = await messageOf(event);
    const ack = await channel.send({ t: 'draft' }, [{ user_id: event.sender_id, s: 0, e: 5 }], [{ url: 'https://files.example/a.png', filetype: 'image/png', filename: 'a.png', width: 10, height: 20 }]);
    report('sent', ack);
    const own = await channel.messages.fetch(ack.message_id);
    report('updated', await own.update({ t: 'final text' }));
    report('reacted', await own.react({ emoji_id: '7', emoji: '👍', count: 1 }));
    report('deleted', await own.delete());
  },
  async react(event) {
    const { message } = await messageOf(event);
    report('reacted', await message.react({ emoji_id: '9', emoji: '🎉', count: 1 }));
  },
  async dm(event) {
    const user = await client.users.fetch(event.sender_id);
    report('dm', await user.sendDM({ t: 'a private hello' }));
  },
  async whisper(event) {
    const { channel } = await messageOf(event);
    report('ephemeral', await channel.sendEphemeral(event.sender_id, { t: 'only you can see this' }, event.message_id));
  },
  async pay(event, [amount]) {
    const result = await client.sendToken({ receiver_id: event.sender_id, amount: Number(amount), note: 'for you' });
    report('paid', result);
  },
  async roles(event) {
    const clan = await client.clans.fetch(event.clan_id);
    const list = await clan.listRoles();
    report('roles', list);
    const role = list.roles.roles[0];
    report('role-updated', await clan.updateRole(role.id, { add_user_ids: [event.sender_id], description: 'given by the bot', max_permission_id: '' }));
  },
  async voice(event, [channelId]) {
    const clan = await client.clans.fetch(event.clan_id);
    report('voice', await clan.listChannelVoiceUsers(channelId));
  },
  // A long message: SDK 2.8.33 allows 8,000 characters of content.
  async long(event, [length]) {
    const { channel } = await messageOf(event);
    report('sent', await channel.send({ t: 'x'.repeat(Number(length)) }));
  },
  // A hashtag in SDK 2.8.33's spelling (hg[].channelid).
  async tag(event) {
    const { channel } = await messageOf(event);
    report('sent', await channel.send({ t: 'see #general', hg: [{ channelid: event.channel_id, s: 4, e: 12 }] }));
  },
  async friend(event) {
    report('friend', await client.addFriend(event.username));
    report('friends', await client.getListFriends());
  },
};

client.onChannelMessage(async (event) => {
  report('channel_message', event);
  if (event.sender_id === client.clientId || typeof event.content?.t !== 'string' || !event.content.t.startsWith('*')) return;
  const [name, ...args] = event.content.t.slice(1).split(' ');
  const command = commands[name];
  if (!command) return;
  try {
    await command(event, args);
  } catch (error) {
    report('error', { command: name, message: error instanceof Error ? error.message : JSON.stringify(error) });
  }
});

client.onMessageButtonClicked(async (event) => {
  report('message_button_clicked', event);
  const channel = await client.channels.fetch(event.channel_id);
  report('sent', await channel.send({ t: `${event.button_id} clicked by ${event.user_id}` }));
});

client.onDropdownBoxSelected(async (event) => {
  report('dropdown_box_selected', event);
  const channel = await client.channels.fetch(event.channel_id);
  report('sent', await channel.send({ t: `${event.user_id} picked ${event.values.join(', ')}` }));
});

client.onMessageReaction((event) => report('message_reaction_event', event));
client.onTokenSend((event) => report('token_sent_event', event));

client
  .login()
  .then(() => report('ready', { clientId: client.clientId }))
  .catch((error) => report('login_failed', { message: error instanceof Error ? error.message : String(error) }));
