/**
 * A one-page app on its own origin (another port is another origin) that
 * imports the library's browser bundle as `./clanstream.js`: what a browser
 * application built on clanstream serves.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const BUNDLE = new URL('../../dist/browser/clanstream.js', import.meta.url);

/** Serves `html` at every path but `/clanstream.js`, which is the browser bundle. */
export async function serveBundleApp(html: string): Promise<{ server: Server; origin: string }> {
  const bundle = await readFile(BUNDLE, 'utf8');
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://app').pathname;
    if (path === '/clanstream.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
