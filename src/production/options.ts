import type { DialectName } from './wire/dialects.js';

/**
 * Settings of {@link production}.
 * @beta
 */
export interface ProductionOptions {
  /**
   * The wire the server speaks, named after the SDK release that introduced
   * it (docs/guides/connecting-to-the-platform.md, "Dialects"). Pinned: a
   * server speaking another one is named in a fatal error, never followed.
   * Default `sdk-2.8.44`.
   */
  dialect?: DialectName;
  /**
   * Send an ephemeral message to N receivers as N envelopes of one receiver
   * each, answered as one (servers before SDK 2.8.41 take one receiver).
   * Default: true for `sdk-2.8.33` and `sdk-2.8.37` (a server of either
   * release reads one receiver the same way), false for `sdk-2.8.44`.
   */
  singleReceiverEphemerals?: boolean;
  /**
   * Send edits and deletes as socket RPCs (`api_request_event`) answered in
   * raw frames, as `sdk-2.8.44` servers from SDK 2.8.50 expect. Default true
   * for `sdk-2.8.44` (false: Envelope cases 9 and 10, for servers 2.8.44 to
   * 2.8.49); always false for the older dialects.
   */
  editsAsRpc?: boolean;
  /** Least time between the starts of two REST requests, ms. Default 1,024 (the official SDK's pace). */
  restIntervalMs?: number;
  /** Where `playMedia` posts (production's media service). */
  mediaUrl?: string;
  /**
   * The largest frame the server reads, in bytes (production has no hello
   * to say it): a write over it is refused before it is sent, with a
   * ValidationError naming its size and this limit. Default 65,536 (see
   * {@link PRODUCTION_DEFAULTS}); at least 1,024.
   */
  maxFrameBytes?: number;
  /**
   * How often the client pings, ms; a pong missing for `heartbeatTimeoutMs`
   * (a client setting) ends the socket. Default 10,000 (the platform's
   * pace); from 1,000 to 3,600,000, the range a clanstream hello may ask.
   */
  heartbeatIntervalMs?: number;
}

/**
 * The defaults of {@link ProductionOptions} and the settings production brings to a client.
 * @beta
 */
export const PRODUCTION_DEFAULTS = Object.freeze({
  dialect: 'sdk-2.8.44',
  restIntervalMs: 1024,
  mediaUrl: 'https://stn.mezon.ai/api/playmedia',
  /** The platform's gateway and REST host. */
  host: 'gw.mezon.ai',
  port: '443',
  useSSL: true,
  /** The token network's JSON-RPC endpoint and the prover, as the official SDK has them. */
  mmnApiUrl: 'https://dong.mezon.ai/mmn-api/',
  zkApiUrl: 'https://dong.mezon.ai/zk-api/',
  /** `client_type` of proof requests in production. */
  proverClientType: 'mezon',
  /** The client pings this often (the official clients' pace). */
  heartbeatIntervalMs: 10_000,
  /**
   * The frame limit assumed for the server, which announces none. The web
   * client sends a text of up to 8,000 characters inline (longer ones go as
   * a file), so the server reads frames far over the 4,096 bytes its
   * Nakama base defaults to: 64 KiB holds such a message (24,000 bytes of
   * UTF-8 at most) with its mentions, attachments and references twice
   * over. The real bound is not known offline (docs/guides/connecting-to-the-platform.md).
   */
  maxFrameBytes: 65_536,
});

/**
 * The bounds of production's socket settings: those clanstream's hello is
 * held to (FRAME_LIMITS.serverFrameBytes.minBytes, HELLO_LIMITS.heartbeatIntervalMs,
 * test/production/socket-settings.test.ts keeps them equal), here so that the
 * browser file takes nothing from the core bundle but its entry. A frame
 * limit under 1,024 bytes would not carry a ping and the joins; a ping per
 * round trip would be load, not a heartbeat.
 */
export const PRODUCTION_SOCKET_LIMITS = Object.freeze({
  maxFrameBytes: Object.freeze({ minBytes: 1024 }),
  heartbeatIntervalMs: Object.freeze({ minMs: 1000, maxMs: 3_600_000 }),
});
