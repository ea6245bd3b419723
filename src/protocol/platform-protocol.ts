import type { PlatformApi } from '../api/platform-api.js';
import type { ServiceApiOptions } from '../api/service-api.js';
import type { WireProtocol } from '../gateway/wire.js';
import type { SessionFormat } from '../session/session-format.js';
import type { Session } from '../session/session.js';

/**
 * What a protocol can do. The client consults them where they matter: it
 * never asks a protocol for what it declared it cannot do, and gets by
 * without it (see docs/PROTOCOL.md, "Protocols").
 */
export interface ProtocolCapabilities {
  /** A session outlives its socket: a reconnect resumes and replays what was missed. Without, each socket is a fresh session and a reconnect resynchronises (`resync`). */
  readonly resume: boolean;
  /** A write sent twice is stored once (idempotency keys). Without, a write sent and lost settles with a ClosedError of outcome `unknown` and is never sent again. */
  readonly idempotentWrites: boolean;
  /** A live socket can be moved onto a renewed token (`token_refresh`). Without, the new token is used by the next connection. */
  readonly socketTokenMove: boolean;
  /** A clan's members can be listed and looked up one by one. */
  readonly memberList: boolean;
  /** A channel's history can be fetched (a resync refreshes the message windows with it). */
  readonly history: boolean;
  /** A user can be looked up by id. */
  readonly userLookup: boolean;
  /** A clan can be looked up by id (without: it is found in the clan list). */
  readonly clanLookup: boolean;
  /** A message can be looked up by id. */
  readonly messageLookup: boolean;
  /** A fresh session joins clan `"0"`, the DM space, besides the bot's clans. */
  readonly dmSpaceJoin: boolean;
}

/** The settings a protocol brings: each applies unless the client config sets it. */
export interface ProtocolDefaults {
  readonly host?: string;
  readonly port?: string;
  readonly useSSL?: boolean;
  /** Token-network JSON-RPC endpoint. */
  readonly mmnApiUrl?: string;
  /** Proof service. */
  readonly zkApiUrl?: string;
  /** `client_type` of proof requests (clanstream: `"bot"`). */
  readonly proverClientType?: string;
  /** Least time between the starts of two REST requests, ms (clanstream: 0, none). */
  readonly restIntervalMs?: number;
}

/** What a protocol's REST implementation is made with (the client's timeouts, retries, scheduler, fetch). */
export type PlatformApiOptions = ServiceApiOptions;

/**
 * A protocol the client speaks, chosen by the `protocol` setting: its REST
 * implementation, its socket codec and greeting, how its login answers read,
 * where its gateway is, what it can do and the settings it brings.
 * Everything above (events, caches, structures, outbox, scale-out) works in
 * clanstream's events and op names and never knows which wire carried them.
 * `clanstreamProtocol` is clanstream's own.
 */
export interface PlatformProtocol {
  /** Named in errors (`… is not available over the <name> protocol`) and debug output. */
  readonly name: string;
  /** The REST side. */
  createApi(options: PlatformApiOptions): PlatformApi;
  /** The socket side: greeting and a codec per socket. */
  readonly wire: WireProtocol;
  /** How login answers and tokens read. */
  readonly session: SessionFormat;
  /** The URL of the next socket for a session, its token included. */
  gatewayUrl(session: Session): string;
  readonly can: ProtocolCapabilities;
  readonly defaults?: ProtocolDefaults;
}

/** What the `protocol` setting takes: `'clanstream'` (the default) or a protocol object. */
export type ProtocolSetting = 'clanstream' | PlatformProtocol;
