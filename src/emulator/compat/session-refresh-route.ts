import { InputReader } from '../input.js';
import { TEST_API_PREFIX } from '../http/routes/test-api.js';
import { route, type Route } from '../http/router.js';
import type { ProductionSocketServer } from './socket-server.js';

/**
 * `POST /emulator/sessions/refresh {user?}`: the test API's way to refresh
 * sessions as the platform does on its own, so era-C sockets
 * (sdk-2.8.44) are pushed `refresh_session_event`, for tools outside the
 * process (the programmatic way is `Emulator.refreshSessions`). The user is
 * named by id; without one, every era-C socket's session is refreshed.
 * Answers how many sockets were told. Served with the production protocol
 * only, from this machine only.
 */
export function sessionRefreshRoute(sockets: Pick<ProductionSocketServer, 'refreshSessions'>): Route {
  // The test API is `local`: for programs on this machine only (../http/local-access.ts).
  return {
    ...route(
    'POST',
    `${TEST_API_PREFIX}/sessions/refresh`,
    (ctx) => {
      const input = new InputReader(ctx.body ?? {}, 'the body');
      const user = input.optionalString('user');
      input.done('session refresh');
      if (user !== undefined) ctx.services.platform.world.user(user);
      return { told: sockets.refreshSessions(user) };
    },
    'none',
    ),
    local: true,
  };
}
