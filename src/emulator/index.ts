/**
 * `clanstream/emulator`: a local, offline server of the platform for tests,
 * examples, demos and benchmarks. Node only.
 *
 * @module clanstream/emulator
 */
export { Emulator, startEmulator } from './emulator.js';
export { WorldControls } from './world-controls.js';
export { checkSeed, loadSeed, SeedError, WORLD_SEED_SCHEMA, type SeedCheckOptions, type SchemaIssue, type JsonSchema, type JsonType } from './seed-check/index.js';
export type { EmulatorAccount, BotCredentials, EmulatorClan, EmulatorChannel, EmulatorWebhook, StoredMessage, EmitTap } from './types.js';
export { EMULATOR_DEFAULTS, type EmulatorOptions, type ResolvedEmulatorOptions } from './options.js';
export { DEFAULT_WORLD, CHANNEL_TYPE_NAMES, type WorldSeed, type ClanSeed, type ChannelSeed, type AccountSeed, type WebhookSeed } from './seed.js';
export { EmulatorError } from './errors.js';
export { FAULT_LIMITS, type FaultDuration } from './fault-limits.js';
export { UserActor, type ButtonClickInput, type DropdownSelectInput, type ContentInput, type SendOptions, type ReactionInput } from './actions/user-actor.js';
export type { HttpFault } from './http/faults.js';
export type { RefusableCall, RefusalStatus } from './compat/bot-refusals.js';
export type { WireEntry, WireLog } from './wire-log.js';
export type { EventDelivery } from './gateway/hub.js';
export type { TransactionRecord } from './ledger/ledger.js';
export type { MessageRecord, PresenceRecord } from './world/records.js';
export type { ChannelPatch } from './platform/accounts.js';
export { CONSOLE_PATHS, CONSOLE_API } from './console/index.js';
export type { StaticPages, StaticAsset, AssetSource, PageHandler } from './console/index.js';
