/**
 * clanstream: a reactive TypeScript client for the clan chat platform.
 * This entry point is browser-safe: nothing here imports a Node built-in.
 */
export * from './model/enums.js';
export type * from './model/content.js';
export type * from './model/api.js';
export { Events, ALL_EVENTS, isEventName } from './events/names.js';
export type * from './events/payloads.js';
export * from './errors/index.js';
export * from './gateway/protocol.js';
export { EButtonMessageStyle, EMessageComponentType, EMessageSelectType, EMarkdownType } from './interactive/enums.js';
export { validateMessageParts, type MessageParts } from './validation/message.js';
export { MESSAGE_LIMITS } from './validation/limits.js';
export type * from './webhooks/types.js';
export {
  validateChannelWebhookBody,
  validateChannelWebhookMessage,
  validateClanWebhookBody,
  validateClanWebhookContent,
  validateClanWebhookMessage,
  WEBHOOK_LIMITS,
} from './webhooks/validate.js';
export { addressOf } from './wallet/address.js';
export { toUnits, formatUnits, unitsToTokens, TOKEN_DECIMALS } from './wallet/amount.js';
export { TxType, signedBytes, type TxMsg, type TransferExtraInfo } from './wallet/transaction.js';
export { encodeSignature, decodeSignature, type DecodedSignature } from './wallet/signature.js';
export { generateEphemeralKeyPair, keyPairFromSeed, seedToPkcs8, pkcs8ToSeed, type IEphemeralKeyPair } from './wallet/keys.js';
export { JSON_RPC_ERRORS } from './wallet/jsonrpc.js';
export type * from './wallet/jsonrpc.js';
