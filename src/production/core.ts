/**
 * What `clanstream/production` takes from the library: every class and value
 * it shares with the core entry comes through here, so that in the browser,
 * where this module is the core bundle (`./clanstream.js`, see
 * tsup.config.ts), errors and events stay the core's own classes
 * (`instanceof` holds across both files).
 */
export * from '../index.js';
