import type { WorldSeed } from './seed.js';

/** How an emulator is started. Every field is optional; see {@link EMULATOR_DEFAULTS}. */
export interface EmulatorOptions {
  /** Port to listen on; 0 picks a free one. */
  port?: number;
  /** Interface to bind; loopback unless asked otherwise. */
  host?: string;
  /**
   * Serve the web console (which hands out every API key, acts as any user and
   * injects faults) to clients on other machines too. Off by default: it
   * answers loopback clients only, whatever `host` is.
   */
  allowRemoteConsole?: boolean;
  /** A world to create at start: an object, or the path of a JSON file. */
  seed?: WorldSeed | string;
  /** Lifetime of session tokens. */
  tokenTtlSeconds?: number;
  /** Lifetime of refresh tokens. */
  refreshTokenTtlSeconds?: number;
  /** Interval announced in `hello`: clients ping this often (a clanstream client at most once a second). */
  heartbeatIntervalMs?: number;
  /** A socket that sends nothing for this long is closed with 4009. */
  heartbeatTimeoutMs?: number;
  /** A socket that neither starts nor resumes within this time is closed with 4001. */
  handshakeTimeoutMs?: number;
  /** How long a gateway session stays resumable after its socket drops. */
  resumeWindowMs?: number;
  /** Events kept per gateway session for resume. */
  resumeBufferSize?: number;
  /** Gateway sessions kept per user; past it the longest-detached ones are dropped before their resume window ends. */
  maxSessionsPerUser?: number;
  /**
   * Frames larger than this get a `payload_too_large` error reply (the JSON
   * socket), or close the socket with 1009 (the production socket, as the
   * platform's server does at its read limit).
   */
  maxFrameBytes?: number;
  /** Frames and HTTP bodies larger than this are cut off (close 1009 / 413). */
  maxPayloadBytes?: number;
  /** Messages kept per channel; older ones are forgotten. */
  maxMessagesPerChannel?: number;
  /** Entries kept in `emu.wire`; 0 turns the log off. */
  wireLogSize?: number;
  /** Bytes of bodies and frames kept in `emu.wire` at most; the oldest entries go first. */
  wireLogBytes?: number;
  /** Bytes waiting to be written to a gateway socket past which the emulator stops reading that client. */
  slowSocketBytes?: number;
  /** Bytes waiting to be written to a gateway socket past which the socket is cut (the session stays resumable). */
  maxSocketBufferBytes?: number;
  /** Idempotency keys remembered per user. */
  idempotencyKeys?: number;
  /** Requests (every op but ping) allowed per socket per second, as a token bucket; null for no limit. */
  gatewayRateLimit?: { perSecond: number; burst: number } | null;
  /**
   * Secret for signing JWTs and proofs, and for deriving the API keys and
   * webhook tokens a seed does not fix; random when not given (or, with
   * `dataDir`, the one kept there). A fixed secret keeps seeded credentials
   * and issued tokens valid across restarts.
   */
  secret?: string;
  /**
   * A folder that keeps the world between runs: created when missing; when it
   * holds a world, that world is loaded instead of the seed. Written while the
   * emulator runs (every `autosaveMs` when changed) and at `close()`.
   */
  dataDir?: string;
  /** How often a changed world is written to `dataDir`. */
  autosaveMs?: number;
  /**
   * Origins allowed to call the platform's HTTP API from a browser page (CORS); `'*'` allows any.
   * Never the web console or the test API (`/emulator/…`), which hand out API keys and webhook
   * tokens: they send no CORS headers and refuse pages of other origins, whatever this says.
   */
  corsOrigins?: readonly string[];
  /** URL clients are told to use (`api_url`, `ws_url`), e.g. a proxy in front of the emulator. */
  publicUrl?: string;
  /**
   * Also serve the platform's production protocol over the same world, in
   * each of its wire dialects (sdk-2.8.33: the official SDK's JSON REST paths
   * and protobuf socket; sdk-2.8.37 and sdk-2.8.44: protobuf RPCs, int64 ids,
   * and in sdk-2.8.44 int32 cids and socket RPCs), told apart per connection.
   * The CLI's `--production-protocol` (or `--compat`). See docs/COMPAT.md.
   */
  compat?: boolean;
  /** Receives one line per notable server event (never secrets). */
  log?: (line: string) => void;
}

/** Defaults of every emulator option. */
export const EMULATOR_DEFAULTS = {
  port: 0,
  host: '127.0.0.1',
  allowRemoteConsole: false,
  tokenTtlSeconds: 3600,
  refreshTokenTtlSeconds: 7 * 24 * 3600,
  heartbeatIntervalMs: 15_000,
  heartbeatTimeoutMs: 45_000,
  handshakeTimeoutMs: 10_000,
  resumeWindowMs: 120_000,
  resumeBufferSize: 10_000,
  maxSessionsPerUser: 64,
  maxFrameBytes: 256 * 1024,
  maxPayloadBytes: 1024 * 1024,
  maxMessagesPerChannel: 10_000,
  wireLogSize: 10_000,
  wireLogBytes: 8 * 1024 * 1024,
  slowSocketBytes: 8 * 1024 * 1024,
  maxSocketBufferBytes: 64 * 1024 * 1024,
  idempotencyKeys: 10_000,
  gatewayRateLimit: null,
  compat: false,
  autosaveMs: 2000,
  corsOrigins: [],
} as const satisfies Partial<EmulatorOptions>;

/** The options a running emulator uses: what it was started with over {@link EMULATOR_DEFAULTS}, with the secret it signs tokens with. */
export type ResolvedEmulatorOptions = Required<Omit<EmulatorOptions, 'seed' | 'publicUrl' | 'log' | 'secret' | 'dataDir'>> &
  Pick<EmulatorOptions, 'seed' | 'publicUrl' | 'log' | 'dataDir'> & { secret: string };
