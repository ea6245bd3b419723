/**
 * Worker-thread entry of the bench server: builds the frames, starts the
 * server, and answers the requests of {@link startBenchServerInWorker}.
 * Running the producer on its own thread keeps its cost (building and
 * writing frames) off the thread whose receiving cost is measured.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startBenchServer } from './bench-server.js';
import { buildChannelMessageFrames } from './channel-message-frames.js';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './worker-server.js';

const port = parentPort;
if (!port) throw new Error('bench-server-worker must run in a worker thread');
const setup = workerData as WorkerSetup;
const set = buildChannelMessageFrames(setup.frames, setup.seed, setup.variant);
const server = await startBenchServer({ frames: set });
const post = (message: WorkerReply) => port.postMessage(message);
post({ type: 'listening', port: server.port, payloadBytes: set.payloadBytes, frameBytes: set.frameBytes, sample: set.sample });

port.on('message', (request: WorkerRequest) => {
  const answer = async (): Promise<unknown> => {
    switch (request.type) {
      case 'push':
        return server.push(request.token, request.count);
      case 'stats':
        return server.stats();
      case 'close':
        await server.close();
        return undefined;
    }
  };
  answer().then(
    (result) => {
      post({ type: 'result', id: request.id, result });
      if (request.type === 'close') port.close();
    },
    (error: unknown) => post({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) }),
  );
});
