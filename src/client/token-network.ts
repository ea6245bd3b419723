import type { Session } from '../session/session.js';
import type { ResolvedClientConfig } from './config.js';

/**
 * The token-network URL a client uses: the configured one, or, when neither
 * URL was configured, the one the session advertises (an emulator's, so host
 * and port are enough to transfer tokens), else the platform's default.
 */
export function tokenNetworkUrl(config: Pick<ResolvedClientConfig, 'tokenNetworkFromSession'>, field: 'mmn_url' | 'zk_url', configured: string, session: Session | undefined): string {
  if (!config.tokenNetworkFromSession) return configured;
  const advertised = session?.[field];
  // Only an http(s) URL is taken from the server; anything else leaves the default in place.
  return advertised && /^https?:\/\//i.test(advertised) ? advertised.replace(/\/+$/, '') : configured;
}
