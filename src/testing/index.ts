/**
 * `clanstream/testing`: test bots offline. Node only.
 *
 * - `createTestWorld()`: an emulator with a seeded world and logged-in clients.
 * - `createMarbleClient()`: a client double for marble tests in virtual time.
 * - `waitFor()`, `nextEvent()`, `world.nextMessage()`: waits that fail after
 *   `TESTING_DEFAULTS.waitTimeoutMs` (10 s) naming what they awaited and what
 *   arrived instead, so a bot that never answers cannot hang a test.
 *
 * @module clanstream/testing
 */
export { createTestWorld, type TestWorld, type TestWorldOptions } from './test-world.js';
export { waitFor, nextEvent, type WaitOptions } from './wait-for.js';
export { WaitTimeoutError } from './wait-timeout-error.js';
export { TESTING_DEFAULTS, type TestingDefaults } from './defaults.js';
export type { MessageMatch } from './message-match.js';
export { createMarbleClient, type MarbleClient, type MarbleClientOptions, type RecordedAction } from './marble-client.js';
export { messageEvent, buttonClickEvent, typingEvent } from './events.js';
export { startEmulator, DEFAULT_WORLD, type Emulator, type EmulatorOptions, type WorldSeed } from '../emulator/index.js';
