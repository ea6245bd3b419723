import { describe, expect, it, vi } from 'vitest';
import { serviceAvailable, type RequiredService } from './required-service.js';

const missing: RequiredService = { what: 'a tool the suite needs', path: '/nonexistent/clanstream-tool', install: 'apt-get install -y clanstream-tool' };

describe('serviceAvailable', () => {
  it('runs the suite when the program is installed', () => {
    expect(serviceAvailable({ ...missing, path: process.execPath }, {})).toBe(true);
  });

  it('skips outside CI with one loud line naming the program and its install command', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(serviceAvailable(missing, {})).toBe(false);
      expect(serviceAvailable(missing, {})).toBe(false);
      const lines = write.mock.calls.map(([text]) => String(text)).filter((text) => text.includes('SKIPPED'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('/nonexistent/clanstream-tool');
      expect(lines[0]).toContain('apt-get install -y clanstream-tool');
    } finally {
      write.mockRestore();
    }
  });

  it('fails in CI instead of skipping', () => {
    expect(() => serviceAvailable(missing, { CI: 'true' })).toThrow(/CI: a tool the suite needs is missing/);
  });
});
