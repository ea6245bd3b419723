/**
 * The compat front end's protobuf schema (dialect sdk-2.8.33): every field it
 * declares has the number and type the official SDK's own codec gives it,
 * both ways (what the emulator encodes, the SDK decodes field for field, and
 * the reverse).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromBinary, fromJson, ScalarType, toBinary, toJson, type DescField, type DescMessage, type JsonObject } from '@bufbuild/protobuf';
import { expect, it } from 'vitest';
import { EnvelopeSchema } from '../../src/production/schema/sdk-2.8.33_pb.js';
import { describeWithSdk } from './support/sdk-bot.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A value for every declared field, none of them a default, so each one travels. */
function sample(message: DescMessage, depth = 0): JsonObject {
  const out: JsonObject = {};
  for (const field of message.fields) out[field.name] = fieldSample(field, depth);
  return out;
}

function fieldSample(field: DescField, depth: number): JsonObject[string] {
  const number = field.number + 1;
  if (field.fieldKind === 'map') return { key: `v${number}` };
  if (field.fieldKind === 'list') return field.listKind === 'message' ? [sample(field.message, depth + 1)] : ['s', `t${number}`];
  if (field.fieldKind === 'message') {
    const name = field.message.typeName;
    if (name === 'google.protobuf.Timestamp') return new Date(Date.UTC(2030, 0, number)).toISOString();
    if (name === 'google.protobuf.Int32Value') return number;
    if (name === 'google.protobuf.BoolValue') return true;
    if (name === 'google.protobuf.StringValue') return `w${number}`;
    return depth > 2 ? {} : sample(field.message, depth + 1);
  }
  if (field.scalar === ScalarType.STRING) return `${field.name}-${number}`;
  return field.scalar === ScalarType.BOOL ? true : number;
}

/** The SDK's decoded values in the JSON shape protobuf-es gives ours: dates as ISO text, longs as numbers. */
function normalise(value: unknown): unknown {
  // Proto JSON writes whole seconds without a fraction.
  if (value instanceof Date) return value.toISOString().replace('.000Z', 'Z');
  if (Array.isArray(value)) return value.map(normalise);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v)]));
  return value;
}

/** Ours, as JSON with proto field names; int64 values come as text in proto JSON. */
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

describeWithSdk("the production schema against the official SDK's codec", () => {
  const sdk = createRequire(join(root, 'test/compat/package.json'))('mezon-sdk/dist/cjs/rtapi/realtime.js') as { Envelope: SdkEnvelopeCodec };
  const cases = EnvelopeSchema.oneofs[0]!.fields;

  it.each(cases.map((field) => [field.name, field] as const))('%s: every declared field decodes alike on both sides', (name, field) => {
    const value = sample(field.message!);
    const envelope = fromJson(EnvelopeSchema, { cid: '9', [name]: value });
    // Ours → the SDK.
    const decoded = sdk.Envelope.decode(toBinary(EnvelopeSchema, envelope));
    const expected = ours(toJson(EnvelopeSchema, envelope, { useProtoFieldName: true })) as JsonObject;
    expect(pick(normalise(decoded[name]), expected[name])).toEqual(expected[name]);
    // The SDK → ours.
    const back = fromBinary(EnvelopeSchema, sdk.Envelope.encode(sdk.Envelope.fromPartial(decoded)).finish());
    expect(ours(toJson(EnvelopeSchema, back, { useProtoFieldName: true }))).toEqual(expected);
  });
});

/** The part of the SDK's object the schema declares: the SDK decodes fields this subset leaves out, with their defaults. */
function pick(actual: unknown, shape: unknown): unknown {
  if (Array.isArray(shape) && Array.isArray(actual)) return actual.map((item, i) => pick(item, shape[i]));
  if (typeof shape === 'object' && shape !== null && !Array.isArray(shape) && typeof actual === 'object' && actual !== null) {
    return Object.fromEntries(Object.keys(shape).map((key) => [key, pick((actual as Record<string, unknown>)[key], (shape as Record<string, unknown>)[key])]));
  }
  return actual;
}
