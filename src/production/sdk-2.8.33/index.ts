/**
 * `clanstream/production/sdk-2.8.33`: the production protocol with its
 * oldest dialect too, `sdk-2.8.33` (the official bot SDK 2.8.33's wire, the
 * one the emulator's compat front end serves), besides those of
 * `clanstream/production`. A file of its own, so browsers that speak a later
 * dialect do not load its schema (docs/guides/connecting-to-the-platform.md).
 *
 * @beta No run against the live platform has been recorded yet.
 * @module clanstream/production/sdk-2.8.33
 */
import type { PlatformProtocol } from '../core.js';
import { MAIN_KITS, type DialectKit } from '../dialect-kit.js';
import { eraAToEraB } from '../events/era-a.js';
import type { ProductionOptions } from '../options.js';
import { buildProduction } from '../production.js';
import { JsonRestApi } from '../rest/json-api.js';
import { SDK_2_8_33 } from '../wire/dialects.js';

const SDK_2_8_33_KIT: DialectKit = { dialect: SDK_2_8_33, rest: (options) => new JsonRestApi(options), reshape: eraAToEraB };

/**
 * The platform's production protocol in one pinned dialect, `sdk-2.8.33`
 * included: `protocol: production({ dialect: 'sdk-2.8.33' })`. See
 * `clanstream/production` for the options.
 *
 * @beta
 */
export function production(options: ProductionOptions = {}): PlatformProtocol {
  return buildProduction(options, [SDK_2_8_33_KIT, ...MAIN_KITS]);
}

export { PRODUCTION_DEFAULTS, type ProductionOptions } from '../options.js';
export type { DialectName } from '../wire/dialects.js';
