/**
 * Session (src/session/session.ts), property-based: the constructor,
 * Session.restore and update() on arbitrary input throw only
 * ValidationError; well-formed JWTs with arbitrary claims give expires_at =
 * exp (and the user and vars) exactly; isexpired / isrefreshexpired are
 * monotonic in time; tokens never show in JSON.stringify, util.inspect,
 * listings or error messages.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors/validation-error.js';
import { Session } from '../../src/session/session.js';
import { jsonText, junk, thrownBy } from '../helpers/property.js';

const RUNS = 2000;

const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const jwt = (header: string, payload: string, signature: string): string => `${b64url(header)}.${b64url(payload)}.${signature}`;

/** A signature segment: random, long enough to be unmistakable in any output. */
const signature = fc.stringMatching(/^[A-Za-z0-9_-]{24,43}$/);
const header = fc.oneof(fc.constant('{"alg":"HS256","typ":"JWT"}'), fc.json(), jsonText(['alg', 'typ', 'kid']));

/** Payload JSON text: any JSON except the top-level `null` (a known crash, pinned below). */
const payloadText = fc.oneof(fc.json(), jsonText(['exp', 'uid', 'usn', 'vars', 'iat']), fc.constantFrom('{}', '[]', '"exp"', '0', 'true')).filter((text) => text.trim() !== 'null');

/** Something in a token's place: a JWT with junk claims, a JWT-looking string, any string, or not a string. */
const tokenish: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(header, payloadText, signature).map(([h, p, s]) => jwt(h, p, s)),
  fc.tuple(fc.uint8Array({ maxLength: 40 }), signature).map(([bytes, s]) => `e30.${Buffer.from(bytes).toString('base64url')}.${s}`),
  fc.stringMatching(/^[A-Za-z0-9_=+/-]{0,12}(\.[A-Za-z0-9_=+/-]{0,12}){0,3}$/).filter((t) => !/(^|\.)bnVsbA(==?)?(\.|$)/.test(t)),
  fc.string({ unit: 'binary', maxLength: 30 }).filter((t) => !t.split('.').some((part, i) => i === 1 && /^bnVsbA/.test(part))),
  junk,
);

const sessionInput: fc.Arbitrary<unknown> = fc.oneof(
  junk,
  fc.record(
    { token: tokenish, refresh_token: tokenish, created_at: fc.oneof(fc.double(), junk), user_id: junk, username: junk, api_url: junk, ws_url: junk },
    { requiredKeys: [] },
  ),
);

const claimValue = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 1 }));
const claims = fc.record(
  {
    exp: fc.oneof(fc.integer({ min: 0, max: 4_102_444_800 }), fc.double({ noNaN: true, noDefaultInfinity: true }), claimValue),
    uid: fc.oneof(fc.string(), claimValue),
    usn: fc.oneof(fc.string(), claimValue),
    vars: fc.oneof(fc.dictionary(fc.string(), fc.string(), { maxKeys: 4 }), claimValue),
    iat: fc.integer(),
  },
  { requiredKeys: [] },
);

/** The claims as the token carries them: through JSON (so -0 becomes 0). */
const asSent = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Everything the session shows of itself, in every way it can be shown or listed. */
function everythingShown(session: Session): string {
  return [
    JSON.stringify(session),
    inspect(session),
    inspect(session, { depth: 10, showHidden: true }),
    String(session),
    JSON.stringify(Object.entries(session)),
    JSON.stringify({ ...session }),
    Object.keys(session).join(','),
  ].join('\n');
}

describe('Session: properties', () => {
  it('new Session / Session.restore on arbitrary input throw only ValidationError', () => {
    fc.assert(
      fc.property(sessionInput, (input) => {
        const error = thrownBy(() => new Session(input), ValidationError);
        const restored = thrownBy(() => Session.restore(input), ValidationError);
        expect(restored?.message).toBe(error?.message);
      }),
      { numRuns: RUNS },
    );
  });

  it('update() with arbitrary tokens throws only ValidationError and leaves the session as it was', () => {
    const good = jwt('{"alg":"HS256"}', '{"exp":2000000000,"uid":"U1"}', 'c2lnbmF0dXJlLXNpZ25hdHVyZQ');
    fc.assert(
      fc.property(tokenish, tokenish, (token, refresh) => {
        const session = new Session({ token: good, refresh_token: good, created_at: 1 });
        const before = JSON.stringify(session);
        const error = thrownBy(() => session.update(token as string, refresh as string), ValidationError);
        if (error) {
          expect(JSON.stringify(session)).toBe(before);
          expect(session.token).toBe(good);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('a well-formed JWT with arbitrary claims gives expires_at = exp, the user and the vars', () => {
    fc.assert(
      fc.property(claims, claims, signature, signature, fc.option(fc.string(), { nil: undefined }), fc.integer(), (sent, sentRefresh, sig1, sig2, userId, createdAt) => {
        const c = asSent(sent);
        const r = asSent(sentRefresh);
        const token = jwt('{"alg":"HS256","typ":"JWT"}', JSON.stringify(c), sig1);
        const refresh_token = jwt('{"alg":"HS256","typ":"JWT"}', JSON.stringify(r), sig2);
        const session = new Session({ token, refresh_token, created_at: createdAt, ...(userId === undefined ? {} : { user_id: userId }) });
        expect(session.expires_at).toBe(typeof c.exp === 'number' ? c.exp : undefined);
        expect(session.refresh_expires_at).toBe(typeof r.exp === 'number' ? r.exp : undefined);
        expect(session.user_id).toBe(typeof c.uid === 'string' ? c.uid : userId);
        expect(session.username).toBe(typeof c.usn === 'string' ? c.usn : undefined);
        expect(session.vars).toEqual({ ...((c.vars ?? {}) as object) });
        expect(session.created_at).toBe(createdAt);
        expect(session.token).toBe(token);
        expect(session.refresh_token).toBe(refresh_token);
        // What toStorable() keeps restores the same session.
        const restored = Session.restore(session.toStorable());
        expect(restored.toJSON()).toEqual(session.toJSON());
        expect([restored.token, restored.refresh_token]).toEqual([token, refresh_token]);
      }),
      { numRuns: RUNS },
    );
  });

  it('isexpired and isrefreshexpired are monotonic in time, and exactly "exp <= now"', () => {
    const time = fc.oneof(fc.integer({ min: -10, max: 4_102_444_800 }), fc.double({ noNaN: true }));
    fc.assert(
      fc.property(claims, claims, time, time, (c, r, a, b) => {
        const session = new Session({ token: jwt('{}', JSON.stringify(c), 'sig'), refresh_token: jwt('{}', JSON.stringify(r), 'sig') });
        const [early, late] = a <= b ? [a, b] : [b, a];
        if (session.isexpired(early)) expect(session.isexpired(late)).toBe(true);
        if (session.isrefreshexpired(early)) expect(session.isrefreshexpired(late)).toBe(true);
        for (const t of [early, late]) {
          expect(session.isexpired(t)).toBe(session.expires_at !== undefined && session.expires_at <= t);
          expect(session.isrefreshexpired(t)).toBe(session.refresh_expires_at !== undefined && session.refresh_expires_at <= t);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('tokens never appear in JSON.stringify, util.inspect or a listing of the session, even after update()', () => {
    fc.assert(
      fc.property(claims, claims, signature, signature, signature, fc.record({ api_url: fc.webUrl(), ws_url: fc.webUrl() }, { requiredKeys: [] }), (c, r, sig1, sig2, sig3, urls) => {
        const token = jwt('{"alg":"HS256"}', JSON.stringify(c), sig1);
        const refresh_token = jwt('{"alg":"HS256"}', JSON.stringify(r), sig2);
        const session = new Session({ token, refresh_token, ...urls });
        for (const secret of [token, refresh_token, sig1, sig2]) expect(everythingShown(session)).not.toContain(secret);
        const next = jwt('{"alg":"HS256"}', JSON.stringify(r), sig3);
        session.update(next, next);
        for (const secret of [next, sig3, token, refresh_token]) expect(everythingShown(session)).not.toContain(secret);
      }),
      { numRuns: RUNS },
    );
  });

  it('a refused token is never repeated in the error', () => {
    const secretish = fc.stringMatching(/^[A-Za-z0-9_-]{16,40}(\.[A-Za-z0-9_-]{0,20}){0,3}$/);
    fc.assert(
      fc.property(secretish, fc.boolean(), (secret, asRefresh) => {
        const good = jwt('{}', '{}', 'sig');
        const error = thrownBy(() => new Session(asRefresh ? { token: good, refresh_token: secret } : { token: secret, refresh_token: good }), ValidationError);
        if (!error) return;
        const said = [String(error), error.message, error.stack ?? '', JSON.stringify(error), inspect(error, { depth: 5 })].join('\n');
        expect(said).not.toContain(secret);
      }),
      { numRuns: RUNS },
    );
  });

  it('a JWT whose payload is not an object is a ValidationError', () => {
    fc.assert(
      fc.property(header, signature, fc.boolean(), fc.constantFrom('null', ' null', 'null\n'), (h, s, asRefresh, payload) => {
        const bad = jwt(h, payload, s);
        const good = jwt('{}', '{}', 'sig');
        thrownBy(() => new Session(asRefresh ? { token: good, refresh_token: bad } : { token: bad, refresh_token: good }), ValidationError);
      }),
      { numRuns: 1000, examples: [['{"alg":"HS256"}', 'sig', false, 'null']], endOnFailure: true },
    );
  });
});
