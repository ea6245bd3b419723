import type { Server } from 'node:http';

/** What a restart needs from the emulator. */
export interface RestartDeps {
  /** The HTTP server (the gateway upgrades on it): stopped, then bound again to the same port. */
  server: Server;
  host: string;
  /** Cuts what is not a socket of the HTTP server and forgets the in-memory gateway state. */
  crash(): void;
  /** True once the emulator was closed: it must not listen again. */
  closed(): boolean;
  log?: (line: string) => void;
}

/** A restart in progress: when it listens again, and the promise callers wait on. */
interface Outage {
  until: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  listening: Promise<void>;
  settle: (error?: Error) => void;
}

/** How long a restart keeps trying to bind its old port while the previous socket is being released. */
const REBIND = { deadlineMs: 2000, pauseMs: 20 } as const;

/**
 * Restarts of the emulator, as a crash or a deploy would do them: every
 * socket cut, the port closed for a while, then listening again on the
 * same port. A restart while down extends the outage.
 */
export class Restarts {
  private outage: Outage | undefined;

  constructor(private readonly deps: RestartDeps) {}

  /** True between `restart()` and listening again. */
  get active(): boolean {
    return this.outage !== undefined;
  }

  /** Resolves once the server listens on the same port again. */
  restart(downMs: number, port: number): Promise<void> {
    this.deps.crash();
    if (!this.outage) {
      let settle!: (error?: Error) => void;
      const listening = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
      this.outage = { until: 0, timer: undefined, listening, settle };
      // Stop accepting first, then cut what is open, so nothing slips in between.
      this.deps.server.close();
      this.deps.server.closeAllConnections();
      this.deps.log?.('emulator: restarting (every socket cut, gateway sessions forgotten)');
    }
    const outage = this.outage;
    outage.until = Math.max(outage.until, Date.now() + downMs);
    if (outage.timer) clearTimeout(outage.timer);
    outage.timer = setTimeout(() => {
      outage.timer = undefined;
      this.relisten(outage, port).then(
        () => outage.settle(),
        (error: unknown) => outage.settle(error instanceof Error ? error : new Error(String(error))),
      );
    }, Math.max(0, outage.until - Date.now()));
    return outage.listening;
  }

  /** Closed while down after a restart: it simply never listens again. */
  cancel(): void {
    const outage = this.outage;
    if (!outage) return;
    if (outage.timer) clearTimeout(outage.timer);
    this.outage = undefined;
    outage.settle();
  }

  /** Binds the port it had again (retrying briefly if the old socket is still being released). */
  private async relisten(outage: Outage, port: number): Promise<void> {
    const deadline = Date.now() + REBIND.deadlineMs;
    for (;;) {
      if (this.outage !== outage) return;
      try {
        await new Promise<void>((resolve, reject) => {
          const server = this.deps.server;
          const onError = (error: Error) => reject(error);
          server.once('error', onError);
          server.listen(port, this.deps.host, () => {
            server.off('error', onError);
            resolve();
          });
        });
        if (this.deps.closed()) {
          // close() ran while the port was being bound: do not stay listening.
          this.deps.server.close();
          return;
        }
        this.outage = undefined;
        this.deps.log?.('emulator: listening again after a restart');
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) {
          this.outage = undefined;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, REBIND.pauseMs));
      }
    }
  }
}
