/**
 * Token transfers: the {@link Wallet} a client uses, and the steps it is
 * composed of for bots that need them one by one. Browser-safe.
 */
export { Wallet, type WalletDeps } from './wallet.js';
export type { APISentTokenRequest, SendTokenData, SendTokenResult, ApiGetZkProofRequest, WalletStatus, TransferTrace } from './types.js';
export { NonceAllocator, type NonceLease, type NonceReader } from './nonce-allocator.js';
export { MmnClient, JsonRpcError, type SignedTx } from './mmn-client.js';
export { ProverClient, DEFAULT_CLIENT_TYPE } from './prover-client.js';
export { EphemeralKey, EphemeralKeyPair, createEphemeralKey } from './ephemeral-key.js';
export { buildTransferTx, signTx, transferExtraInfo, type TransferDraft } from './sign.js';
export { parseTransferRequest, type TransferIntent } from './transfer-request.js';
export { Prepared, prepare$, PROOF_RENEW_MARGIN_MS } from './preparation.js';
export { transfer$, refusalKind, failureResult, type TransferSteps } from './transfer.js';
export { distinctTransfers, TransferIdWindow, DISTINCT_TRANSFERS_LIMIT } from './distinct-transfers.js';
