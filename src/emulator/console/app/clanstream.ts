/**
 * What `./clanstream.js` is to the console app: the library. In the browser
 * the app imports the browser bundle served beside it (/console/clanstream.js,
 * kept external when app.ts is bundled); this module only gives the type
 * checker the same exports.
 */
export * from '../../../index.js';
