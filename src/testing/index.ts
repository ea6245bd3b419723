/**
 * `clanstream/testing`: helpers to test bots offline against the emulator.
 * Node only.
 */
export { startEmulator, DEFAULT_WORLD, type Emulator, type EmulatorOptions, type WorldSeed } from '../emulator/index.js';
