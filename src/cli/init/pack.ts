import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What `npm pack --json` says of a tarball. */
export interface PackedTarball {
  filename: string;
  integrity: string;
  version: string;
  /** Bytes of the tarball. */
  size: number;
  /** Bytes of the files in it. */
  unpackedSize: number;
}

/**
 * Packs the package in `dir` into `destination` with `npm pack`, as it would
 * be published: its `files`, its built `dist/`. Scripts do not run (a
 * checkout's `prepare` would rebuild dist/); a package without dist/ is
 * refused with the command that builds it.
 */
export async function packPackage(dir: string, destination: string): Promise<PackedTarball> {
  if (!existsSync(join(dir, 'dist'))) throw new Error(`${dir} has no dist/: run "npm run build" there first`);
  mkdirSync(destination, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination, dir], {
    maxBuffer: 16 * 1024 * 1024,
    // npm is a script (npm.cmd) on Windows.
    shell: process.platform === 'win32',
  });
  const [packed] = JSON.parse(stdout) as PackedTarball[];
  if (!packed) throw new Error(`npm pack ${dir} made no tarball`);
  const { filename, integrity, version, size, unpackedSize } = packed;
  return { filename, integrity, version, size, unpackedSize };
}
