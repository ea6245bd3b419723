/** Where the compat front end listens (the production paths the platform's clients use) and the bounds it keeps. */
export const COMPAT_DEFAULTS = {
  /** The socket's path; an upgrade there with a `format` query parameter is a production socket. */
  socketPath: '/ws',
  /** The only socket format served: binary protobuf envelopes. */
  format: 'protobuf',
  /** Eras B and C call REST as `POST {rpcPrefix}<Method>` with protobuf bodies. */
  rpcPrefix: '/mezon.api.Mezon/',
  /** The content type of protobuf RPC bodies (Connect's unary protocol) and of the protobuf login answer. */
  protoTypes: { rpc: 'application/proto', session: 'application/x-protobuf' },
  paths: {
    /** Media playback (the SDK posts to an absolute URL of its own; the preload points it here). */
    playMedia: '/api/playmedia',
    /** The token network's JSON-RPC endpoint under the SDK's default base URL. */
    ledger: ['/mmn-api'],
    /** The prover: the SDK appends `/prove` to a base URL that ends with a slash, hence the double slashes. */
    prover: ['/zk-api/prove', '/zk-api//prove', '/zk//prove'],
  },
  /** A page of history: this many messages when the request names no limit, at most `max`. */
  historyLimits: { default: 50, max: 500 },
  /**
   * Events for a socket whose frames have not yet told its dialect are held
   * until they do, up to this many bytes of events; past it the socket is
   * closed, saying why (a client that never writes a telling frame).
   */
  heldPushBytes: 1024 * 1024,
  /** An era-C RPC answer goes out in raw frames of at most this many payload bytes each. */
  rawChunkBytes: 16 * 1024,
  /** The close code of a socket refused for its dialect (a switch mid-way, or events held past their bound). */
  dialectCloseCode: 1008,
  /**
   * The close code of a socket that sent a frame over `maxFrameBytes`: the
   * platform's server reads its sockets with a size limit, and its WebSocket
   * library closes on a longer message with 1009 (message too big), as the
   * JSON front end does at `maxPayloadBytes`.
   */
  frameTooBigCloseCode: 1009,
} as const;
