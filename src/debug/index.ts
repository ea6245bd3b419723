/** Debug output and loud unhandled errors: what the client says about itself, secrets redacted. */
export { DEBUG_TOPICS, type DebugTopic, type DebugEvent, type DebugRecord, type DebugSink, type GatewayDebugRecord, type HttpDebugRecord, type RateLimitDebugRecord, type SyncDebugRecord, type OutboxDebugRecord } from './records.js';
export { debugTopics, processEnvironment, type DebugEnvironment, type DebugSetting } from './switch.js';
export { describeDebugEvent } from './describe.js';
export { DebugChannel, type DebugChannelOptions } from './debug-channel.js';
export { describeUnhandled, originOf, UNHANDLED_ERRORS_DEFAULT, type UnhandledErrors } from './unhandled-error.js';
export { writeToStderr } from './stderr.js';
