import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command-line mistake: printed with the usage, exit code 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Whether `arg` names one of the declared options (`--name`, `--name=…`, `-x`), or ends them (`--`). */
function isDeclaredFlag(arg: string, options: Options): boolean {
  if (arg === '--') return true;
  if (arg.startsWith('--')) return Object.hasOwn(options, arg.slice(2).split('=', 1)[0]!);
  return arg.length === 2 && Object.values(options).some((o) => o.short === arg[1]);
}

/**
 * Joins a string option to a value that starts with a dash (`--token -Xk…`
 * becomes `--token=-Xk…`): keys and texts may begin with one (a base64url key
 * does one time in 64), and parseArgs refuses them as ambiguous. A value that
 * is itself a declared flag stays a flag, so a forgotten value is still named.
 */
function joinDashValues(argv: string[], options: Options): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...joined, ...argv.slice(i)];
    const next = argv[i + 1];
    const option = arg.startsWith('--') && !arg.includes('=') ? options[arg.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && next.startsWith('-') && !isDeclaredFlag(next, options)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
}

/** parseArgs with strict checking, turning its errors into {@link UsageError}. */
export function parse<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: joinDashValues(argv, options), options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
