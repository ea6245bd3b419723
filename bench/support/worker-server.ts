/**
 * Runs the bench server (bench-server.ts) in a worker thread of this
 * process and exposes it as a {@link BenchServerHandle}.
 *
 * The worker is started through tsx's API so it can load TypeScript
 * (a plain `new Worker('x.ts')` does not inherit tsx's loader on Node 20).
 */
import { Worker } from 'node:worker_threads';
import type { BenchServerHandle, PushResult } from './bench-server.js';
import type { FrameVariant, FrameSet } from './channel-message-frames.js';
import type { Distribution, WorldShape } from './world.js';

export interface WorkerSetup {
  frames: number;
  seed: number;
  /** Frames of the small world (ignored with `world`). */
  variant: FrameVariant;
  /**
   * Serve a generated world (bench/support/world.ts) and push `frames`
   * channel_message events over it, channels and senders picked by
   * `distribution`; `lazy` encodes frames as they are written instead of up front.
   */
  world?: { shape: WorldShape; seed: number; distribution: Distribution; lazy?: boolean };
}

/** Who the generated events reach (world frames only; not computed for lazy frames). */
export interface FrameSpread {
  distinctChannels: number;
  distinctSenders: number;
  topChannelShare: number;
  topSenderShare: number;
}

type Request = { type: 'push'; token: string; count: number; from?: number } | { type: 'stats' } | { type: 'close' };
export type WorkerRequest = Request & { id: number };

export type WorkerReply =
  | { type: 'listening'; port: number; payloadBytes: FrameSet['payloadBytes']; frameBytes: FrameSet['frameBytes']; sample: string; spread?: FrameSpread; buildMs: number }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string };

export interface WorkerBenchServer extends BenchServerHandle {
  readonly payloadBytes: FrameSet['payloadBytes'];
  readonly frameBytes: FrameSet['frameBytes'];
  /** The first frame, as text. */
  readonly sample: string;
  readonly spread: FrameSpread | undefined;
  /** Time the worker took to build the world and frames. */
  readonly buildMs: number;
}

/** Starts a worker that builds `setup.frames` frames and serves them; resolves once it listens. */
export function startBenchServerInWorker(setup: WorkerSetup): Promise<WorkerBenchServer> {
  const entry = new URL('./bench-server-worker.ts', import.meta.url).href;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  const worker = new Worker(code, { eval: true, workerData: setup });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const call = <T>(request: Request): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...request, id });
    });

  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (reply: WorkerReply) => {
      if (reply.type === 'listening') {
        worker.off('error', reject);
        worker.on('error', (error) => {
          for (const w of waiting.values()) w.reject(error);
          waiting.clear();
        });
        const baseUrl = `http://127.0.0.1:${reply.port}`;
        resolve({
          port: reply.port,
          baseUrl,
          payloadBytes: reply.payloadBytes,
          frameBytes: reply.frameBytes,
          sample: reply.sample,
          spread: reply.spread,
          buildMs: reply.buildMs,
          push: (token, count, from) => call<PushResult>({ type: 'push', token, count, ...(from !== undefined ? { from } : {}) }),
          stats: () => call({ type: 'stats' }),
          close: async () => {
            await call({ type: 'close' });
            await worker.terminate();
          },
        });
        return;
      }
      const pending = waiting.get(reply.id);
      if (!pending) return;
      waiting.delete(reply.id);
      if (reply.type === 'result') pending.resolve(reply.result);
      else pending.reject(new Error(reply.message));
    });
  });
}
