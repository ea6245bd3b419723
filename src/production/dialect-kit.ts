import type { PlatformApi } from './core.js';
import type { ProductionRestOptions } from './rest/production-rest.js';
import { RpcRestApi } from './rest/rpc-api.js';
import { SDK_2_8_37, SDK_2_8_44, type Dialect, type DialectName } from './wire/dialects.js';

/**
 * What one dialect brings to the production protocol besides its wire
 * (src/production/wire): its REST side, and how its pushes become era B's
 * shapes, which the translators read.
 */
export interface DialectKit {
  readonly dialect: Dialect;
  rest(options: ProductionRestOptions): PlatformApi;
  /** Reshapes a decoded message into era B's shape, in place (sdk-2.8.33 only). */
  readonly reshape?: <T>(message: T) => T;
}

export const SDK_2_8_37_KIT: DialectKit = { dialect: SDK_2_8_37, rest: (options) => new RpcRestApi(options, 'sdk-2.8.37') };
export const SDK_2_8_44_KIT: DialectKit = { dialect: SDK_2_8_44, rest: (options) => new RpcRestApi(options, 'sdk-2.8.44') };

/** The dialects of `clanstream/production`: the default one and the one before. */
export const MAIN_KITS: readonly DialectKit[] = [SDK_2_8_37_KIT, SDK_2_8_44_KIT];

/** Where a dialect that is not in `clanstream/production` is. */
export const ENTRY_OF: Readonly<Partial<Record<DialectName, string>>> = { 'sdk-2.8.33': 'clanstream/production/sdk-2.8.33' };
