/**
 * `clanstream/testing`: test bots offline. Node only.
 *
 * - `createTestWorld()`: an emulator with a seeded world and logged-in clients.
 * - `createMarbleClient()`: a client double for marble tests in virtual time.
 *
 * @module clanstream/testing
 */
export { createTestWorld, type TestWorld, type TestWorldOptions } from './test-world.js';
export { createMarbleClient, type MarbleClient, type MarbleClientOptions, type RecordedAction } from './marble-client.js';
export { messageEvent, buttonClickEvent, typingEvent } from './events.js';
export { startEmulator, DEFAULT_WORLD, type Emulator, type EmulatorOptions, type WorldSeed } from '../emulator/index.js';
