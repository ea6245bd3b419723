/**
 * Keeping an emulator's world in a data dir (`--data-dir`): accounts and
 * their API keys, clans, channels, messages, roles, webhooks, the ledger and
 * the signing secret survive a restart of the process.
 */
import type { PlatformContext } from '../platform/context.js';
import type { TokenService } from '../tokens.js';
import { DataDir } from './data-dir.js';
import { restoreSnapshot, takeSnapshot } from './snapshot.js';

export { DataDir, DATA_DIR_FILES } from './data-dir.js';
export { SNAPSHOT_VERSION, type WorldSnapshot } from './snapshot.js';

/** How often a changed world is written while the emulator runs (it is always written at close). */
export const PERSISTENCE_DEFAULTS = { autosaveMs: 2000 } as const;

/** The world of one emulator, kept in one data dir. */
export class WorldPersistence {
  private lastWritten: string | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly dir: DataDir,
    private readonly ctx: PlatformContext,
    private readonly tokens: TokenService,
    private readonly autosaveMs: number = PERSISTENCE_DEFAULTS.autosaveMs,
  ) {}

  /** Restores the kept world into the (empty) world; false when the data dir holds none yet. */
  load(): boolean {
    const snapshot = this.dir.read();
    if (!snapshot) return false;
    restoreSnapshot(this.ctx, snapshot);
    this.tokens.importState(snapshot.tokens);
    this.lastWritten = JSON.stringify(snapshot);
    return true;
  }

  /** Writes the world now if it changed since the last write. */
  save(): void {
    const text = JSON.stringify(takeSnapshot(this.ctx, this.tokens.exportState()));
    if (text === this.lastWritten) return;
    this.dir.write(text);
    this.lastWritten = text;
  }

  /** Saves every `autosaveMs` until {@link stop}; the timer never keeps the process alive. */
  start(onError: (error: unknown) => void): void {
    this.timer ??= setInterval(() => {
      try {
        this.save();
      } catch (error) {
        onError(error);
      }
    }, this.autosaveMs);
    this.timer.unref();
  }

  /** Stops saving on a timer, and saves once more; does nothing when saving never started (a start that failed half-way). */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.save();
  }
}
