/**
 * Webhook validators and URL parsers (src/webhooks/{validate,rules,url}.ts),
 * property-based: arbitrary input never makes them throw (the parsers throw
 * only ValidationError); generated valid payloads pass every check; a mention
 * with both or neither of username and user_id fails at its path; and a URL
 * error never carries the secret token segment.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/validation-error.js';
import {
  ChannelWebhook,
  checkChannelWebhookMessage,
  checkClanWebhookMessage,
  checkUserIdentifier,
  ClanWebhook,
  validateChannelWebhookBody,
  validateChannelWebhookMessage,
  validateClanWebhookBody,
  validateClanWebhookContent,
  validateClanWebhookMessage,
} from '../../src/webhooks/index.js';
import { parseChannelWebhookUrl, parseClanWebhookUrl } from '../../src/webhooks/url.js';
import { expectIssueList, expectNoPollution, jsonText, junk, protoJsonText, prototypeSnapshot, thrownBy } from '../helpers/property.js';
import { everythingSaid } from '../helpers/outcomes.js';

const RUNS = 2000;


/** Every validator and check, on one input; none may throw. */
function validateEverything(input: unknown): void {
  expectIssueList(validateChannelWebhookMessage(input));
  expectIssueList(validateChannelWebhookBody(input));
  expectIssueList(validateChannelWebhookBody({ type: 'hook', message: input }));
  expectIssueList(validateClanWebhookContent(input));
  expectIssueList(validateClanWebhookMessage(input));
  expectIssueList(validateClanWebhookMessage({ content: input, attachments: input }));
  expectIssueList(checkChannelWebhookMessage(input));
  expectIssueList(checkClanWebhookMessage(input));
  expectIssueList(checkClanWebhookMessage({ content: input }));
  expectIssueList(checkUserIdentifier(input));
  const clan = validateClanWebhookBody(input);
  expectIssueList(clan.issues);
  let text: string | undefined;
  try {
    text = JSON.stringify(input) ?? '';
  } catch {
    // Input that is not JSON cannot be sent as a clan webhook's content string anyway.
    return;
  }
  const encoded = validateClanWebhookBody({ content: text, attachments: input });
  expectIssueList(encoded.issues);
  if (encoded.content !== undefined) expect(encoded.issues).toEqual([]);
}

const KEYS = ['type', 'message', 't', 'mk', 'mentions', 'images', 'hg', 's', 'e', 'username', 'user_id', 'channelId', 'fn', 'url', 'ft', 'sz', 'w', 'h', 'content', 'attachments', 'filetype'];
const almost = jsonText(KEYS).map((text) => JSON.parse(text) as unknown);

const nonEmpty = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 });
const rangeIn = (length: number) => fc.tuple(fc.integer({ min: 0, max: length }), fc.integer({ min: 0, max: length })).map(([a, b]) => ({ s: Math.min(a, b), e: Math.max(a, b) }));

interface ChannelMessage {
  t: string;
  mk?: Array<{ type: string; s: number; e: number }>;
  mentions?: Array<Record<string, unknown>>;
  images?: Array<Record<string, unknown>>;
  hg?: Array<{ channelId: string; s: number; e: number }>;
}

function channelMessage(minMentions = 0): fc.Arbitrary<ChannelMessage> {
  return fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).chain((t) => {
    const range = rangeIn(t.length);
    return fc
      .record(
        {
          mk: fc.array(fc.tuple(range, fc.constantFrom('lk', 'pre', 'b', 'c', 'custom')).map(([r, type]) => ({ type, ...r })), { maxLength: 4 }),
          mentions: fc.array(fc.tuple(range, fc.constantFrom('username', 'user_id'), nonEmpty).map(([r, key, value]) => ({ [key]: value, ...r })), { minLength: minMentions, maxLength: 4 }),
          images: fc.array(fc.record({ fn: nonEmpty, url: nonEmpty, ft: nonEmpty, sz: fc.nat(), w: fc.nat(), h: fc.nat() }), { maxLength: 3 }),
          hg: fc.array(fc.tuple(range, nonEmpty).map(([r, channelId]) => ({ channelId, ...r })), { maxLength: 3 }),
        },
        { requiredKeys: minMentions > 0 ? ['mentions'] : [] },
      )
      .map((rest) => ({ t, ...rest }));
  });
}

const clanContent = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).chain((t) =>
  fc
    .record({ mk: fc.array(fc.tuple(rangeIn(t.length), fc.constantFrom('lk', 'pre', 'b')).map(([r, type]) => ({ type, ...r })), { maxLength: 4 }) }, { requiredKeys: [] })
    .map((rest) => ({ t, ...rest })),
);
const clanAttachments = fc.option(fc.array(fc.record({ url: nonEmpty, filetype: nonEmpty }), { maxLength: 3 }), { nil: undefined });

describe('webhook validators: properties', () => {
  it('never throw on arbitrary input, and always return issue lists', () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(fc.oneof(junk, almost), (input) => {
        validateEverything(input);
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('never throw on JSON with __proto__/constructor/prototype keys, and never pollute', () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(protoJsonText(KEYS), (text) => {
        const parsed = JSON.parse(text) as Record<string, unknown>;
        validateEverything(parsed);
        expectIssueList(validateClanWebhookBody({ content: text }).issues);
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('a generated valid channel webhook message passes every check', () => {
    fc.assert(
      fc.property(channelMessage(), (message) => {
        expect(validateChannelWebhookMessage(message)).toEqual([]);
        expect(validateChannelWebhookBody({ type: 'hook', message })).toEqual([]);
        expect(checkChannelWebhookMessage(message)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('a generated valid clan webhook message passes every check, and its encoded content parses back', () => {
    fc.assert(
      fc.property(clanContent, clanAttachments, (content, attachments) => {
        const message = attachments === undefined ? { content } : { content, attachments };
        expect(validateClanWebhookContent(content)).toEqual([]);
        expect(validateClanWebhookMessage(message)).toEqual([]);
        expect(checkClanWebhookMessage(message)).toEqual([]);
        expect(validateClanWebhookBody({ ...message, content: JSON.stringify(content) })).toEqual({ issues: [], content });
      }),
      { numRuns: RUNS },
    );
  });

  it('a mention with both or neither of username and user_id fails, naming its path', () => {
    fc.assert(
      fc.property(channelMessage(1), fc.nat(), fc.boolean(), nonEmpty, (generated, pick, both, extra) => {
        const message = structuredClone(generated);
        const mentions = message.mentions!;
        const i = pick % mentions.length;
        const mention = mentions[i]!;
        if (both) {
          mention.username ??= extra;
          mention.user_id ??= extra;
        } else {
          delete mention.username;
          delete mention.user_id;
        }
        const paths = validateChannelWebhookMessage(message).map((issue) => issue.path);
        expect(paths).toContain(`message.mentions[${i}]`);
        expect(validateChannelWebhookBody({ type: 'hook', message }).map((issue) => issue.path)).toContain(`message.mentions[${i}]`);
        expect(checkChannelWebhookMessage(message).map((issue) => issue.path)).toContain(`message.mentions[${i}]`);
      }),
      { numRuns: RUNS },
    );
  });

  it('a range outside the text fails at its path, in channel and clan messages', () => {
    fc.assert(
      fc.property(channelMessage(1), fc.nat(), fc.constantFrom('s', 'e'), fc.integer({ min: 1, max: 1000 }), fc.boolean(), (generated, pick, end, by, below) => {
        const message = structuredClone(generated);
        const i = pick % message.mentions!.length;
        message.mentions![i]![end] = below ? -by : message.t.length + by;
        expect(validateChannelWebhookMessage(message).map((issue) => issue.path)).toContain(`message.mentions[${i}].${end}`);
        const clan = { t: message.t, mk: [{ type: 'b', s: 0, e: 0, [end]: below ? -by : message.t.length + by }] };
        expect(validateClanWebhookContent(clan).map((issue) => issue.path)).toContain(`content.mk[0].${end}`);
      }),
      { numRuns: RUNS },
    );
  });

  it('checkUserIdentifier accepts exactly the non-blank strings without surrounding whitespace', () => {
    fc.assert(
      fc.property(fc.oneof(junk, fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\u00a0', '\n', '1', '\u3000') })), (user) => {
        const issues = checkUserIdentifier(user);
        const ok = typeof user === 'string' && user.trim() !== '' && user.trim() === user;
        expect(issues.length === 0).toBe(ok);
      }),
      { numRuns: RUNS },
    );
  });

  // A message that passes the shape checks but cannot be serialised (a BigInt, a cycle) gets an issue, not a TypeError.
  it('a valid-looking message carrying a bigint or a cycle is an issue, not a TypeError', () => {
    fc.assert(
      fc.property(channelMessage(), fc.oneof(fc.bigInt().map((n): unknown => n), fc.constant('cycle')), (message, value) => {
        const mk: Array<Record<string, unknown>> = [{ type: 'b', s: 0, e: 1 }];
        mk[0]!.extra = value === 'cycle' ? mk : value;
        validateEverything({ ...message, mk });
        validateEverything({ t: message.t, mk });
      }),
      { numRuns: 1000, examples: [[{ t: 'ab' }, 1n]], endOnFailure: true },
    );
  });
});

// ---------------------------------------------------------------------------------------------

const TOKEN = fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/);
const SAFE_SEGMENT = fc.stringMatching(/^[a-z0-9_~-]{1,10}$/);
const CHANNEL_SEGMENT = fc.oneof(
  SAFE_SEGMENT,
  // Not "." or "..": the URL parser resolves such segments away (and so their %2E forms).
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 6 }).filter((s) => !/^\.{1,2}$/.test(s)).map((s) => encodeURIComponent(s)),
  fc.constantFrom('%E0%A4%A', '%zz', '%', '%C3%28', '18400000000%2F06'),
);

interface GeneratedUrl {
  url: string;
  token: string;
  /** What a correct parse must return, when the URL is of the right shape. */
  expected?: { baseUrl: string; channelId?: string; token: string };
}

/** URLs of both webhook shapes, right and wrong, each carrying a distinctive token. */
function webhookUrl(shape: 'channel' | 'clan'): fc.Arbitrary<GeneratedUrl> {
  return fc
    .record({
      scheme: fc.constantFrom('https', 'https', 'http', 'HTTPS', 'ftp', 'ws', 'file', 'javascript'),
      credentials: fc.constantFrom('', '', '', 'user@', 'user:pass@', ':@'),
      host: fc.constantFrom('hooks.example.test', '127.0.0.1:9', 'x.test', '[::1]:8080'),
      base: fc.array(SAFE_SEGMENT, { maxLength: 2 }),
      marker: fc.constantFrom('webhooks', 'webhooks', 'clanwebhooks', 'clanwebhooks', 'hooks', ''),
      channel: CHANNEL_SEGMENT,
      token: TOKEN,
      extra: fc.constantFrom('', '', '', '/', '/user-1', '?x=1', '#frag', '//', '?'),
      padding: fc.constantFrom('', '', ' ', '\t', '\n'),
    })
    .map((p) => {
      const path = [...p.base, p.marker, ...(shape === 'channel' ? [p.channel] : []), p.token].join('/');
      const url = `${p.padding}${p.scheme}://${p.credentials}${p.host}/${path}${p.extra}${p.padding}`;
      const clean = ['https', 'http', 'HTTPS'].includes(p.scheme) && p.credentials === '' && p.marker === (shape === 'channel' ? 'webhooks' : 'clanwebhooks') && ['', '/'].includes(p.extra);
      const origin = `${p.scheme.toLowerCase()}://${p.host}`;
      const baseUrl = p.base.length === 0 ? origin : `${origin}/${p.base.join('/')}`;
      let channelId: string | undefined;
      let decodable = true;
      try {
        channelId = decodeURIComponent(p.channel);
      } catch {
        decodable = false;
      }
      const expected = clean && (shape === 'clan' || decodable) ? { baseUrl, token: p.token, ...(shape === 'channel' ? { channelId } : {}) } : undefined;
      return { url, token: p.token, ...(expected ? { expected } : {}) };
    });
}

describe('webhook URL parsing: properties', () => {
  it('parses or refuses with a ValidationError that never carries the token (channel)', () => {
    fc.assert(
      fc.property(webhookUrl('channel'), ({ url, token, expected }) => {
        let parsed: ReturnType<typeof parseChannelWebhookUrl> | undefined;
        const error = thrownBy(() => (parsed = parseChannelWebhookUrl(url)), ValidationError);
        if (error) {
          expect(everythingSaid(error)).not.toContain(token);
          expect(expected).toBeUndefined();
          const ctorError = thrownBy(() => new ChannelWebhook(url), ValidationError);
          expect(ctorError).toBeInstanceOf(ValidationError);
          expect(everythingSaid(ctorError!)).not.toContain(token);
        } else if (expected) {
          expect(parsed).toEqual(expected);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('parses or refuses with a ValidationError that never carries the token (clan)', () => {
    fc.assert(
      fc.property(webhookUrl('clan'), ({ url, token, expected }) => {
        let parsed: ReturnType<typeof parseClanWebhookUrl> | undefined;
        const error = thrownBy(() => (parsed = parseClanWebhookUrl(url)), ValidationError);
        if (error) {
          expect(everythingSaid(error)).not.toContain(token);
          expect(expected).toBeUndefined();
          const ctorError = thrownBy(() => new ClanWebhook(url), ValidationError);
          expect(ctorError).toBeInstanceOf(ValidationError);
          expect(everythingSaid(ctorError!)).not.toContain(token);
        } else if (expected) {
          expect(parsed).toEqual(expected);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('on arbitrary input, throws only ValidationError on `url`, whose message never repeats the input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.webUrl({ withQueryParameters: true, withFragments: true }), junk), (input) => {
        for (const parse of [parseChannelWebhookUrl, parseClanWebhookUrl]) {
          const error = thrownBy(() => parse(input as string), ValidationError) as ValidationError | undefined;
          if (!error) continue;
          expect(error.issues.map((i) => i.path)).toEqual(['url']);
          const fixed = `${error.message}\n${JSON.stringify(error)}`;
          if (typeof input === 'string' && input.length >= 12) expect(fixed).not.toContain(input);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
