/**
 * Prototype pollution scan, property-based: JSON text with `__proto__`,
 * `constructor` and `prototype` keys (at the top and nested, with payloads
 * such as {"polluted": "yes"}) is parsed and fed through decodeFrame and
 * every validator, parser and builder that takes outside data. After each
 * case no built-in prototype may have gained or changed a property, and the
 * plain data handed back must still have plain prototypes (no object's
 * prototype swapped through an own `__proto__` key).
 *
 * Only pollution is judged here: whether each function throws only typed
 * errors is the subject of the property tests beside each module.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/events/operators/command.js';
import { maskSecrets } from '../../src/emulator/wire-log.js';
import { decodeFrame } from '../../src/gateway/clanstream-wire.js';
import { ActionRowBuilder } from '../../src/interactive/action-row-builder.js';
import { ButtonBuilder } from '../../src/interactive/button-builder.js';
import { validateComponent } from '../../src/interactive/component.js';
import { EmbedBuilder } from '../../src/interactive/embed-builder.js';
import { parseExtraData } from '../../src/interactive/form.js';
import { MessageContentBuilder } from '../../src/interactive/message-content-builder.js';
import { SelectBuilder } from '../../src/interactive/select-builder.js';
import type { IInteractiveMessageProps, IMessageActionRow, IMessageComponent } from '../../src/model/content.js';
import { Session } from '../../src/session/session.js';
import { validateMessageParts } from '../../src/validation/message.js';
import { toUnits } from '../../src/wallet/amount.js';
import { parseTransferRequest } from '../../src/wallet/transfer-request.js';
import type { APISentTokenRequest } from '../../src/wallet/types.js';
import { checkChannelWebhookMessage, checkClanWebhookMessage, checkUserIdentifier } from '../../src/webhooks/rules.js';
import { parseChannelWebhookUrl, parseClanWebhookUrl } from '../../src/webhooks/url.js';
import {
  validateChannelWebhookBody,
  validateChannelWebhookMessage,
  validateClanWebhookBody,
  validateClanWebhookContent,
  validateClanWebhookMessage,
} from '../../src/webhooks/validate.js';
import { expectNoPollution, protoJsonText, prototypeSnapshot } from '../helpers/property.js';

const RUNS = 1500;

/** Keys the scanned functions read, so that the generated objects reach deep into them. */
const KEYS = [
  't', 's', 'e', 'mk', 'hg', 'ej', 'lk', 'vk', 'type', 'embed', 'components', 'component', 'id', 'fields', 'author', 'footer', 'inputs', 'options', 'pool',
  'mentions', 'attachments', 'references', 'username', 'user_id', 'role_id', 'content', 'message', 'images', 'url', 'filetype', 'token', 'refresh_token',
  'exp', 'uid', 'vars', 'receiver_id', 'amount', 'mmn_extra_info', 'seq', 'cid', 'session_id', 'message_id', 'channel_id', 'channel_message', 'error', 'hello',
];

/** Runs `fn`, ignoring what it throws (typed errors are judged elsewhere); returns its result. */
function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

const b64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** Fails when any object reachable from `value` has a prototype other than Object.prototype, Array.prototype or null. */
function expectPlainData(value: unknown, path = '$', seen = new Set<object>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) throw new Error(`${path} has a swapped prototype: ${JSON.stringify(proto)}`);
  for (const key of Reflect.ownKeys(value)) expectPlainData((value as Record<PropertyKey, unknown>)[key], `${path}.${String(key)}`, seen);
}

/** Feeds one JSON text, and the object parsed from it, to everything that takes outside data. */
function feedEverything(text: string): void {
  const parsed = JSON.parse(text) as Record<string, unknown>;

  // The gateway: the object as a frame, as an event payload, as a reply, as channel_message content.
  for (const frame of [
    text,
    `{"seq":1,"session_id":"S","channel_message":${text}}`,
    `{"seq":1,"session_id":"S","channel_message":{"message_id":"M","channel_id":"C","content":${text},"mentions":${text}}}`,
    `{"seq":1,"session_id":"S","channel_message":{"message_id":"M","channel_id":"C","content":${JSON.stringify(text)}}}`,
    `{"seq":2,"role_event":${text}}`,
    `{"cid":"c","ready":${text}}`,
    `{"hello":${text}}`,
    `{"error":${text}}`,
  ]) {
    const decoded = decodeFrame(frame);
    // An unreadable event carries its ProtocolError; the rest of the frame is data.
    if (decoded instanceof Error) continue;
    if (decoded.kind === 'invalid_event') expectPlainData({ ...decoded, error: decoded.error.message });
    else expectPlainData(decoded);
  }

  // Message validation and every webhook validator.
  attempt(() => validateMessageParts({ content: parsed, mentions: parsed.mentions, attachments: parsed.attachments, references: parsed.references }));
  attempt(() => validateMessageParts({ content: { t: 'hello', mk: [parsed], hg: [parsed] }, mentions: [parsed], attachments: [parsed], references: [parsed] }));
  for (const validate of [validateChannelWebhookMessage, validateChannelWebhookBody, validateClanWebhookContent, validateClanWebhookMessage, checkChannelWebhookMessage, checkClanWebhookMessage, checkUserIdentifier]) {
    attempt(() => validate(parsed));
    attempt(() => validate({ type: 'hook', message: parsed, content: parsed }));
  }
  const clan = attempt(() => validateClanWebhookBody({ content: text, attachments: parsed.attachments }));
  if (clan?.content) expectPlainData(clan.content);
  attempt(() => validateClanWebhookBody(parsed));
  for (const parse of [parseChannelWebhookUrl, parseClanWebhookUrl]) attempt(() => parse(`https://x.test/webhooks/${encodeURIComponent(text)}/tok`));

  // Sessions: the object as a session, and as the claims of its tokens.
  const jwt = `${b64url('{"alg":"HS256"}')}.${b64url(text)}.sig`;
  attempt(() => new Session(parsed));
  attempt(() => Session.restore({ ...parsed, token: jwt, refresh_token: jwt }));

  // Token transfers.
  attempt(() => parseTransferRequest(parsed as unknown as APISentTokenRequest, undefined));
  attempt(() => parseTransferRequest({ receiver_id: 'u', amount: 1, mmn_extra_info: parsed }, 'u'));
  attempt(() => toUnits(parsed.amount as string));

  // Builders, loading the object as an existing embed, row, component or markdown range.
  const built = attempt(() =>
    new MessageContentBuilder()
      .text('hello')
      .addMarkdownRange(parsed as never)
      .addEmbed(parsed as unknown as IInteractiveMessageProps)
      .addRow(parsed as unknown as IMessageActionRow)
      .build(),
  );
  if (built) expectPlainData(built);
  attempt(() => new MessageContentBuilder().mention(parsed as never, 'x').validate());
  attempt(() => EmbedBuilder.from(parsed as unknown as IInteractiveMessageProps).validate());
  attempt(() => ActionRowBuilder.from(parsed as unknown as IMessageActionRow).validate());
  attempt(() => validateComponent(parsed as unknown as IMessageComponent));
  attempt(() => new ButtonBuilder(parsed as never).build());
  attempt(() => new SelectBuilder(parsed as never).build());
  const form = attempt(() => parseExtraData(text));
  if (form) expectPlainData(form.values);
  attempt(() => parseCommand(parsed as never));
}

describe('prototype pollution: properties', () => {
  it('JSON with __proto__/constructor/prototype keys, fed to decodeFrame and every validator, pollutes nothing', () => {
    const before = prototypeSnapshot();
    fc.assert(
      fc.property(protoJsonText(KEYS), (text) => {
        feedEverything(text);
        expectNoPollution(before);
      }),
      { numRuns: RUNS },
    );
  });

  it('fixed classic payloads pollute nothing either', () => {
    const before = prototypeSnapshot();
    for (const text of [
      '{"__proto__":{"polluted":"yes"}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"__proto__":{"__proto__":{"polluted":"yes"}}}',
      '{"t":"x","mk":[{"__proto__":{"polluted":"yes"},"type":"b","s":0,"e":1}],"__proto__":{"isAdmin":true}}',
      '{"content":{"__proto__":{"polluted":"yes"}},"embed":[{"__proto__":{"title":"x"},"fields":[{"__proto__":{"name":"n"}}]}]}',
      '{"components":[{"__proto__":{"type":1},"id":"b","component":{"__proto__":{"label":"L"}}}]}',
    ]) {
      feedEverything(text);
      expectNoPollution(before);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('the emulator wire log copy of a body keeps plain prototypes', () => {
    fc.assert(
      fc.property(protoJsonText(KEYS), (text) => {
        expectPlainData(maskSecrets(JSON.parse(text)));
      }),
      { numRuns: 1000, examples: [['{"__proto__":{"token":"SECRET"}}']], endOnFailure: true },
    );
  });
});
