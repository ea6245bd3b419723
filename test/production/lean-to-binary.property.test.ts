/**
 * The browser build of clanstream/production writes frames with
 * src/production/wire/lean-to-binary.ts instead of protobuf-es's `toBinary`:
 * for any message of every dialect's schemas (Envelopes with every case, and
 * the RPC messages), both write the same bytes. Messages decoded from bytes
 * with unknown fields are written back the same way too.
 */
import { fromBinary, toBinary, type DescMessage } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../src/production/wire/dialects.js';
import { toBinary as leanToBinary } from '../../src/production/wire/lean-to-binary.js';
import { RPC_METHODS } from '../../src/production/wire/rpc-methods.js';
import { arbitraryMessage } from './wire/support/message-arbitrary.js';

const RUNS = { numRuns: 150 };

const rpcSchemas = (): Array<[string, DescMessage]> => {
  const out = new Map<string, DescMessage>();
  for (const methods of Object.values(RPC_METHODS)) {
    for (const { request, answer } of Object.values(methods) as Array<{ request: DescMessage; answer?: DescMessage }>) {
      out.set(request.typeName, request);
      if (answer) out.set(answer.typeName, answer);
    }
  }
  return [...out];
};

describe('the lean toBinary writes what protobuf-es writes', () => {
  it.each(DIALECTS.map((d) => [d.name, d.envelope] as const))('any %s Envelope', (_name, envelope) => {
    fc.assert(
      fc.property(arbitraryMessage(envelope), (message) => {
        expect(leanToBinary(envelope, message)).toEqual(toBinary(envelope, message));
      }),
      RUNS,
    );
  });

  it.each(rpcSchemas())('any %s (RPC)', (_name, schema) => {
    fc.assert(
      fc.property(arbitraryMessage(schema), (message) => {
        expect(leanToBinary(schema, message)).toEqual(toBinary(schema, message));
      }),
      { numRuns: 40 },
    );
  });

  it('writes unknown fields back after the known ones, as protobuf-es does', () => {
    const envelope = DIALECTS[2]!.envelope;
    // cid 5, then field 200 (unknown to the schema) as a varint 7.
    const message = fromBinary(envelope, Uint8Array.from([0x08, 0x05, 0xc0, 0x0c, 0x07]));
    expect(leanToBinary(envelope, message)).toEqual(toBinary(envelope, message));
  });

  it('refuses a value out of its field’s range, as protobuf-es does', () => {
    const envelope = DIALECTS[1]!.envelope;
    const message = { $typeName: envelope.typeName, cid: '', message: { case: 'clanJoin', value: { $typeName: 'sdk_2_8_37.ClanJoin', clanId: 'not a number' } } };
    expect(() => toBinary(envelope, message as never)).toThrow();
    expect(() => leanToBinary(envelope, message)).toThrow();
  });
});
