/**
 * Starts the emulator, seeded with a bench world's clans and channels, on a
 * worker thread of this process (bench/support/emulator-worker.ts), through
 * tsx's API like worker-server.ts.
 */
import { Worker } from 'node:worker_threads';
import type { WorldShape } from './world.js';

export interface EmulatorWorkerSetup {
  shape: WorldShape;
  /** Seed of the channel-count skew (the world's seed). */
  seed: number;
}

export type EmulatorWorkerReply =
  | { type: 'ready'; url: string; botId: string; token: string; clans: number; channels: number; dmChannels: number; seedMs: number }
  | { type: 'closed' };

export interface SeededEmulator {
  readonly url: string;
  readonly botId: string;
  readonly token: string;
  readonly clans: number;
  /** Clan channels created (welcome channels included). */
  readonly channels: number;
  readonly dmChannels: number;
  readonly seedMs: number;
  close(): Promise<void>;
}

export function startSeededEmulatorInWorker(setup: EmulatorWorkerSetup): Promise<SeededEmulator> {
  const entry = new URL('./emulator-worker.ts', import.meta.url).href;
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`;
  const worker = new Worker(code, { eval: true, workerData: setup });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (reply: EmulatorWorkerReply) => {
      if (reply.type !== 'ready') return reject(new Error('the emulator worker did not start'));
      worker.off('error', reject);
      const { url, botId, token, clans, channels, dmChannels, seedMs } = reply;
      resolve({
        url,
        botId,
        token,
        clans,
        channels,
        dmChannels,
        seedMs,
        close: async () => {
          const closed = new Promise<void>((res) => worker.once('message', () => res()));
          worker.postMessage({ type: 'close' });
          await Promise.race([closed, new Promise<void>((res) => setTimeout(res, 5_000))]);
          await worker.terminate();
        },
      });
    });
  });
}
