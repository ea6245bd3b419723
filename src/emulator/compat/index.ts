/**
 * The compat front end: the platform's production protocol served over the
 * emulator's world, beside the emulator's own protocol, in each of its
 * dialects (docs/DIALECTS.md): era A's JSON REST paths, eras B and C's
 * protobuf RPCs, the login's JSON or protobuf session, and the protobuf
 * socket, whose dialect each socket's frames show. A message a production
 * client sends is stored exactly as one from a clanstream client, and each
 * sees the other's. The emulator loads this module only when started with
 * `compat: true`, so the protobuf runtime stays out of every other path.
 * docs/COMPAT.md lists what is served.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GatewayServer } from '../gateway/server.js';
import type { HttpServices, Route } from '../http/router.js';
import type { WireLog } from '../wire-log.js';
import { BotRefusals, type RefusableCall, type RefusalStatus } from './bot-refusals.js';
import { emulatorHandlers } from './emulator-routes.js';
import { productionRoutes } from './rest.js';
import { rpcHandlers } from './rpc-handlers.js';
import { rpcRoute } from './rpc-route.js';
import { ProductionSocketServer } from './socket-server.js';
import { sessionRefreshRoute } from './session-refresh-route.js';

export { COMPAT_DEFAULTS } from './defaults.js';
export type { RefusableCall, RefusalStatus } from './bot-refusals.js';

/** What the front end works with: the emulator's services, its gateway (for the sockets' lifecycle) and its wire log. */
export interface CompatDeps {
  readonly services: HttpServices;
  readonly gateway: GatewayServer;
  readonly wire: WireLog;
  readonly log: (line: string) => void;
}

/** What the emulator mounts: routes matched before its own, and an upgrade taker tried before its gateway's. */
export interface CompatFrontEnd {
  readonly routes: readonly Route[];
  /** Takes a production socket upgrade; false for any other upgrade. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Refreshes the sessions of a user's era-C sockets (every user's without one) and pushes them `refresh_session_event`; how many sockets were told. */
  refreshSessions(userId?: string): number;
  /** Refuses user-client calls to bots with a status from now on; none, with no calls given. */
  refuseBotCalls(calls: readonly RefusableCall[], status: RefusalStatus): void;
  /** Answers channel joins without keeping them (false), or keeps them again (true). */
  keepChannelJoins(keep: boolean): void;
  close(): Promise<void>;
}

export function createCompatFrontEnd(deps: CompatDeps): CompatFrontEnd {
  const emulator = emulatorHandlers();
  // The sockets hear of refreshes made over REST, and the RPCs they carry refresh too: the two refer to each other.
  const refreshes = { announce: (session: Parameters<ProductionSocketServer['announce']>[0]) => sockets.announce(session) };
  const refusals = new BotRefusals();
  const rpcs = rpcHandlers(emulator, refreshes, refusals);
  const sockets = new ProductionSocketServer({ ...deps, rpcs });
  return {
    routes: [...productionRoutes(emulator, refreshes, refusals), rpcRoute(rpcs, deps.log), sessionRefreshRoute(sockets)],
    handleUpgrade: (req, socket, head) => sockets.handleUpgrade(req, socket, head),
    refreshSessions: (userId) => sockets.refreshSessions(userId),
    refuseBotCalls: (calls, status) => refusals.refuse(calls, status),
    keepChannelJoins: (keep) => {
      sockets.keepChannelJoins = keep;
    },
    close: () => sockets.close(),
  };
}
