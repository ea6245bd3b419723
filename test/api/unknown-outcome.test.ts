/**
 * A request whose first attempt got no answer, and whose retry is refused
 * without being processed (429, 503), may still have been applied by the
 * first attempt: the caller gets the no-answer error (outcome unknown), never
 * the refusal, which would read as "not done".
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpRequester } from '../../src/api/request.js';
import { ApiError } from '../../src/errors/api-error.js';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

/** A server answering its n-th request with answers[n]; a request beyond them is held. */
async function serve(answers: Answer[]): Promise<{ server: Server; url: string; received: () => number }> {
  let count = 0;
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const answer = answers[count++];
    req.resume();
    if (answer) answer(req, res);
    else held.push(res);
  });
  server.on('close', () => held.forEach((res) => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => count };
}

const hold: Answer = () => undefined;
const refuse =
  (status: number): Answer =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' }).end(JSON.stringify({ code: status === 429 ? 'rate_limited' : 'unavailable', message: 'busy' }));

describe('a retried request whose earlier attempt got no answer', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  async function send(answers: Answer[]): Promise<{ error: unknown; received: number }> {
    const served = await serve(answers);
    server = served.server;
    const http = new HttpRequester({ timeoutMs: 300, retries: 1, baseMs: 1, capMs: 1, maxRetryAfterMs: 1000, scheduler: asyncScheduler, random: () => 0 });
    const error = await http
      .request({ method: 'POST', route: 'JSON-RPC tx.addtx', path: '', body: { tx: 1 }, idempotent: true }, () => ({ baseUrl: served.url, headers: {} }))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    return { error, received: served.received() };
  }

  it.each([429, 503])('fails with the timeout (outcome unknown), not the %i that refused the retry', async (status) => {
    const { error, received } = await send([hold, refuse(status)]);
    expect(received).toBe(2);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('timeout');
    expect((error as ApiError).status).toBe(0);
  });

  it('fails with the refusal when every attempt was answered', async () => {
    const { error, received } = await send([refuse(503), refuse(429)]);
    expect(received).toBe(2);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).code).toBe('rate_limited');
  });
});
