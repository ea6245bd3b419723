import { describe, expect, it } from 'vitest';
import { HeldPushes } from '../../../src/emulator/compat/held-pushes.js';

describe('HeldPushes', () => {
  it('holds events in order up to its byte bound, refuses the one that would pass it, and gives them all back once', () => {
    const held = new HeldPushes(10);
    expect(held.hold('aaaa')).toBe(true);
    expect(held.hold('bbbb')).toBe(true);
    expect(held.hold('ccc')).toBe(false);
    expect(held.heldBytes).toBe(8);
    expect(held.take()).toEqual(['aaaa', 'bbbb']);
    expect(held.take()).toEqual([]);
    expect(held.heldBytes).toBe(0);
  });
});
