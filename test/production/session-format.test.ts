/** Where a production session's socket goes, in every form a login answer names it. */
import { describe, expect, it } from 'vitest';
import { gatewayBase } from '../../src/production/session-format.js';

describe('the gateway of a production session', () => {
  it.each([
    [{ ws_url: 'gw.example.com', api_url: 'https://api.example.com' }, 'wss://gw.example.com'],
    [{ ws_url: '127.0.0.1:4100', api_url: 'http://127.0.0.1:4100' }, 'ws://127.0.0.1:4100'],
    [{ ws_url: 'gw.example.com:443' }, 'wss://gw.example.com:443'],
    [{ ws_url: 'wss://gw.example.com/' }, 'wss://gw.example.com'],
    [{ ws_url: '', api_url: 'http://127.0.0.1:4100' }, 'ws://127.0.0.1:4100'],
    [{ ws_url: '', api_url: 'https://api.example.com' }, 'wss://api.example.com'],
  ])('%j → %s (a protobuf Session names its ws_url without a scheme)', (session, url) => {
    expect(gatewayBase(session, '')).toBe(url);
  });
});
