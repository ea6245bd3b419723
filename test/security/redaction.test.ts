/**
 * Regression tests of the redaction fixes, one unit at a time: tokens quoted
 * by a server into an error (ProtocolError excerpts, ApiError and
 * GatewayError messages and fields), a request's own credentials echoed
 * back, in-place redaction of reported errors, and the emulator's wire log
 * path masking. secrets.test.ts checks the same end to end.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, GatewayError, ProtocolError } from '../../src/index.js';
import { credentialsOf, errorFromResponse } from '../../src/api/request.js';
import { maskPath } from '../../src/emulator/wire-log.js';
import { REDACTED, SecretRedactor } from '../../src/util/redact.js';

const JWT = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ uid: '1840000000000000001', typ: 'access', exp: 1900000000 })).toString('base64url')}.c2lnbmF0dXJlLW9mLXRoZS10b2tlbi0zMi1ieXRlcw`;
const SIGNATURE = JWT.split('.')[2]!;
const API_KEY = 'ck_live_KEY_1234567890abcdef';

describe('errors never carry a token a server quoted', () => {
  it('ProtocolError: the excerpt and the message lose JWTs and token= values, even when the excerpt is cut', () => {
    const long = `${'x'.repeat(150)} GET /ws?protocol=1&token=${JWT} ${'y'.repeat(100)}`;
    const error = new ProtocolError(`bad frame near ${JWT}`, long);
    expect(error.message).toBe(`bad frame near ${REDACTED}`);
    expect(error.excerpt).not.toContain(SIGNATURE);
    expect(error.excerpt).toContain(`token=${REDACTED}`);
    expect(error.excerpt.length).toBeLessThanOrEqual(201);
    // Plain frames are kept as they were.
    expect(new ProtocolError('x', '{"seq": "one"}').excerpt).toBe('{"seq": "one"}');
  });

  it('ApiError and GatewayError: JWTs are removed from the message and from fields', () => {
    const api = new ApiError({ status: 400, code: 'bad_request', message: `token ${JWT} refused`, route: 'GET /v2/clans', fields: { token: JWT, [`k ${JWT}`]: 'x' } });
    const gateway = new GatewayError({ code: 'bad_request', message: `token ${JWT} refused`, op: 'channel_message_send', fields: { token: JWT } });
    for (const error of [api, gateway]) {
      expect(JSON.stringify(error)).not.toContain(SIGNATURE);
      expect(error.message).toContain(REDACTED);
    }
    expect(api.fields).toEqual({ token: REDACTED, [`k ${REDACTED}`]: 'x' });
    expect(gateway.fields).toEqual({ token: REDACTED });
  });

  it('errorFromResponse removes the request’s own credentials (Bearer, Basic and the key inside it) from the message and fields', () => {
    const basic = Buffer.from(`${API_KEY}:`).toString('base64');
    const secrets = credentialsOf({ authorization: `Basic ${basic}` });
    expect(secrets).toEqual(expect.arrayContaining([basic, `${API_KEY}:`, API_KEY]));
    const error = errorFromResponse('POST /v2/apps/authenticate/token', 401, { code: 'unauthenticated', message: `refused Basic ${basic} for {"token":"${API_KEY}"}`, fields: { token: API_KEY } }, undefined, secrets);
    expect(error.message).toBe(`POST /v2/apps/authenticate/token failed (401 unauthenticated): refused Basic ${REDACTED} for {"token":"${REDACTED}"}`);
    expect(error.fields).toEqual({ token: REDACTED });
    expect(credentialsOf({ Authorization: '  Bearer opaque-session-token  ' })).toEqual(['opaque-session-token']);
    expect(credentialsOf({})).toEqual([]);
    expect(credentialsOf({ authorization: 'Bearer short' })).toEqual([]);
  });

  it('SecretRedactor removes a secret cut off at the end of a text (a 123-byte close reason), and only the secret', () => {
    const redactor = new SecretRedactor();
    redactor.add(JWT);
    redactor.add(API_KEY);
    // A server puts the session token into its close reason; WebSocket keeps the first 123 bytes.
    const reason = `session ${JWT} refused`.slice(0, 123);
    expect(reason.length).toBe(123);
    expect(redactor.holdsSecret(reason)).toBe(true);
    expect(redactor.redact(reason)).toBe(`session ${REDACTED}`);
    expect(redactor.redact(`key ${API_KEY.slice(0, 12)}`)).toBe(`key ${REDACTED}`);
    // Fewer than 8 leading characters, or a start that does not run to the end, is ordinary text.
    expect(redactor.redact(`key ${API_KEY.slice(0, 7)}`)).toBe(`key ${API_KEY.slice(0, 7)}`);
    expect(redactor.redact(`key ${API_KEY.slice(0, 12)}, more`)).toBe(`key ${API_KEY.slice(0, 12)}, more`);
    expect(redactor.holdsSecret('an ordinary reason')).toBe(false);
  });

  it('SecretRedactor removes a secret echoed in base64, base64url or hex, alone or inside a longer encoded text', () => {
    const redactor = new SecretRedactor();
    const token = 'wh_tok-3f9a~K/+zZ?x';
    redactor.add(token);
    const utf8 = Buffer.from(token);
    const standalone = [utf8.toString('base64'), utf8.toString('base64').replace(/=+$/, ''), utf8.toString('base64url'), utf8.toString('hex'), utf8.toString('hex').toUpperCase(), Buffer.from(`${token}:`).toString('base64')];
    for (const form of standalone) {
      const text = `the server says: ${form} is unknown`;
      expect([form, redactor.holdsSecret(text)]).toEqual([form, true]);
      expect(redactor.redact(text)).toMatch(/^the server says: \[redacted\]=*(\S{0,2}) is unknown$/);
    }
    // Inside a longer encoded text (a JSON body in base64, a header), starting at each byte of a 3-byte group.
    for (const before of ['', 'a', 'ab', '{"token":"', 'x-webhook: ']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${before}${token}", "more": 1}`).toString(encoding);
        const redacted = redactor.redact(`echo ${encoded}`);
        expect([before, encoding, redacted.includes(REDACTED)]).toEqual([before, encoding, true]);
        // What is left cannot be decoded back to the token.
        expect(Buffer.from(redacted.slice(5).replace(REDACTED, ''), encoding).toString()).not.toContain(token.slice(2, -2));
      }
    }
    // Ordinary text and other secrets' encodings are left alone.
    expect(redactor.redact('an ordinary reason with c2VjcmV0 and 736563726574')).toBe('an ordinary reason with c2VjcmV0 and 736563726574');
  });

  it('SecretRedactor with minLength 1 removes a short secret everywhere, raw only (its encodings would be too short to tell)', () => {
    const redactor = new SecretRedactor({ minLength: 1 });
    redactor.add('ab1');
    expect(redactor.redact('x ab1 y')).toBe(`x ${REDACTED} y`);
    expect(redactor.redact(`x ${Buffer.from('ab1').toString('hex')} y`)).toBe('x 616231 y');
    const standard = new SecretRedactor();
    standard.add('ab1');
    expect(standard.redact('x ab1 y')).toBe('x ab1 y');
  });

  it('SecretRedactor.redactError scrubs a reported error in place: message, stack, string fields and fields records', () => {
    const redactor = new SecretRedactor();
    redactor.add(API_KEY);
    const error = new ProtocolError(`saw ${API_KEY}`, `{"t":"${API_KEY}"}`);
    const gateway = new GatewayError({ code: 'bad_request', message: 'no', op: 'x', fields: JSON.parse(`{"${API_KEY}":"${API_KEY}","__proto__":"a field named __proto__"}`) as Record<string, string> });
    expect(redactor.redactError(error)).toBe(error);
    redactor.redactError(gateway);
    expect(error.message).toBe(`saw ${REDACTED}`);
    expect(error.excerpt).toBe(`{"t":"${REDACTED}"}`);
    expect(error.stack).not.toContain(API_KEY);
    expect(Object.entries(gateway.fields ?? {})).toEqual([
      [REDACTED, REDACTED],
      ['__proto__', 'a field named __proto__'],
    ]);
    // The "__proto__" field stays a plain key: the record keeps its ordinary prototype.
    expect(Object.getPrototypeOf(gateway.fields)).toBe(Object.prototype);
  });
});

describe('emulator wire log paths', () => {
  it('masks webhook tokens wherever the webhook segment is, JWT segments anywhere, and token query values', () => {
    expect(maskPath('/webhooks/1840000000000000006/abcDEF_token-1')).toBe('/webhooks/1840000000000000006/***');
    expect(maskPath('/prefix/webhooks/1840000000000000006/abcDEF_token-1')).toBe('/prefix/webhooks/1840000000000000006/***');
    expect(maskPath('/api/clanwebhooks/abcDEF_token-1/alice')).toBe('/api/clanwebhooks/***/***');
    expect(maskPath('/clanwebhooks/abcDEF_token-1/1840000000000000002')).toBe('/clanwebhooks/***/1840000000000000002');
    expect(maskPath(`/v2/users/${JWT}`)).toBe('/v2/users/***');
    expect(maskPath(`/v2/users/${encodeURIComponent(JWT)}?token=${JWT}&limit=5`)).toBe('/v2/users/***?token=***&limit=5');
    // Ordinary paths are untouched.
    expect(maskPath('/v2/channels/1840000000000000006/messages?limit=50')).toBe('/v2/channels/1840000000000000006/messages?limit=50');
    expect(maskPath('/v2/clans')).toBe('/v2/clans');
  });
});
