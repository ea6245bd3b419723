/**
 * The compat front end: the platform's production protocol (the REST paths
 * and the binary protobuf socket the official SDK uses) served over the
 * emulator's world, beside the emulator's own protocol. A message an SDK bot
 * sends is stored exactly as one from a clanstream client, and each sees
 * the other's. The emulator loads this module only when started with
 * `compat: true`, so the protobuf runtime stays out of every other path.
 * docs/COMPAT.md lists what is served.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Route } from '../http/router.js';
import { productionRoutes } from './rest.js';
import { ProductionSocketServer, type ProductionSocketDeps } from './socket-server.js';

export { COMPAT_DEFAULTS } from './defaults.js';

/** What the emulator mounts: routes matched before its own, and an upgrade taker tried before its gateway's. */
export interface CompatFrontEnd {
  readonly routes: readonly Route[];
  /** Takes a production socket upgrade; false for any other upgrade. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): Promise<void>;
}

export function createCompatFrontEnd(deps: ProductionSocketDeps): CompatFrontEnd {
  const sockets = new ProductionSocketServer(deps);
  return {
    routes: productionRoutes(),
    handleUpgrade: (req, socket, head) => sockets.handleUpgrade(req, socket, head),
    close: () => sockets.close(),
  };
}
