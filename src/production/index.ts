/**
 * `clanstream/production`: the platform's production protocol for a
 * ServiceClient, `protocol: production({ dialect })`
 * (docs/guides/connecting-to-the-platform.md).
 *
 * @beta No run against the live platform has been recorded yet.
 * @module clanstream/production
 */
export { production } from './production.js';
export { PRODUCTION_DEFAULTS, type ProductionOptions } from './options.js';
export type { DialectName } from './wire/dialects.js';
