/**
 * `npm start`: runs the demo conversation against an embedded emulator.
 * Pass --stay to keep the emulator running afterwards (Ctrl+C to stop).
 */
import { describe } from '../../src/cli/emulator-command.js';
import { runDemo } from './script.js';

const stay = process.argv.includes('--stay');
const { emu } = await runDemo({ keepRunning: stay });
if (stay) {
  console.log(`\n${describe(emu)}`);
  const stop = () => void emu.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
