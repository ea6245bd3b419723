import { describe, expect, it } from 'vitest';
import { EMULATOR_URL_VARIABLE, emulatorUrlFrom, EXTRA_ORIGINS_VARIABLE, extraOriginsFrom, PRODUCTION_ORIGINS, redirect } from '../../src/compat-preload/redirect.js';

const emulator = new URL('http://127.0.0.1:7350');

describe('redirect', () => {
  it("sends every production origin's request to the emulator, path and query kept", () => {
    expect(redirect('https://gw.mezon.ai:443/v2/channeldesc?channel_type=3&', emulator)).toBe('http://127.0.0.1:7350/v2/channeldesc?channel_type=3&');
    expect(redirect('https://dong.mezon.ai/mmn-api/', emulator)).toBe('http://127.0.0.1:7350/mmn-api/');
    expect(redirect('https://dong.mezon.ai/zk-api//prove', emulator)).toBe('http://127.0.0.1:7350/zk-api//prove');
    expect(redirect('https://stn.mezon.ai/api/playmedia', emulator)).toBe('http://127.0.0.1:7350/api/playmedia');
    expect(PRODUCTION_ORIGINS.every((origin) => redirect(`${origin}/x`, emulator).startsWith(emulator.origin))).toBe(true);
  });

  it('keeps a base path of the emulator URL (a proxy in front of it)', () => {
    expect(redirect('https://gw.mezon.ai/v2/clandesc', new URL('https://dev.example/emulator/'))).toBe('https://dev.example/emulator/v2/clandesc');
  });

  it('leaves every other request alone', () => {
    for (const url of ['https://api.weather.example/today', 'http://gw.mezon.ai/v2/clandesc', 'https://gw.mezon.ai:8443/x', 'not a url', '/relative']) {
      expect(redirect(url, emulator)).toBe(url);
    }
  });
});

describe('emulatorUrlFrom', () => {
  it('reads the emulator URL from the environment', () => {
    expect(emulatorUrlFrom({ [EMULATOR_URL_VARIABLE]: 'http://127.0.0.1:7350' }).href).toBe('http://127.0.0.1:7350/');
  });

  it('says what to set when the variable is missing or unusable', () => {
    expect(() => emulatorUrlFrom({})).toThrow(/set CLANSTREAM_EMULATOR_URL to the emulator's URL/);
    expect(() => emulatorUrlFrom({ [EMULATOR_URL_VARIABLE]: '127.0.0.1:7350' })).toThrow(/must be an http\(s\) URL|is not a URL/);
    expect(() => emulatorUrlFrom({ [EMULATOR_URL_VARIABLE]: 'nonsense' })).toThrow(/is not a URL: "nonsense"/);
  });
});

describe('extraOriginsFrom', () => {
  it('reads the origins a bot names as its own host, separated by commas or spaces', () => {
    expect(extraOriginsFrom({})).toEqual([]);
    expect(extraOriginsFrom({ [EXTRA_ORIGINS_VARIABLE]: 'https://bots.example.test, http://10.0.0.5:8080  https://gw.example.com/' })).toEqual([
      'https://bots.example.test',
      'http://10.0.0.5:8080',
      'https://gw.example.com',
    ]);
    // Without the variable a bot's own host is left alone, so the bot never reaches the emulator.
    expect(redirect('https://bots.example.test:443/v2/apps/authenticate/token', emulator)).toBe('https://bots.example.test:443/v2/apps/authenticate/token');
    const origins = [...PRODUCTION_ORIGINS, ...extraOriginsFrom({ [EXTRA_ORIGINS_VARIABLE]: 'https://bots.example.test' })];
    expect(redirect('https://bots.example.test:443/v2/apps/authenticate/token', emulator, origins)).toBe('http://127.0.0.1:7350/v2/apps/authenticate/token');
  });

  it('refuses an entry that is no http(s) origin, naming it', () => {
    expect(() => extraOriginsFrom({ [EXTRA_ORIGINS_VARIABLE]: 'bots.example.test' })).toThrow(/"bots.example.test", which is not an http\(s\) origin/);
    expect(() => extraOriginsFrom({ [EXTRA_ORIGINS_VARIABLE]: 'https://gw.example.com/v2' })).toThrow(/"https:\/\/gw.example.com\/v2"/);
    expect(() => extraOriginsFrom({ [EXTRA_ORIGINS_VARIABLE]: 'ftp://files.example' })).toThrow(/not an http\(s\) origin/);
  });
});
