/**
 * What `clanstream/production` takes from the library: every class and value
 * it shares with the core entry comes through here, so that in the browser,
 * where this module is the core bundle (`./clanstream.js`, see
 * tsup.config.ts), errors and events stay the core's own classes
 * (`instanceof` holds across both files).
 */
export * from '../index.js';
// The core entry exports these too, marked internal (kept out of its declarations): named here for the
// declarations of this entry.
export { jsonOrText, type HttpMethod, type RequestSpec, type RequestTarget } from '../api/request.js';
export { SessionRequests } from '../api/session-requests.js';
