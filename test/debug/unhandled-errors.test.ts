/**
 * Loud by default: an error nobody handles (no errors$ subscriber, no logger)
 * is printed to stderr once per occurrence, with its class, the event it came
 * from, the stack of what the listener threw and how to take over; an
 * errors$ subscriber, a logger or `unhandledErrors: 'silent'` keep stderr empty.
 */
import { describe, expect, it } from 'vitest';
import { runFixture } from './run-fixture.js';

describe('unhandled errors', () => {
  it('prints a throwing listener to stderr once per occurrence, with its type, event, stack and the hint', async () => {
    const run = await runFixture('unhandled');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('calls 2; handled elsewhere 0');
    const reports = run.stderr.split('\n').filter((line) => line.startsWith('clanstream: unhandled'));
    expect(reports).toEqual([
      'clanstream: unhandled ListenerError from a listener for channel_message: A listener for channel_message failed: listener bug #1',
      'clanstream: unhandled ListenerError from a listener for channel_message: A listener for channel_message failed: listener bug #2',
    ]);
    // The stack of the throw points into the bot's own code, where the bug is.
    expect(run.stderr).toMatch(/ {4}at greetBack \(.*noisy-bot\.ts:\d+:\d+\)/);
    expect(run.stderr.split('Subscribe to client.errors$ (or pass a logger) to handle errors yourself').length - 1).toBe(2);
    expect(run.stderr).toContain('`unhandledErrors: "silent"` turns this output off');
    for (const secret of run.secrets) expect(run.stderr).not.toContain(secret);
  }, 30_000);

  it.each([
    ['an errors$ subscriber', 'subscribed'],
    ['a logger', 'logger'],
    ["unhandledErrors: 'silent'", 'silent'],
  ])('prints nothing with %s', async (_label, scenario) => {
    const run = await runFixture(scenario);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`calls 2; handled elsewhere ${scenario === 'silent' ? 0 : 2}`);
  }, 30_000);
});
