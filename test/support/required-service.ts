/**
 * Suites that need a program installed on the machine (Debian's chromium, redis-server): when it is
 * missing, the suite is skipped with one loud line saying what and how to install it; in CI
 * (`process.env.CI` set) a missing program fails the run instead, so a green CI never hides it.
 */
import { existsSync } from 'node:fs';

/** A program a suite needs, and how to install it. */
export interface RequiredService {
  /** What the suites use it for, e.g. "redis-server (the scale-out suites)". */
  readonly what: string;
  /** Absolute path of the executable. */
  readonly path: string;
  /** The command that installs it. */
  readonly install: string;
}

const announced = new Set<string>();

/**
 * Whether the suites that need `service` run. Missing outside CI: false, after one warning line per
 * process. Missing in CI: throws, so the suite file fails loudly.
 */
export function serviceAvailable(service: RequiredService, env: NodeJS.ProcessEnv = process.env): boolean {
  if (existsSync(service.path)) return true;
  const line = `${service.what} is missing (${service.path}): install it with \`${service.install}\` (npm test runs scripts/setup.mjs, which does it as root)`;
  if (env.CI) throw new Error(`CI: ${line}`);
  if (!announced.has(service.path)) {
    announced.add(service.path);
    process.stderr.write(`\n!!! SKIPPED: ${line}\n\n`);
  }
  return false;
}
