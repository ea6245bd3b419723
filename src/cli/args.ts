import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command-line mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

/** parseArgs with strict checking, turning its errors into {@link UsageError}. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
