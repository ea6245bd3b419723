/**
 * Worker-thread entry of the bench server: builds the frames, starts the
 * server, and answers the requests of {@link startBenchServerInWorker}.
 * Running the producer on its own thread keeps its cost (building and
 * writing frames) off the thread whose receiving cost is measured.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startBenchServer, type BenchServerOptions } from './bench-server.js';
import { buildChannelMessageFrames } from './channel-message-frames.js';
import { buildWorld } from './world.js';
import { buildWorldFrames, WorldFrameStream } from './world-frames.js';
import type { FrameSpread, WorkerReply, WorkerRequest, WorkerSetup } from './worker-server.js';

const port = parentPort;
if (!port) throw new Error('bench-server-worker must run in a worker thread');
const setup = workerData as WorkerSetup;
const building = performance.now();
let options: BenchServerOptions;
let described: Pick<Extract<WorkerReply, { type: 'listening' }>, 'payloadBytes' | 'frameBytes' | 'sample'> & { spread?: FrameSpread };
if (setup.world) {
  const world = buildWorld(setup.world.shape, setup.world.seed);
  if (setup.world.lazy) {
    const stream = new WorldFrameStream(world, setup.frames, setup.world.distribution, setup.seed);
    options = { frames: stream, world };
    const unknown = { min: 0, mean: 0, max: 0 };
    described = { payloadBytes: unknown, frameBytes: unknown, sample: '' };
  } else {
    const set = buildWorldFrames(world, setup.frames, setup.world.distribution, setup.seed);
    options = { frames: set, world };
    const { distinctChannels, distinctSenders, topChannelShare, topSenderShare } = set;
    described = { payloadBytes: set.payloadBytes, frameBytes: set.frameBytes, sample: set.sample, spread: { distinctChannels, distinctSenders, topChannelShare, topSenderShare } };
  }
} else {
  const set = buildChannelMessageFrames(setup.frames, setup.seed, setup.variant);
  options = { frames: set };
  described = { payloadBytes: set.payloadBytes, frameBytes: set.frameBytes, sample: set.sample };
}
const server = await startBenchServer(options);
const post = (message: WorkerReply) => port.postMessage(message);
post({ type: 'listening', port: server.port, ...described, buildMs: performance.now() - building });

port.on('message', (request: WorkerRequest) => {
  const answer = async (): Promise<unknown> => {
    switch (request.type) {
      case 'push':
        return server.push(request.token, request.count, request.from);
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
