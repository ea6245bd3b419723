/** The command line's option parser: values that start with a dash, and mistakes it still names. */
import { describe, expect, it } from 'vitest';
import { parse, UsageError } from '../../src/cli/args.js';

const OPTIONS = {
  token: { type: 'string' },
  text: { type: 'string', short: 't' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

describe('parse', () => {
  it('takes a value that begins with a dash as the value of a string option (a base64url key does one time in 64)', () => {
    const { values, positionals } = parse(['--token', '-Xk9_a-b', '--text', '-5 degrees', '--json', 'rest'], OPTIONS);
    expect(values).toEqual({ token: '-Xk9_a-b', text: '-5 degrees', json: true });
    expect(positionals).toEqual(['rest']);
  });

  it('still names a forgotten value when what follows is a declared flag, long or short', () => {
    expect(() => parse(['--token', '--json'], OPTIONS)).toThrow(UsageError);
    expect(() => parse(['--token', '--json'], OPTIONS)).toThrow(/--token/);
    expect(() => parse(['--token', '-h'], OPTIONS)).toThrow(/--token/);
    expect(() => parse(['--token', '--text=x'], OPTIONS)).toThrow(/--token/);
  });

  it('leaves everything after -- as positionals, and refuses unknown options', () => {
    expect(parse(['--', '--token', '-x'], OPTIONS).positionals).toEqual(['--token', '-x']);
    expect(() => parse(['--nope'], OPTIONS)).toThrow(/Unknown option '--nope'/);
    expect(parse(['--token=-a', '-t', 'b'], OPTIONS).values).toEqual({ token: '-a', text: 'b' });
  });
});
