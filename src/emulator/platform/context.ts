import type { Hub } from '../gateway/hub.js';
import type { IdGenerator } from '../ids.js';
import type { Ledger } from '../ledger/ledger.js';
import type { ResolvedEmulatorOptions } from '../options.js';
import type { World } from '../world/world.js';

/** What the platform's operations work on. Shared by the gateway, the HTTP routes and the test API. */
export interface PlatformContext {
  readonly world: World;
  readonly hub: Hub;
  readonly ids: IdGenerator;
  readonly ledger: Ledger;
  readonly options: ResolvedEmulatorOptions;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);
