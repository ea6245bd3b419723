/**
 * HTTP servers on 127.0.0.1 that answer exactly what a test says, for the
 * REST answer and redirect rules: a node:http server whose handler writes the
 * answer itself (streamed bodies, gzip, redirects), and a raw TCP server that
 * writes any bytes at all (a Content-Length that lies, broken headers).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One request a test server received. */
export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A node:http server on 127.0.0.1 that records requests and lets `handle` answer them. */
export class TestHttpServer {
  readonly requests: SeenRequest[] = [];

  private constructor(private readonly server: ReturnType<typeof createServer>) {}

  static async start(handle: (request: SeenRequest, res: ServerResponse) => void | Promise<void>): Promise<TestHttpServer> {
    const server = createServer();
    const started = new TestHttpServer(server);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request: SeenRequest = { method: req.method ?? 'GET', path: new URL(req.url ?? '/', 'http://x').pathname, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
        started.requests.push(request);
        void Promise.resolve(handle(request, res)).catch(() => res.destroy());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return started;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Streams `total` bytes (chunks of `chunk`) to `res`, waiting for the client to read, and stops as soon as
 * the client goes away. Resolves with the bytes written.
 */
export async function streamBytes(res: ServerResponse, total: number, chunk: Buffer): Promise<number> {
  let written = 0;
  let gone = false;
  res.on('close', () => (gone = true));
  while (written < total && !gone) {
    const piece = total - written >= chunk.length ? chunk : chunk.subarray(0, total - written);
    written += piece.length;
    if (!res.write(piece)) await new Promise<void>((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
  }
  if (!gone) res.end();
  return written;
}

/** A TCP server on 127.0.0.1 that writes `answer(requestHead)` to every connection, then closes it. */
export class RawHttpServer {
  /** The request heads received (request line and headers). */
  readonly heads: string[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: ReturnType<typeof createTcpServer>) {}

  static async start(answer: (head: string) => Uint8Array | Promise<Uint8Array>): Promise<RawHttpServer> {
    const server = createTcpServer();
    const started = new RawHttpServer(server);
    server.on('connection', (socket) => {
      started.sockets.add(socket);
      socket.on('close', () => started.sockets.delete(socket));
      socket.on('error', () => {});
      let received = '';
      socket.on('data', (data: Buffer) => {
        received += data.toString('latin1');
        const end = received.indexOf('\r\n\r\n');
        if (end === -1 || received === '') return;
        const head = received.slice(0, end);
        received = '';
        started.heads.push(head);
        void Promise.resolve(answer(head)).then(
          (bytes) => socket.end(Buffer.from(bytes)),
          () => socket.destroy(),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return started;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
