/**
 * Dialect sdk-2.8.37 against its oracle, the web client's codec
 * (mezon-js-protobuf 1.10.20): for every Envelope case the dialect declares
 * and every request and answer of its RPCs, what our codec encodes the oracle
 * decodes to the intended values, and what the oracle encodes ours decodes to
 * them, field for field. Values are compared, not bytes or errors: the
 * oracle's decoder skips a field of the wrong wire type without a word.
 */
import { fromJson, toJson, type DescMessage, type JsonObject } from '@bufbuild/protobuf';
import { expect, it } from 'vitest';
import { EnvelopeSchema } from '../../src/production/schema/sdk-2.8.37_pb.js';
import { decodeMessage, encodeEnvelope, encodeMessage, FrameDecoder, RPC_METHODS, SDK_2_8_37 } from '../../src/production/wire/index.js';
import { normalise, pick, sample } from './support/schema-samples.js';
import { describeWithWebCodec, loadWebCodec } from './support/web-codec.js';

const asJson = (schema: DescMessage, message: Parameters<typeof toJson>[1]): JsonObject => toJson(schema, message, { useProtoFieldName: true }) as JsonObject;

describeWithWebCodec("dialect sdk-2.8.37 against the web client's codec", () => {
  const oracle = loadWebCodec();
  const cases = EnvelopeSchema.oneofs[0]!.fields;

  it.each(cases.map((field) => [field.name, field] as const))('envelope %s: every declared field decodes alike on both sides', (name, field) => {
    const envelope = fromJson(EnvelopeSchema, { cid: '9', [name]: sample(field.message!) });
    const expected = asJson(EnvelopeSchema, envelope);

    // Ours → the oracle.
    const ours = encodeEnvelope(SDK_2_8_37, envelope);
    if (!(ours instanceof Uint8Array)) throw ours;
    const decoded = oracle.decodeEnvelope(ours);
    expect(decoded.cid).toBe('9');
    expect(pick(normalise(decoded[name]), expected[name])).toEqual(expected[name]);

    // The oracle → ours, through the frame decoder, whose markers must take the oracle's bytes for this dialect.
    const frame = new FrameDecoder(SDK_2_8_37).decode(oracle.encodeEnvelope(decoded));
    if (frame.kind !== 'envelope') throw new Error(`decoded as ${frame.kind}`);
    expect(asJson(EnvelopeSchema, frame.envelope)).toEqual(expected);
  });

  const messages = Object.entries(RPC_METHODS['sdk-2.8.37']).flatMap(([method, rpc]) => [
    [`${method} request`, rpc.request, rpc.request.name] as const,
    ...('answer' in rpc ? [[`${method} answer`, rpc.answer, method === 'AddFriends' ? 'AddFriendsResponse' : rpc.answer.name] as const] : []),
  ]);

  it.each(messages)('%s: every declared field decodes alike on both sides', (_, schema, oracleName) => {
    const codec = oracle.message(oracleName);
    const message = fromJson(schema, sample(schema));
    const expected = asJson(schema, message);

    const ours = encodeMessage(schema, message, oracleName);
    if (!(ours instanceof Uint8Array)) throw ours;
    const decoded = codec.decode(ours);
    expect(pick(normalise(decoded), expected)).toEqual(expected);

    const back = decodeMessage(schema, codec.encode(codec.fromPartial(decoded)).finish(), oracleName);
    if (back instanceof Error) throw back;
    expect(asJson(schema, back)).toEqual(expected);
  });
});
