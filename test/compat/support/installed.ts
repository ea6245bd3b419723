/**
 * The platform's published packages that test/compat installs apart from
 * clanstream (scripts/setup/compat-sdk.mjs): whether one is there at the
 * pinned version, and describe blocks that need them, skipped with one loud
 * line when they are missing, or failed under CI.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

export const compatDir = fileURLToPath(new URL('..', import.meta.url));

/** Why `name` is not installed in test/compat at `version`, or undefined when it is. */
export function packageMissing(name: string, version: string): string | undefined {
  const manifest = join(compatDir, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return `${name} is not installed in test/compat`;
  const installed = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  return installed === version ? undefined : `test/compat has ${name} ${installed}, not ${version}`;
}

/**
 * A describe block whose tests need packages of test/compat. When `missing`
 * says what is not there, it is skipped with one loud line naming `purpose`,
 * except under CI, where the missing package fails the run.
 */
export function describeWithCompatPackages(name: string, missing: string | undefined, purpose: string, body: () => void): void {
  if (!missing) {
    describe(name, body);
    return;
  }
  const advice = `${missing}: ${purpose}; install it with \`node scripts/setup/compat-sdk.mjs\``;
  if (process.env.CI) {
    describe(name, () => {
      it('has the packages of test/compat installed', () => {
        throw new Error(advice);
      });
    });
    return;
  }
  process.stderr.write(`SKIPPED ${name}: ${advice}\n`);
  // The body is not run: collecting it would already reach for the missing package.
  describe.skip(name, () => {
    it(advice, () => {});
  });
}
