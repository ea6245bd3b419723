/**
 * Dialect sdk-2.8.33 against its oracle, the official SDK's codec (mezon-sdk
 * 2.8.33): for every Envelope case the dialect declares, what our codec
 * encodes the SDK decodes field for field, and what the SDK encodes ours
 * decodes to the same values.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fromJson, toJson, type JsonObject } from '@bufbuild/protobuf';
import { expect, it } from 'vitest';
import { EnvelopeSchema } from '../../src/production/schema/sdk-2.8.33_pb.js';
import { encodeEnvelope, FrameDecoder, SDK_2_8_33 } from '../../src/production/wire/index.js';
import { compatDir } from './support/installed.js';
import { normalise, pick, sample } from './support/schema-samples.js';
import { describeWithSdk } from './support/sdk-bot.js';

/** Ours, as JSON with proto field names; the SDK reads the one int64 of this dialect (an attachment's size) as a number. */
function ours(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(ours);
  if (typeof json === 'object' && json !== null) return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, k === 'size' && typeof v === 'string' ? Number(v) : ours(v)]));
  return json;
}

interface SdkEnvelopeCodec {
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): Record<string, unknown>;
  fromPartial(object: unknown): unknown;
}

describeWithSdk("dialect sdk-2.8.33 against the official SDK's codec", () => {
  const sdk = createRequire(join(compatDir, 'package.json'))('mezon-sdk/dist/cjs/rtapi/realtime.js') as { Envelope: SdkEnvelopeCodec };
  const cases = EnvelopeSchema.oneofs[0]!.fields;

  it.each(cases.map((field) => [field.name, field] as const))('%s: every declared field decodes alike on both sides', (name, field) => {
    const envelope = fromJson(EnvelopeSchema, { cid: '9', [name]: sample(field.message!) });
    const expected = ours(toJson(EnvelopeSchema, envelope, { useProtoFieldName: true })) as JsonObject;

    // Ours → the SDK.
    const bytes = encodeEnvelope(SDK_2_8_33, envelope);
    if (!(bytes instanceof Uint8Array)) throw bytes;
    const decoded = sdk.Envelope.decode(bytes);
    expect(decoded.cid).toBe('9');
    expect(pick(normalise(decoded[name]), expected[name])).toEqual(expected[name]);

    // The SDK → ours, through the frame decoder, whose markers must take the SDK's bytes for this dialect.
    const frame = new FrameDecoder(SDK_2_8_33).decode(sdk.Envelope.encode(sdk.Envelope.fromPartial(decoded)).finish());
    if (frame.kind !== 'envelope') throw new Error(`decoded as ${frame.kind}`);
    expect(ours(toJson(EnvelopeSchema, frame.envelope, { useProtoFieldName: true }))).toEqual(expected);
  });
});
