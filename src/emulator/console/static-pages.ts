import type { IncomingMessage, ServerResponse } from 'node:http';

/** A file served by the emulator beside its API. */
export interface StaticAsset {
  /** The `content-type` header, e.g. `text/html; charset=utf-8`. */
  type: string;
  body: string | Uint8Array;
}

/** An asset, or a function that makes one when it is requested (it may build it). */
export type AssetSource = StaticAsset | (() => StaticAsset | Promise<StaticAsset>);

/** Sees every request first (any method): answers it and returns true, or returns false to let it through. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Pages the emulator serves on GET and HEAD before its API routes: the web
 * console at `/` (see ./index.ts), and whatever an example or a test
 * adds with {@link StaticPages.add}. Handlers added with {@link StaticPages.use} see every request
 * first (the console's API and its loopback check). Paths are matched exactly; everything else falls
 * through to the API. Set {@link StaticPages.enabled} to false to serve none of them.
 */
export class StaticPages {
  /** When false, no page is served (the API answers every path). */
  enabled = true;
  readonly #pages = new Map<string, AssetSource>();
  readonly #handlers: PageHandler[] = [];

  /** Runs `handler` before the pages, for requests of any method. */
  use(handler: PageHandler): this {
    this.#handlers.push(handler);
    return this;
  }

  /** Serves `source` at `path` (replacing what was there). */
  add(path: string, source: AssetSource): this {
    if (!path.startsWith('/')) throw new Error(`a page path starts with "/", got "${path}"`);
    this.#pages.set(path, source);
    return this;
  }

  /** Stops serving `path`; false when nothing was served there. */
  remove(path: string): boolean {
    return this.#pages.delete(path);
  }

  /** The paths served. */
  paths(): string[] {
    return [...this.#pages.keys()];
  }

  /** The `serveStatic` hook of the HTTP server: answers and returns true when `req` is for a page. */
  handle(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.enabled) return false;
    if (this.#handlers.some((handler) => handler(req, res))) return true;
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = new URL(req.url ?? '/', 'http://emulator').pathname;
    const source = this.#pages.get(path);
    if (!source) return false;
    void respond(req, res, source);
    return true;
  }
}

async function respond(req: IncomingMessage, res: ServerResponse, source: AssetSource): Promise<void> {
  let asset: StaticAsset;
  try {
    asset = typeof source === 'function' ? await source() : source;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!res.headersSent) res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(`this page is not available: ${message}\n`);
    return;
  }
  const body = typeof asset.body === 'string' ? Buffer.from(asset.body, 'utf8') : asset.body;
  res.writeHead(200, {
    'content-type': asset.type,
    'content-length': String(body.byteLength),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
