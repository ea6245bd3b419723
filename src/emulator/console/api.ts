/**
 * The console's own API (JSON, under /console/api/): the world, the ledger,
 * the wire view and the bots' status to look at, and user actions and
 * faults to inject. It is part of the console: loopback clients only unless
 * remote access was turned on, and outside the emulator's wire log (it is
 * not platform traffic).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EmulatorError } from '../errors.js';
import { CONNECTION_FAULTS, injectFault, performAction, readAction, readFault } from './actions.js';
import { botStatuses, type InjectedFault } from './bot-status.js';
import type { ConsoleErrorBody } from './contract.js';
import { CONSOLE_DEFAULTS } from './defaults.js';
import type { ConsolePort } from './port.js';
import type { WireFeed } from './wire-feed.js';
import { ledgerView, worldView } from './world-view.js';

/** The API's routes, by method and path. */
export const CONSOLE_API = {
  world: '/console/api/world',
  ledger: '/console/api/ledger',
  wire: '/console/api/wire',
  bots: '/console/api/bots',
  act: '/console/api/act',
  faults: '/console/api/faults',
} as const;

export interface ConsoleApiDeps {
  port: ConsolePort;
  feed: WireFeed;
  log: (line: string) => void;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(text);
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > CONSOLE_DEFAULTS.maxBodyBytes) {
        reject(new EmulatorError(413, 'payload_too_large', `the body is larger than ${CONSOLE_DEFAULTS.maxBodyBytes} bytes`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(EmulatorError.badRequest('the body is not valid JSON'));
      }
    });
    req.on('error', reject);
  });
}

/** The console's API handler: answers and returns true for its paths, false for anything else. */
export class ConsoleApi {
  private readonly down = new Set<'prover' | 'ledger'>();
  private lastFault: InjectedFault | undefined;

  constructor(private readonly deps: ConsoleApiDeps) {}

  handle(req: IncomingMessage, res: ServerResponse): boolean {
    const url = new URL(req.url ?? '/', 'http://emulator');
    if (!url.pathname.startsWith('/console/api/')) return false;
    void this.answer(req, res, url).catch((error: unknown) => {
      if (error instanceof EmulatorError) return sendJson(res, error.status, { error: error.message } satisfies ConsoleErrorBody);
      this.deps.log(`console: ${req.method ?? '?'} ${url.pathname} failed: ${error instanceof Error ? error.message : String(error)}`);
      sendJson(res, 500, { error: 'the console failed to handle the request' } satisfies ConsoleErrorBody);
    });
    return true;
  }

  private async answer(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const { port, feed } = this.deps;
    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    switch (route) {
      case `GET ${CONSOLE_API.world}`:
        return sendJson(res, 200, worldView(port));
      case `GET ${CONSOLE_API.ledger}`:
        return sendJson(res, 200, ledgerView(port, this.down));
      case `GET ${CONSOLE_API.bots}`:
        return sendJson(res, 200, { bots: botStatuses(port, feed, this.lastFault) });
      case `GET ${CONSOLE_API.wire}`: {
        const after = Number(url.searchParams.get('after') ?? 0);
        const filter = {
          channel: url.searchParams.get('channel') ?? undefined,
          user: url.searchParams.get('user') ?? undefined,
          kind: url.searchParams.get('kind') ?? undefined,
        };
        return sendJson(res, 200, feed.read(Number.isFinite(after) ? after : 0, filter, CONSOLE_DEFAULTS.wirePageSize));
      }
      case `POST ${CONSOLE_API.act}`:
        return sendJson(res, 200, { ok: true, event: performAction(port, readAction(await readJson(req))) });
      case `POST ${CONSOLE_API.faults}`: {
        const fault = readFault(await readJson(req));
        if (CONNECTION_FAULTS.has(fault.kind)) this.lastFault = { kind: fault.kind, at: Date.now(), seq: feed.last() };
        const inject = () => injectFault(port, fault, this.down, this.deps.log);
        // A restart cuts every socket at once, this answer's too: answer first.
        if (fault.kind === 'restart') res.once('finish', inject);
        else inject();
        // The bots as they stand right after the fault, so the page sees them go down however fast they come back.
        return sendJson(res, 200, { ok: true, bots: botStatuses(port, feed, this.lastFault) });
      }
      default: {
        const known = Object.values(CONSOLE_API).includes(url.pathname as never);
        throw new EmulatorError(known ? 405 : 404, known ? 'method_not_allowed' : 'not_found', known ? `${req.method ?? '?'} is not allowed on ${url.pathname}` : `no console route ${url.pathname}`);
      }
    }
  }
}
