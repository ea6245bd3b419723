import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNAPSHOT_VERSION, type WorldSnapshot } from './snapshot.js';

/** The files of a data dir. */
export const DATA_DIR_FILES = { secret: 'secret', world: 'world.json' } as const;

/**
 * A folder that keeps an emulator's world between runs: `secret` (signs
 * tokens and derives seeded credentials; readable by its owner only) and
 * `world.json` (written whole, through a temporary file, so a crash mid-write
 * leaves the previous one).
 */
export class DataDir {
  constructor(readonly path: string) {
    mkdirSync(path, { recursive: true });
  }

  /** The secret kept here: `given` replaces it; without one, the kept one, or a new random one on first use. */
  secret(given?: string): string {
    const file = join(this.path, DATA_DIR_FILES.secret);
    const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
    const secret = given ?? (kept || randomBytes(32).toString('base64url'));
    if (secret !== kept) {
      writeFileSync(file, `${secret}\n`, { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    return secret;
  }

  /** The kept world, or undefined when there is none yet. */
  read(): WorldSnapshot | undefined {
    const file = join(this.path, DATA_DIR_FILES.world);
    if (!existsSync(file)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`the data dir's ${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); move it away to start afresh`, { cause: error });
    }
    const version = (parsed as { version?: unknown } | null)?.version;
    if (version !== SNAPSHOT_VERSION) throw new Error(`${file} has format version ${JSON.stringify(version)}; this emulator reads version ${SNAPSHOT_VERSION}`);
    return parsed as WorldSnapshot;
  }

  /** Replaces the kept world with `text` (the JSON of a snapshot). */
  write(text: string): void {
    const file = join(this.path, DATA_DIR_FILES.world);
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, file);
  }
}
