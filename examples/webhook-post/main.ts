/**
 * Runs webhook-post: `npx tsx examples/webhook-post/main.ts`
 *
 * With CLANSTREAM_CHANNEL_WEBHOOK_URL and CLANSTREAM_CLAN_WEBHOOK_URL (and
 * CLANSTREAM_DM_USER, the username to notify) it posts to those webhooks.
 * Otherwise it starts the embedded emulator, creates one webhook of each
 * kind through the emulator's test API, posts, and shows what arrived.
 */
import { ChannelWebhook, ClanWebhook } from '../../src/index.js';
import { connect } from '../shared/connect.js';
import { announceDeploy, type DeployReport } from './bot.js';

const report = (by: string): DeployReport => ({ project: 'web-app', version: '1.4.2', ok: true, url: 'https://ci.example.com/builds/812', by });
const channelUrl = process.env.CLANSTREAM_CHANNEL_WEBHOOK_URL;
const clanUrl = process.env.CLANSTREAM_CLAN_WEBHOOK_URL;

if (channelUrl && clanUrl) {
  // A real server: webhooks need no login, only their URLs (which are secrets: never printed).
  const hooks = { channel: new ChannelWebhook(channelUrl), clan: new ClanWebhook(clanUrl) };
  const { post, dm } = await announceDeploy(hooks, report(process.env.CLANSTREAM_DM_USER ?? 'alice'));
  console.log(`Posted message ${post.message_id} in channel ${post.channel_id}; DM ${dm.message_id} delivered.`);
} else {
  // The embedded emulator (env: {} — this example never logs in to a real server). The bot
  // client is only there to print what it sees: the webhook post arriving in #general.
  const session = await connect({ env: {}, remoteHint: 'set CLANSTREAM_CHANNEL_WEBHOOK_URL and CLANSTREAM_CLAN_WEBHOOK_URL to post to a real server' });
  const world = session.world;
  try {
    const general = world?.channels.general?.channel_id;
    if (!world?.clan || !general) throw new Error('the demo world has no #general');
    const channel = world.emu.createChannelWebhook(general, { name: 'CI' });
    const clan = world.emu.createClanWebhook(world.clan.id, { name: 'CI' });
    session.log('Created a channel webhook for #general and a clan webhook (as the clan settings would).');

    const { post, dm } = await announceDeploy({ channel: new ChannelWebhook(channel.url), clan: new ClanWebhook(clan.url) }, report('alice'));
    await session.pause(500); // let the post reach the bot and print
    const dmText = world.emu.messages(dm.channel_id).find((m) => m.message_id === dm.message_id)?.content.t ?? '';
    session.log(`The channel post is message ${post.message_id}. alice's inbox received:\n${dmText.replace(/^/gm, '    ')}`);
  } finally {
    await session.close();
  }
}
