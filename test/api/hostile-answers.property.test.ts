/**
 * Hostile REST answers, fuzzed: a raw TCP server on 127.0.0.1 writes
 * arbitrary statuses, headers (Content-Encoding that matches or lies,
 * Content-Length that lies or is junk, Retry-After junk, redirects anywhere)
 * and bodies (JSON, text, bytes, sizes past the bound, echoed secrets) to
 * every route the client reads. Only typed errors come out, nothing is
 * thrown synchronously or left unhandled, no secret shows, and no answer
 * larger than the bound is ever handed over. Fixed seed, modest runs
 * (`HOSTILE_REST_RUNS=500` runs more).
 */
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { asyncScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { isClanstreamError, ServiceApi, type ClanstreamError } from '../../src/index.js';
import { SecretRedactor } from '../../src/util/redact.js';
import { fakeJwt } from '../client/support.js';
import { everythingSaid } from '../helpers/outcomes.js';
import { trackUnhandledRejections } from '../helpers/property.js';
import { RawHttpServer } from '../support/raw-http.js';

const RUNS = Number(process.env.HOSTILE_REST_RUNS ?? 40);
const MAX_ANSWER_BYTES = 64 * 1024;
const API_KEY = 'hostile-rest-api-key-0123456789';
const TOKEN = fakeJwt({ uid: '1840000000000000001', exp: Math.floor(Date.now() / 1000) + 3600 }, 'aG9zdGlsZS1yZXN0LXNpZ25hdHVyZS0wMTIz');

/** Every route whose answer the client reads. */
const ROUTES: Array<[string, (api: ServiceApi) => Promise<unknown>]> = [
  ['authenticate', (api) => api.authenticate(API_KEY)],
  ['refreshSession', (api) => api.refreshSession(TOKEN)],
  ['logout', (api) => api.logout()],
  ['listClans', (api) => api.listClans()],
  ['getClan', (api) => api.getClan('1')],
  ['listClanChannels', (api) => api.listClanChannels('1')],
  ['listClanMembers', (api) => api.listClanMembers('1')],
  ['getClanMember', (api) => api.getClanMember('1', '2')],
  ['listVoiceUsers', (api) => api.listVoiceUsers('1', {})],
  ['listRoles', (api) => api.listRoles('1', {})],
  ['updateRole', (api) => api.updateRole('1', { title: 'x' })],
  ['getChannel', (api) => api.getChannel('1')],
  ['listMessages', (api) => api.listMessages('1')],
  ['getMessage', (api) => api.getMessage('1', '2')],
  ['listQuickMenuAccess', (api) => api.listQuickMenuAccess('1')],
  ['addQuickMenuAccess', (api) => api.addQuickMenuAccess('1', { menu_name: 'm' })],
  ['deleteQuickMenuAccess', (api) => api.deleteQuickMenuAccess('1', '2')],
  ['playMedia', (api) => api.playMedia('1', { url: 'https://x.test/a.mp3', participant_identity: 'p', participant_name: 'P', name: 'a' })],
  ['getUser', (api) => api.getUser('1')],
  ['listDmChannels', (api) => api.listDmChannels()],
  ['createDmChannel', (api) => api.createDmChannel(['1'])],
  ['listFriends', (api) => api.listFriends()],
  ['addFriends', (api) => api.addFriends({ usernames: ['a'] })],
  ['acceptFriends', (api) => api.acceptFriends({ ids: ['1'] })],
  ['getTransaction', (api) => api.getTransaction('tx')],
];

type Encoding = 'identity' | 'gzip' | 'deflate' | 'br' | 'garbage';
type LengthStyle = 'exact' | 'absent' | 'short' | 'long' | 'junk';

/** One hostile answer, as the raw server writes it. */
interface Answer {
  status: number;
  body: Uint8Array;
  encoding: Encoding;
  /** Whether the body is really compressed as Content-Encoding says (a lie otherwise). */
  encoded: boolean;
  length: LengthStyle;
  retryAfter: string | undefined;
  location: string | undefined;
}

const text = (value: string) => new TextEncoder().encode(value);

/** Bodies: JSON values, plausible answers with echoed secrets, text, raw bytes, and bodies past the bound. */
const body: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((value) => text(JSON.stringify(value))),
  fc.constantFrom(
    { code: 'bad_request', message: `the key ${API_KEY} and the token ${TOKEN} are wrong`, fields: { [TOKEN]: API_KEY } },
    { clans: [{ clan_id: '1', clan_name: API_KEY, welcome_channel_id: '2', creator_id: '3' }] },
    { token: TOKEN, refresh_token: TOKEN, user_id: 1 },
    { channel_id: '1', clan_id: 2 },
    { ok: true, removed: '1' },
    [],
    {},
  ).map((value) => text(JSON.stringify(value))),
  fc.string({ maxLength: 200 }).map(text),
  fc.uint8Array({ maxLength: 300 }),
  fc.integer({ min: MAX_ANSWER_BYTES - 2, max: 4 * MAX_ANSWER_BYTES }).map((size) => text(`{"pad":"${'x'.repeat(size)}"}`)),
);

const answer: fc.Arbitrary<Answer> = fc.record({
  status: fc.oneof(fc.constantFrom(200, 201, 204, 301, 302, 303, 307, 308, 400, 401, 404, 429, 500, 503), fc.integer({ min: 100, max: 599 })),
  body,
  encoding: fc.constantFrom<Encoding>('identity', 'identity', 'gzip', 'deflate', 'br', 'garbage'),
  encoded: fc.boolean(),
  length: fc.constantFrom<LengthStyle>('exact', 'exact', 'absent', 'short', 'long', 'junk'),
  retryAfter: fc.option(fc.oneof(fc.constantFrom('0', '1', '-1', '1e9', 'soon', 'Wed, 21 Oct 2015 07:28:00 GMT', '99999999999999999999', ''), fc.string({ maxLength: 20 })), { nil: undefined }),
  location: fc.option(fc.oneof(fc.constantFrom('/v2/clans', 'http://127.0.0.1:1/elsewhere', `https://evil.invalid/?token=${TOKEN}`, 'http://[bad', '//other.invalid/x'), fc.string({ maxLength: 30 })), { nil: undefined }),
});

function compressed(answer: Answer): Uint8Array {
  if (!answer.encoded) return answer.body;
  if (answer.encoding === 'gzip') return gzipSync(answer.body);
  if (answer.encoding === 'deflate') return deflateSync(answer.body);
  // A low quality: brotli's default (11) takes a tenth of a second per large body.
  if (answer.encoding === 'br') return brotliCompressSync(answer.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  return answer.body;
}

/** The bytes of the whole HTTP answer; header values are kept to what an HTTP parser can read. */
function wire(answer: Answer): Uint8Array {
  const payload = compressed(answer);
  const lines = [`HTTP/1.1 ${answer.status} X`, 'connection: close', 'content-type: application/json'];
  if (answer.encoding !== 'identity') lines.push(`content-encoding: ${answer.encoding}`);
  const lengths: Record<LengthStyle, string | undefined> = {
    exact: String(payload.length),
    absent: undefined,
    short: String(Math.max(0, payload.length - 5)),
    long: String(payload.length + 100),
    junk: 'twelve',
  };
  const length = lengths[answer.length];
  if (length !== undefined) lines.push(`content-length: ${length}`);
  const safe = (value: string) => value.replace(/[^\x20-\x7e]/g, '');
  if (answer.retryAfter !== undefined) lines.push(`retry-after: ${safe(answer.retryAfter)}`);
  if (answer.location !== undefined) lines.push(`location: ${safe(answer.location)}`);
  const head = text(`${lines.join('\r\n')}\r\n\r\n`);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head);
  out.set(payload, head.length);
  return out;
}

const unhandled = trackUnhandledRejections();

describe('hostile REST answers (fuzzed)', () => {
  it('only typed errors, nothing thrown synchronously or unhandled, no secret shown, no answer past the bound handed over', async () => {
    let current: Answer | undefined;
    const server = await RawHttpServer.start(() => (current ? wire(current) : new Uint8Array(0)));
    const redactor = new SecretRedactor();
    redactor.add(API_KEY);
    redactor.add(TOKEN);
    try {
      await fc.assert(
        fc.asyncProperty(answer, fc.constantFrom(...ROUTES), async (hostile, [name, call]) => {
          current = hostile;
          unhandled.reset();
          const reports: ClanstreamError[] = [];
          const api = new ServiceApi({
            basePath: server.origin,
            // A body that claims deflate but is not, ended by a close, leaves fetch waiting: the timeout ends it (typed).
            timeoutMs: 1000,
            retries: 1,
            baseMs: 1,
            capMs: 2,
            maxRetryAfterMs: 20,
            scheduler: asyncScheduler,
            random: Math.random,
            limits: { maxAnswerBytes: MAX_ANSWER_BYTES },
            redactor,
            report: (error) => reports.push(error),
          });
          api.useSession({ token: TOKEN, api_url: server.origin });
          let promise: Promise<unknown>;
          try {
            promise = call(api);
          } catch (error) {
            throw new Error(`${name} threw synchronously: ${String(error)}`, { cause: error });
          }
          const outcome = await promise.then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
          if ('error' in outcome) {
            expect(isClanstreamError(outcome.error), `${name}: ${String(outcome.error)}`).toBe(true);
            const said = everythingSaid(outcome.error);
            expect(said).not.toContain(API_KEY);
            expect(said).not.toContain(TOKEN);
          } else {
            // What the client hands over was checked (an object of the route's shape) and is never past the bound.
            expect(typeof outcome.value).toBe('object');
            expect(JSON.stringify(outcome.value).length).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
          }
          for (const report of reports) {
            expect(isClanstreamError(report)).toBe(true);
            expect(everythingSaid(report)).not.toContain(API_KEY);
          }
          await new Promise((resolve) => setImmediate(resolve));
          expect(unhandled.seen).toEqual([]);
        }),
        { numRuns: RUNS, seed: 20_240_611 },
      );
    } finally {
      await server.close();
    }
  }, 30_000 + RUNS * 1_000);
});
