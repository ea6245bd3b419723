/** Where the compat front end listens: the production paths the official SDK uses. */
export const COMPAT_DEFAULTS = {
  /** The socket's path; an upgrade there with a `format` query parameter is a production socket. */
  socketPath: '/ws',
  /** The only socket format served: binary protobuf envelopes. */
  format: 'protobuf',
  paths: {
    /** Media playback (the SDK posts to an absolute URL of its own; the preload points it here). */
    playMedia: '/api/playmedia',
    /** The token network's JSON-RPC endpoint under the SDK's default base URL. */
    ledger: ['/mmn-api'],
    /** The prover: the SDK appends `/prove` to a base URL that ends with a slash, hence the double slashes. */
    prover: ['/zk-api/prove', '/zk-api//prove', '/zk//prove'],
  },
} as const;
