/**
 * The browser build of clanstream/production builds the schemas from their
 * embedded descriptors with src/production/wire/embedded-file.ts and its
 * registry for proto3 files (lean-registry.ts) instead of protobuf-es's
 * `fileDesc` and registry: both must build the same schemas, property for
 * property, and read and write the same bytes the same way.
 */
import { readFileSync } from 'node:fs';
import { create, fromBinary, toBinary, toJson, type DescFile, type DescMessage } from '@bufbuild/protobuf';
import { file_google_protobuf_wrappers } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import * as A from '../../src/production/schema/sdk-2.8.33_pb.js';
import * as B from '../../src/production/schema/sdk-2.8.37_pb.js';
import * as C from '../../src/production/schema/sdk-2.8.44_pb.js';
import { fileDesc } from '../../src/production/wire/embedded-file.js';
import { leanDescriptor } from '../../src/production/wire/lean-descriptor.js';

/** The descriptor a generated file embeds (base64 in its source). */
function embedded(path: string | URL): Uint8Array {
  const match = /fileDesc\("([A-Za-z0-9+/=]+)"/.exec(readFileSync(path, 'utf8'));
  if (!match) throw new Error(`no embedded descriptor in ${String(path)}`);
  return new Uint8Array(Buffer.from(match[1]!, 'base64'));
}

const schema = (name: string) => new URL(`../../src/production/schema/${name}_pb.ts`, import.meta.url);
const wrappers = fileDesc(embedded(new URL('../../node_modules/@bufbuild/protobuf/dist/esm/wkt/google/protobuf/wrappers_pb.js', import.meta.url)));
const timestamp = fileDesc(embedded(new URL('../../node_modules/@bufbuild/protobuf/dist/esm/wkt/google/protobuf/timestamp_pb.js', import.meta.url)));
const leanB = fileDesc(embedded(schema('sdk-2.8.37')), [wrappers]);
const FILES: Array<[string, DescFile, DescFile]> = [
  ['google/protobuf/wrappers.proto', file_google_protobuf_wrappers, wrappers],
  ['sdk-2.8.33.proto', A.file_sdk_2_8_33, fileDesc(embedded(schema('sdk-2.8.33')), [timestamp, wrappers])],
  ['sdk-2.8.37.proto', B.file_sdk_2_8_37, leanB],
  ['sdk-2.8.44.proto', C.file_sdk_2_8_44, fileDesc(embedded(schema('sdk-2.8.44')), [leanB])],
];

/** The same schemas from the descriptors as the browser build embeds them: only the fields the reader reads. */
const leanWrappers = fileDesc(leanDescriptor(embedded(new URL('../../node_modules/@bufbuild/protobuf/dist/esm/wkt/google/protobuf/wrappers_pb.js', import.meta.url))));
const leanTimestamp = fileDesc(leanDescriptor(embedded(new URL('../../node_modules/@bufbuild/protobuf/dist/esm/wkt/google/protobuf/timestamp_pb.js', import.meta.url))));
const strippedB = fileDesc(leanDescriptor(embedded(schema('sdk-2.8.37'))), [leanWrappers]);
const STRIPPED: Array<[string, DescFile, DescFile]> = [
  ['google/protobuf/wrappers.proto', file_google_protobuf_wrappers, leanWrappers],
  ['sdk-2.8.33.proto', A.file_sdk_2_8_33, fileDesc(leanDescriptor(embedded(schema('sdk-2.8.33'))), [leanTimestamp, leanWrappers])],
  ['sdk-2.8.37.proto', B.file_sdk_2_8_37, strippedB],
  ['sdk-2.8.44.proto', C.file_sdk_2_8_44, fileDesc(leanDescriptor(embedded(schema('sdk-2.8.44'))), [strippedB])],
];

function messages(file: DescFile): DescMessage[] {
  const all: DescMessage[] = [];
  const visit = (m: DescMessage) => {
    all.push(m);
    m.nestedMessages.forEach(visit);
  };
  file.messages.forEach(visit);
  return all;
}

/** What decides how a message reads and writes, for each field, and what reflection shows of it. */
function shape(message: DescMessage): unknown {
  return {
    typeName: message.typeName,
    name: message.name,
    text: message.toString(),
    deprecated: message.deprecated,
    edition: message.file.edition,
    file: message.file.name,
    parent: message.parent?.typeName,
    oneofs: message.oneofs.map((o) => ({ name: o.name, localName: o.localName, text: o.toString(), fields: o.fields.map((f) => f.name), deprecated: o.deprecated })),
    members: message.members.map((m) => `${m.kind}:${m.name}`),
    byLocalName: Object.keys(message.field),
    nested: [message.nestedMessages.map((m) => m.typeName), message.nestedEnums.map((e) => e.typeName), message.nestedExtensions.length],
    fields: message.fields.map((f) => ({
      kind: f.kind,
      text: f.toString(),
      deprecated: f.deprecated,
      utf8Validation: (f as { utf8Validation?: unknown }).utf8Validation,
      delimitedEncoding: 'delimitedEncoding' in f ? f.delimitedEncoding : undefined,
      mapKind: f.fieldKind === 'map' ? f.mapKind : undefined,
      defaultValue: f.fieldKind === 'scalar' || f.fieldKind === 'enum' || f.fieldKind === 'message' ? f.getDefaultValue() : 'none',
      parent: f.parent.typeName,
      number: f.number,
      name: f.name,
      localName: f.localName,
      jsonName: f.jsonName,
      fieldKind: f.fieldKind,
      presence: f.presence,
      oneof: f.oneof?.name,
      scalar: 'scalar' in f ? f.scalar : undefined,
      longAsString: 'longAsString' in f ? f.longAsString : undefined,
      packed: 'packed' in f ? f.packed : undefined,
      listKind: f.fieldKind === 'list' ? f.listKind : undefined,
      mapKey: f.fieldKind === 'map' ? f.mapKey : undefined,
      message: 'message' in f ? f.message?.typeName : undefined,
      enum: 'enum' in f ? f.enum?.typeName : undefined,
    })),
  };
}

describe('schemas built from their embedded descriptors without protobuf-es reflection', () => {
  it.each([...FILES, ...STRIPPED.map(([name, real, lean]) => [`${name} (only the fields the reader reads, as the browser build embeds it)`, real, lean] as const)])('%s: the same messages, fields and enums', (_name, real, lean) => {
    expect(messages(lean).map(shape)).toEqual(messages(real).map(shape));
    const enums = (file: DescFile) =>
      [...file.enums, ...messages(file).flatMap((m) => m.nestedEnums)].map((e) => ({
        typeName: e.typeName,
        text: e.toString(),
        open: e.open,
        sharedPrefix: e.sharedPrefix,
        parent: e.parent?.typeName,
        values: e.values.map((v) => [v.name, v.localName, v.number, v.jsonName, v.toString(), v.deprecated]),
        byNumber: Object.entries(e.value).map(([n, v]) => [n, v.name]),
      }));
    expect(enums(lean)).toEqual(enums(real));
    expect([lean.name, lean.edition, lean.deprecated, lean.toString(), lean.dependencies.map((d) => d.name), lean.services.length, lean.extensions.length]).toEqual([
      real.name,
      real.edition,
      real.deprecated,
      real.toString(),
      real.dependencies.map((d) => d.name),
      real.services.length,
      real.extensions.length,
    ]);
  });

  it('reads the bytes the real schema writes as the real schema does (an Envelope with a channel message, sdk-2.8.44)', () => {
    const envelope = create(C.EnvelopeSchema, {
      cid: 70000,
      message: { case: 'channelMessage', value: { clanId: '1840000000000000100', channelId: '2', messageId: '3', content: '{"t":"x"}', mentions: new Uint8Array([0x5b, 0x5d]), topicId: '4', createTimeSeconds: 1_790_000_000 } },
    });
    const bytes = toBinary(C.EnvelopeSchema, envelope);
    const leanEnvelope = FILES[3]![2].messages.find((m) => m.name === 'Envelope')!;
    expect(toJson(leanEnvelope, fromBinary(leanEnvelope, bytes))).toEqual(toJson(C.EnvelopeSchema, envelope));
    expect(toBinary(leanEnvelope, fromBinary(leanEnvelope, bytes))).toEqual(bytes);
  });

  it.each(FILES)('%s: no field has a proto2 default (the registry of the browser build, lean-registry.ts, builds none)', (_name, real) => {
    const withDefault = messages(real).flatMap((m) => m.proto.field.filter((f) => f.defaultValue !== '').map((f) => `${m.typeName}.${f.name}`));
    expect(withDefault).toEqual([]);
  });

  it.each(STRIPPED.map(([name, , stripped], i) => [name, FILES[i]![2], stripped] as const))('%s: the descriptor the browser build embeds reads as the whole one does', (_name, whole, stripped) => {
    expect(stripped.proto).toEqual(whole.proto);
    expect(stripped.messages.map(shape)).toEqual(whole.messages.map(shape));
  });

  it('leaves out what the reader skips (the file options of wrappers.proto: Java, Go, Objective-C and C# names)', () => {
    const whole = embedded(new URL('../../node_modules/@bufbuild/protobuf/dist/esm/wkt/google/protobuf/wrappers_pb.js', import.meta.url));
    const lean = leanDescriptor(whole);
    const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
    expect(latin1(whole)).toContain('google.golang.org/protobuf/types/known/wrapperspb');
    expect(latin1(lean)).not.toContain('google.golang.org');
    expect(latin1(lean)).not.toContain('com.google.protobuf');
    expect(lean.length).toBeLessThan(whole.length);
  });
});
