/**
 * REST answers are bounded by bytes, counted after decompression: a huge
 * body and a gzip bomb from a real node:http server on 127.0.0.1 fail with a
 * typed ApiError (`answer_too_large`) after the client read at most the bound,
 * and the process does not grow by the answer's size.
 */
import { gzipSync } from 'node:zlib';
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ServiceApi } from '../../src/index.js';
import { EXCHANGE_LIMITS } from '../../src/api/exchange-limits.js';
import { rejection } from '../helpers/outcomes.js';
import { streamBytes, TestHttpServer } from '../support/raw-http.js';

const servers: TestHttpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(handle: Parameters<typeof TestHttpServer.start>[0]): Promise<TestHttpServer> {
  const server = await TestHttpServer.start(handle);
  servers.push(server);
  return server;
}

function apiFor(server: TestHttpServer, limits?: Partial<typeof EXCHANGE_LIMITS>): ServiceApi {
  return new ServiceApi({ basePath: server.origin, timeoutMs: 60_000, retries: 0, baseMs: 5, capMs: 10, maxRetryAfterMs: 1000, scheduler: asyncScheduler, random: Math.random, ...(limits ? { limits } : {}) });
}

/** Heap and buffer memory in use now. */
const inUse = (): number => {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/** Runs `work` and returns its outcome with the largest growth of memory in use seen while it ran (sampled every 5 ms). */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ outcome: T; growth: number }> {
  const base = inUse();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, inUse())), 5);
  try {
    const outcome = await work();
    peak = Math.max(peak, inUse());
    return { outcome, growth: peak - base };
  } finally {
    clearInterval(sampler);
  }
}

const MB = 1024 * 1024;

describe('answers are bounded by bytes', () => {
  it('a 400 MB answer fails with answer_too_large once the bound is passed; the heap does not grow by the answer', async () => {
    let written = Promise.resolve(0);
    const server = await serve((_request, res) => {
      // No Content-Length: only counting what arrives can stop it.
      res.writeHead(200, { 'content-type': 'application/json' });
      written = streamBytes(res, 400 * MB, Buffer.alloc(64 * 1024, 0x20));
    });
    const { outcome, growth } = await peakGrowth(() => rejection(apiFor(server).listClans()));
    expect(outcome).toBeInstanceOf(ApiError);
    expect(outcome).toMatchObject({ status: 200, code: 'answer_too_large', route: 'GET /v2/clans' });
    expect((outcome as ApiError).message).toBe(`GET /v2/clans failed (200 answer_too_large): the answer is larger than ${EXCHANGE_LIMITS.maxAnswerBytes} bytes (decompressed); stopped reading it`);
    // The server stopped soon after the bound: the client cancelled the download instead of draining it.
    expect(await written).toBeLessThan(200 * MB);
    expect(growth).toBeLessThan(100 * MB);
  });

  it('a gzip bomb (1 GiB of zeros in about 1 MB) fails the same way: the bound counts decompressed bytes', async () => {
    // 64 gzip members of 16 MiB of zeros each: one valid gzip stream that inflates to 1 GiB.
    const member = gzipSync(Buffer.alloc(16 * MB), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 64 }, () => member));
    expect(bomb.length).toBeLessThan(2 * MB);
    const server = await serve((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      res.end(bomb);
    });
    const { outcome, growth } = await peakGrowth(() => rejection(apiFor(server).listClans()));
    expect(outcome).toMatchObject({ status: 200, code: 'answer_too_large', route: 'GET /v2/clans' });
    expect(growth).toBeLessThan(100 * MB);
    // The client asked for a compressed answer, as fetch does.
    expect(server.requests[0]?.headers['accept-encoding']).toMatch(/gzip/);
  });

  it('a declared Content-Length over the bound is refused before the body is read', async () => {
    const server = await serve((_request, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * MB) });
      void streamBytes(res, 2 * MB, Buffer.alloc(64 * 1024, 0x20));
    });
    const error = await rejection(apiFor(server, { maxAnswerBytes: MB }).listClans());
    expect(error).toMatchObject({ status: 200, code: 'answer_too_large' });
  });

  it('an answer of exactly the bound is read whole; one byte more is refused (gzipped or not)', async () => {
    const body = (size: number) => {
      const head = '{"clans":[],"pad":"';
      return Buffer.from(`${head}${'x'.repeat(size - head.length - 2)}"}`);
    };
    let size = 0;
    let gzip = false;
    const server = await serve((_request, res) => {
      const bytes = body(size);
      res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      res.end(gzip ? gzipSync(bytes) : bytes);
    });
    const api = apiFor(server, { maxAnswerBytes: 4096 });
    for (gzip of [false, true]) {
      size = 4096;
      await expect(api.listClans()).resolves.toMatchObject({ clans: [] });
      size = 4097;
      await expect(api.listClans()).rejects.toMatchObject({ code: 'answer_too_large' });
    }
  });

  it('an answer too large is not retried, even for a GET', async () => {
    const server = await serve((_request, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      void streamBytes(res, 8 * 1024, Buffer.alloc(1024, 0x20));
    });
    const api = new ServiceApi({ basePath: server.origin, timeoutMs: 5000, retries: 3, baseMs: 1, capMs: 2, maxRetryAfterMs: 1000, scheduler: asyncScheduler, random: Math.random, limits: { maxAnswerBytes: 1024 } });
    await expect(api.listClans()).rejects.toMatchObject({ status: 503, code: 'answer_too_large' });
    expect(server.requests).toHaveLength(1);
  });
});
