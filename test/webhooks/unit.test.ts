/**
 * Webhook clients without a server: URL shapes, options, and the HTTP edge
 * cases driven by an injected fetch (timeouts that abort, odd success bodies,
 * a server that echoes the token, network failures).
 */
import { inspect } from 'node:util';
import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApiError, ProtocolError, ValidationError } from '../../src/index.js';
import { ChannelWebhook, CHANNEL_WEBHOOK_ROUTE, ClanWebhook, CLAN_WEBHOOK_ROUTE } from '../../src/webhooks/index.js';
import { everythingSaid, rejection } from '../helpers/outcomes.js';

const TOKEN = 'SeCrEtToKeN_abcdef123456';
const CHANNEL_URL = `https://hooks.example.test/base/webhooks/1840000000000000006/${TOKEN}`;
const CLAN_URL = `https://hooks.example.test/clanwebhooks/${TOKEN}`;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** A fetch that records each call and answers from a list (the last answer repeats). */
function scripted(...answers: Array<(signal: AbortSignal | undefined) => Promise<Response>>) {
  const calls: Array<{ url: string; body: unknown; signal: AbortSignal | undefined }> = [];
  const fetcher: typeof fetch = (input, init) => {
    const signal = init?.signal ?? undefined;
    calls.push({ url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined, signal });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return answer(signal);
  };
  return { fetcher, calls };
}

describe('webhook URLs', () => {
  it('takes a channel webhook URL apart, keeping any base path', () => {
    const hook = new ChannelWebhook(CHANNEL_URL);
    expect(hook.baseUrl).toBe('https://hooks.example.test/base');
    expect(hook.channelId).toBe('1840000000000000006');
    expect(new ChannelWebhook(`http://127.0.0.1:9/webhooks/5/${TOKEN}/`).baseUrl).toBe('http://127.0.0.1:9');
  });

  it('takes a clan webhook base URL apart', () => {
    expect(new ClanWebhook(CLAN_URL).baseUrl).toBe('https://hooks.example.test');
    expect(new ClanWebhook(`https://x.test/api/clanwebhooks/${TOKEN}/`).baseUrl).toBe('https://x.test/api');
  });

  it('shows only the public parts as own enumerable properties, in declaration order (the token stays private)', () => {
    expect(Object.entries(new ChannelWebhook(CHANNEL_URL))).toEqual([['baseUrl', 'https://hooks.example.test/base'], ['channelId', '1840000000000000006']]);
    expect(Object.entries(new ClanWebhook(CLAN_URL))).toEqual([['baseUrl', 'https://hooks.example.test']]);
  });

  const badChannel: Array<[string, unknown]> = [
    ['empty', ''],
    ['not a string', 42],
    ['not a URL', `webhooks/1/${TOKEN}`],
    ['ftp', `ftp://x.test/webhooks/1/${TOKEN}`],
    ['without the token', 'https://x.test/webhooks/1'],
    ['the clan shape', CLAN_URL],
    ['with a query', `${CHANNEL_URL}?x=1`],
    ['with credentials', `https://u:p@x.test/webhooks/1/${TOKEN}`],
    ['with an extra segment', `${CHANNEL_URL}/more`],
    ['with an empty segment', `https://x.test/webhooks//${TOKEN}`],
  ];

  it.each(badChannel)('refuses a channel webhook URL that is %s, with a message that does not contain the token', (_name, url) => {
    let error: unknown;
    try {
      new ChannelWebhook(url as string);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('url');
    expect((error as ValidationError).message).toContain('{webhook_url}/webhooks/{channelId}/{token}');
    expect(everythingSaid(error)).not.toContain(TOKEN);
  });

  const badClan: Array<[string, unknown]> = [
    ['empty', ''],
    ['the channel shape', CHANNEL_URL],
    ['with the user appended', `${CLAN_URL}/alice`],
    ['without the token', 'https://x.test/clanwebhooks'],
    ['with a fragment', `${CLAN_URL}#x`],
  ];

  it.each(badClan)('refuses a clan webhook URL that is %s, without the token in the message', (_name, url) => {
    let error: unknown;
    try {
      new ClanWebhook(url as string);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('url');
    expect(everythingSaid(error)).not.toContain(TOKEN);
  });

  it('refuses invalid options, naming them', () => {
    const cases: Array<[object, string]> = [
      [{ timeout: 0 }, 'timeout'],
      [{ retries: -1 }, 'retries'],
      [{ retries: 1.5 }, 'retries'],
      [{ backoff: { baseMs: -1 } }, 'backoff.baseMs'],
      [{ maxRetryAfterMs: Number.NaN }, 'maxRetryAfterMs'],
    ];
    for (const [options, field] of cases) {
      expect(() => new ChannelWebhook(CHANNEL_URL, options)).toThrow(ValidationError);
      try {
        new ClanWebhook(CLAN_URL, options);
      } catch (error) {
        expect((error as ValidationError).field).toBe(field);
      }
    }
  });

  it('never shows the token in toJSON, inspect, String or own keys', () => {
    for (const hook of [new ChannelWebhook(CHANNEL_URL), new ClanWebhook(CLAN_URL)]) {
      const shown = [JSON.stringify(hook), inspect(hook, { showHidden: true, depth: 5 }), String(hook), JSON.stringify(Object.keys(hook)), JSON.stringify({ ...hook })].join('\n');
      expect(shown).not.toContain(TOKEN);
    }
  });
});

describe('webhook requests (injected fetch)', () => {
  it('posts to {base}/webhooks/{channelId}/{token} and returns only {message_id, channel_id}', async () => {
    const { fetcher, calls } = scripted(async () => json(200, { message_id: '9', channel_id: '6', extra: true }));
    const result = await new ChannelWebhook(CHANNEL_URL, { fetch: fetcher }).send({ t: 'hi' });
    expect(result).toEqual({ message_id: '9', channel_id: '6' });
    expect(calls.map((c) => [c.url, c.body])).toEqual([[CHANNEL_URL, { type: 'hook', message: { t: 'hi' } }]]);
  });

  it('posts to {base}/clanwebhooks/{token}/{user} with content as a JSON string', async () => {
    const { fetcher, calls } = scripted(async () => json(200, { message_id: '9', channel_id: '7' }));
    await new ClanWebhook(CLAN_URL, { fetch: fetcher }).send('alice', { content: { t: 'yo', mk: [{ type: 'b', s: 0, e: 2 }] } });
    expect(calls.map((c) => [c.url, c.body])).toEqual([[`${CLAN_URL}/alice`, { content: '{"t":"yo","mk":[{"type":"b","s":0,"e":2}]}' }]]);
  });

  it('rejects a 2xx without the documented body with a ProtocolError (token-free)', async () => {
    const { fetcher } = scripted(async () => json(200, { ok: true, echo: TOKEN }));
    const error = await rejection(new ChannelWebhook(CHANNEL_URL, { fetch: fetcher, retries: 0 }).send({ t: 'hi' }));
    expect(error).toBeInstanceOf(ProtocolError);
    expect(everythingSaid(error)).not.toContain(TOKEN);
  });

  it('aborts an attempt that passes the timeout and reports a timeout ApiError', async () => {
    const signals: AbortSignal[] = [];
    const { fetcher } = scripted(
      (signal) =>
        new Promise<Response>((_resolve, reject) => {
          if (signal) signals.push(signal);
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const error = await rejection(new ChannelWebhook(CHANNEL_URL, { fetch: fetcher, timeout: 20, retries: 1, backoff: { baseMs: 1, capMs: 1 } }).send({ t: 'hi' }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('timeout');
    expect((error as ApiError).route).toBe(CHANNEL_WEBHOOK_ROUTE);
    expect(signals).toHaveLength(2);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(everythingSaid(error)).not.toContain(TOKEN);
  });

  it('reports an unreachable server as a network ApiError naming the URL without the token', async () => {
    const { fetcher } = scripted(async () => {
      throw new TypeError(`fetch failed for ${CLAN_URL}/alice`);
    });
    const error = await rejection(new ClanWebhook(CLAN_URL, { fetch: fetcher, retries: 0 }).send('alice', { content: { t: 'hi' } }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('network_error');
    expect((error as ApiError).route).toBe(CLAN_WEBHOOK_ROUTE);
    const shown = `${CLAN_URL}/alice`.replace(TOKEN, '[redacted]');
    expect((error as ApiError).url).toBe(shown);
    expect((error as ApiError).message).toContain(`could not reach ${shown}: `);
    expect(everythingSaid(error)).not.toContain(TOKEN);
  });

  it('removes the token from a server message that echoes it, in the message and in fields', async () => {
    const { fetcher } = scripted(async () => json(400, { code: 'bad_request', message: `bad request to /webhooks/1/${TOKEN}`, fields: { [`x${TOKEN}`]: `y ${TOKEN}` } }));
    const lines: string[] = [];
    const log = (m: string): void => void lines.push(m);
    const error = await rejection(new ChannelWebhook(CHANNEL_URL, { fetch: fetcher, logger: { debug: log, info: log, warn: log, error: log } }).send({ t: 'hi' }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).message).toContain('bad request to /webhooks/1/[redacted]');
    expect(everythingSaid(error)).not.toContain(TOKEN);
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).toContain('[redacted]');
  });

  it('send$ is cold: nothing is sent until subscribed, and each subscription sends once', async () => {
    const { fetcher, calls } = scripted(async () => json(200, { message_id: '1', channel_id: '6' }));
    const send$ = new ChannelWebhook(CHANNEL_URL, { fetch: fetcher }).send$({ t: 'hi' });
    expect(calls).toHaveLength(0);
    await new Promise<void>((resolve, reject) => send$.subscribe({ complete: resolve, error: reject }));
    expect(calls).toHaveLength(1);
  });

  it('waits out Retry-After on the injected scheduler (virtual time: no real wait)', async () => {
    const { fetcher, calls } = scripted(
      async () => json(429, { code: 'rate_limited', message: 'slow down' }, { 'retry-after': '30' }),
      async () => json(200, { message_id: '1', channel_id: '6' }),
    );
    // Frames past 31 s are not run by flush(), so the second attempt's own timeout stays pending until it answers.
    const scheduler = new VirtualTimeScheduler(undefined, 31_000);
    const sent = new ChannelWebhook(CHANNEL_URL, { fetch: fetcher, scheduler }).send({ t: 'hi' });
    const due = (): boolean => scheduler.actions.some((a) => a.delay === 30_000);
    for (let i = 0; i < 500 && !due(); i++) await new Promise((r) => setTimeout(r, 2));
    expect(due()).toBe(true);
    expect(calls).toHaveLength(1);
    scheduler.flush();
    expect(scheduler.frame).toBe(30_000);
    expect(await sent).toEqual({ message_id: '1', channel_id: '6' });
    expect(calls).toHaveLength(2);
  });
});
