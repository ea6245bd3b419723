/**
 * Worker-thread entry that runs the emulator seeded with the large world's
 * clans and channels (bench/support/world.ts: 1,000 clans, 10,000 channels
 * with the same skew), so a client on the main thread syncs against a real
 * server that does not share its thread. Seeding goes through the test API
 * (`createClan`, `addClanMember`, `createChannel`) in a loop, before anything
 * is timed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startEmulator } from '../../src/emulator/index.js';
import { ChannelType } from '../../src/model/enums.js';
import { channelsPerClan, generator, type WorldShape } from './world.js';
import type { EmulatorWorkerReply, EmulatorWorkerSetup } from './emulator-server.js';

const port = parentPort;
if (!port) throw new Error('emulator-worker must run in a worker thread');
const setup = workerData as EmulatorWorkerSetup;
const shape: WorldShape = setup.shape;

const seeding = performance.now();
const emu = await startEmulator();
const bot = emu.createBot({ username: 'syncbot' });
const owner = emu.createUser({ username: 'owner' });
const counts = channelsPerClan(shape.clans, shape.channels, generator(setup.seed));
let channels = 0;
for (let i = 0; i < shape.clans; i++) {
  // The welcome channel is the clan's first channel.
  const clan = emu.createClan({ name: `Clan ${i}`, ownerId: owner.id });
  emu.addClanMember(clan.id, bot.botId);
  channels += 1;
  for (let k = 1; k < counts[i]!; k++) {
    emu.createChannel({ clanId: clan.id, name: `channel-${channels}`, creatorId: owner.id });
    channels += 1;
  }
}
for (let d = 0; d < shape.dmChannels; d++) {
  const peer = emu.createUser({ username: `peer${d}` });
  emu.createChannel({ clanId: '0', name: `dm-${d}`, type: ChannelType.CHANNEL_TYPE_DM, memberIds: [bot.botId, peer.id] });
}
const post = (message: EmulatorWorkerReply) => port.postMessage(message);
post({ type: 'ready', url: emu.url, botId: bot.botId, token: bot.token, clans: shape.clans, channels, dmChannels: shape.dmChannels, seedMs: performance.now() - seeding });

port.on('message', (request: { type: 'close' }) => {
  if (request.type !== 'close') return;
  emu.close().then(
    () => {
      post({ type: 'closed' });
      port.close();
    },
    () => port.close(),
  );
});
