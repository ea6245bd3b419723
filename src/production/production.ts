import { AuthenticationError, ValidationError, type CodecContext, type PlatformApi, type PlatformApiOptions, type PlatformProtocol, type ProtocolCapabilities, type Session } from './core.js';
import { PRODUCTION_DEFAULTS, PRODUCTION_SOCKET_LIMITS, type ProductionOptions } from './options.js';
import { ENTRY_OF, MAIN_KITS, type DialectKit } from './dialect-kit.js';
import { gatewayBase, PRODUCTION_SESSION_FORMAT } from './session-format.js';
import { ProductionCodec } from './socket/production-codec.js';
import type { RequestStyle } from './socket/requests.js';

/**
 * What production can do (docs/guides/connecting-to-the-platform.md, "What
 * differs"): no resume, no idempotency keys, no socket token move, no lookup
 * of a clan or user by id; members, history and a message by id come from
 * user-client routes the platform may refuse a bot (an UnsupportedError
 * then); a fresh session joins the DM space, clan "0".
 */
const PRODUCTION_CAN: ProtocolCapabilities = Object.freeze({
  resume: false,
  idempotentWrites: false,
  socketTokenMove: false,
  memberList: true,
  history: true,
  userLookup: false,
  clanLookup: false,
  messageLookup: true,
  dmSpaceJoin: true,
});

/** The production socket's path and fixed query (the official clients' own). */
const SOCKET_QUERY = '/ws?lang=en&status=true&format=protobuf';

function checked(options: ProductionOptions, kits: readonly DialectKit[]): Required<ProductionOptions> {
  const dialect = options.dialect ?? PRODUCTION_DEFAULTS.dialect;
  const issues = [];
  if (!kits.some((k) => k.dialect.name === dialect)) {
    const elsewhere = ENTRY_OF[dialect];
    const known = `must be one of ${kits.map((k) => k.dialect.name).join(', ')}`;
    issues.push({ path: 'dialect', message: elsewhere ? `${known}; ${dialect} is in ${elsewhere}: import { production } from '${elsewhere}'` : known, code: 'invalid' as const });
  }
  const interval = options.restIntervalMs ?? PRODUCTION_DEFAULTS.restIntervalMs;
  if (!(Number.isFinite(interval) && interval >= 0)) issues.push({ path: 'restIntervalMs', message: 'must be a finite number of at least 0', code: 'invalid' as const });
  const { minBytes } = PRODUCTION_SOCKET_LIMITS.maxFrameBytes;
  const maxFrameBytes = options.maxFrameBytes ?? PRODUCTION_DEFAULTS.maxFrameBytes;
  if (!(Number.isSafeInteger(maxFrameBytes) && maxFrameBytes >= minBytes)) issues.push({ path: 'maxFrameBytes', message: `must be a whole number of bytes, at least ${minBytes}`, code: 'invalid' as const });
  const { minMs, maxMs } = PRODUCTION_SOCKET_LIMITS.heartbeatIntervalMs;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? PRODUCTION_DEFAULTS.heartbeatIntervalMs;
  if (!(Number.isFinite(heartbeatIntervalMs) && heartbeatIntervalMs >= minMs && heartbeatIntervalMs <= maxMs)) {
    issues.push({ path: 'heartbeatIntervalMs', message: `must be a number of ms from ${minMs} to ${maxMs}`, code: 'invalid' as const });
  }
  if (issues.length > 0) throw new ValidationError(issues, 'production options');
  const latest = dialect === 'sdk-2.8.44';
  return {
    dialect,
    singleReceiverEphemerals: options.singleReceiverEphemerals ?? !latest,
    // Only sdk-2.8.44 has socket RPCs.
    editsAsRpc: latest && (options.editsAsRpc ?? true),
    restIntervalMs: interval,
    mediaUrl: options.mediaUrl ?? PRODUCTION_DEFAULTS.mediaUrl,
    maxFrameBytes,
    heartbeatIntervalMs,
  };
}

/**
 * The platform's production protocol, in one pinned dialect, for the
 * `protocol` setting of a ServiceClient:
 * `new ServiceClient({ botId, token, protocol: production({ dialect: 'sdk-2.8.44' }) })`.
 * Its defaults point the client at production's hosts and token network.
 *
 * @beta No run against the live platform has been recorded yet
 * (docs/guides/connecting-to-the-platform.md, "What could not be known offline").
 */
export function production(options: ProductionOptions = {}): PlatformProtocol {
  return buildProduction(options, MAIN_KITS);
}

/** The production protocol over the dialects `kits` bring (each entry brings its own). */
export function buildProduction(options: ProductionOptions, kits: readonly DialectKit[]): PlatformProtocol {
  const settings = checked(options, kits);
  const kit = kits.find((k) => k.dialect.name === settings.dialect)!;
  const { dialect } = kit;
  const known = kits.map((k) => k.dialect);
  const name = `production:${dialect.name}`;
  const style: RequestStyle = { dialect: dialect.name, editsAsRpc: settings.editsAsRpc, singleReceiverEphemerals: settings.singleReceiverEphemerals };
  const createApi = (api: PlatformApiOptions): PlatformApi => kit.rest({ ...api, protocolName: name, mediaUrl: settings.mediaUrl });
  return Object.freeze({
    name,
    createApi,
    wire: Object.freeze({
      greeting: Object.freeze({ kind: 'on-open' as const, heartbeatIntervalMs: settings.heartbeatIntervalMs, maxFrameBytes: settings.maxFrameBytes }),
      open: (context: CodecContext) =>
        new ProductionCodec({ dialect, known, style, protocolName: name, translate: { selfId: () => context.userId?.() ?? '' }, ...(kit.reshape ? { reshape: kit.reshape } : {}) }, context),
    }),
    session: PRODUCTION_SESSION_FORMAT,
    gatewayUrl: (session: Session) => {
      const base = gatewayBase(session, '');
      if (base === '') throw new AuthenticationError('the session names neither a gateway (ws_url) nor an API URL; log in first');
      return `${base}${SOCKET_QUERY}&token=${encodeURIComponent(session.token)}`;
    },
    can: PRODUCTION_CAN,
    defaults: Object.freeze({
      host: PRODUCTION_DEFAULTS.host,
      port: PRODUCTION_DEFAULTS.port,
      useSSL: PRODUCTION_DEFAULTS.useSSL,
      mmnApiUrl: PRODUCTION_DEFAULTS.mmnApiUrl,
      zkApiUrl: PRODUCTION_DEFAULTS.zkApiUrl,
      proverClientType: PRODUCTION_DEFAULTS.proverClientType,
      restIntervalMs: settings.restIntervalMs,
    }),
  });
}

