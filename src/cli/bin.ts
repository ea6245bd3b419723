// Runs the command line from source (`npm run emulator`); the published bin runs dist/cli.js instead.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
