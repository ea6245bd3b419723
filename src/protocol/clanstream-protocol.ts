import { ServiceApi } from '../api/service-api.js';
import { AuthenticationError } from '../errors/authentication-error.js';
import { clanstreamWire } from '../gateway/clanstream-wire.js';
import { GATEWAY_PATH, PROTOCOL_VERSION } from '../gateway/protocol.js';
import { CLANSTREAM_SESSION_FORMAT } from '../session/session-format.js';
import type { Session } from '../session/session.js';
import type { PlatformApiOptions, PlatformProtocol, ProtocolCapabilities } from './platform-protocol.js';

/** clanstream's protocol can do everything the client asks. */
const EVERYTHING: ProtocolCapabilities = Object.freeze({
  resume: true,
  idempotentWrites: true,
  socketTokenMove: true,
  memberList: true,
  history: true,
  userLookup: true,
  clanLookup: true,
  messageLookup: true,
  dmSpaceJoin: false,
});

/**
 * clanstream's own protocol (docs/PROTOCOL.md): JSON REST on `/v2/*`
 * ({@link ServiceApi}), JSON text frames greeted by `hello` with resume,
 * idempotency keys and token moves. The default of the `protocol` setting;
 * its settings are `CLIENT_DEFAULTS`.
 */
export const clanstreamProtocol: PlatformProtocol = Object.freeze({
  name: 'clanstream',
  createApi: (options: PlatformApiOptions) => new ServiceApi(options),
  wire: clanstreamWire,
  session: CLANSTREAM_SESSION_FORMAT,
  gatewayUrl: (session: Session) => {
    if (!session.ws_url) throw new AuthenticationError('there is no session with a gateway URL; log in first');
    return `${session.ws_url}${GATEWAY_PATH}?token=${encodeURIComponent(session.token)}&protocol=${PROTOCOL_VERSION}`;
  },
  can: EVERYTHING,
});
