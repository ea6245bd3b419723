/**
 * The web console's script (served as /console/app.js). It imports the
 * library from the browser bundle served beside it (/console/clanstream.js),
 * so the console is a real user of that bundle, and draws with Preact,
 * bundled in at build time.
 */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (!root) throw new Error('the console page has no #app');
render(<App />, root);
