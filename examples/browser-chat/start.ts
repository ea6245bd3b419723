/**
 * `npx tsx examples/browser-chat/start.ts`: starts an emulator with the demo
 * world, serves the browser chat page, and prints its URL (logged in as
 * alice, in #general). Ctrl+C stops it.
 */
import { DEFAULT_WORLD, startEmulator } from '../../src/emulator/index.js';
import { serveBrowserChat } from './serve.js';

const port = Number(process.env.PORT ?? 7351);
const emu = await startEmulator({ port, seed: DEFAULT_WORLD });
const alice = emu.user('alice');
const clan = emu.clans()[0];
if (!clan) throw new Error('the demo world has no clan');
const url = await serveBrowserChat(emu, alice, clan.welcome_channel_id);

// Closing the emulator releases its sockets and timers: the process then exits by itself.
const stop = () => void emu.close().then(() => console.log('Stopped.'));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
console.log(`browser chat: ${url}`);
console.log(`web console:  ${emu.url}/  (act as bob there to talk to alice)`);
console.log('Press Ctrl+C to stop.');
