/**
 * The protocol seam: what a protocol supplies (REST, socket codec and
 * greeting, session format, gateway URL, capabilities, default settings)
 * and clanstream's own protocol. A `protocol` setting names the one a client
 * speaks (docs/PROTOCOL.md, "Protocols").
 */
export { clanstreamProtocol } from './clanstream-protocol.js';
export type { PlatformApiOptions, PlatformProtocol, ProtocolCapabilities, ProtocolDefaults, ProtocolSetting } from './platform-protocol.js';
export type { PlatformApi } from '../api/platform-api.js';
export type { CodecContext, Greeting, ServerFrame, SocketCodec, WireFrame, WireProtocol } from '../gateway/wire.js';
export type { ClaimReader, SessionClaims, SessionFormat } from '../session/session-format.js';
