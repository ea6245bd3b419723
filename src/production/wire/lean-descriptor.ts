import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { FILE, type Table } from './descriptor-tables.js';

/**
 * A generated file's embedded `FileDescriptorProto` with only the fields the
 * browser build's descriptor reader reads (descriptor-tables.ts): what it
 * skips (file options such as the Java, Go, Objective-C and C# names of
 * wrappers.proto) costs a browser bytes for nothing. The browser build embeds this
 * (scripts/lib/core-as-browser-bundle.mjs); read by embedded-file.ts, it
 * builds the same file as the whole descriptor
 * (test/production/embedded-file.test.ts).
 */
export function leanDescriptor(bytes: Uint8Array, table: Table = FILE): Uint8Array {
  const reader = new BinaryReader(bytes);
  const writer = new BinaryWriter();
  while (reader.pos < reader.len) {
    const start = reader.pos;
    const [number, wireType] = reader.tag();
    const kind = table.fields[number]?.[1];
    if (kind === undefined) reader.skip(wireType, number);
    else if (typeof kind === 'object') writer.tag(number, WireType.LengthDelimited).bytes(leanDescriptor(reader.bytes(), kind));
    else {
      reader.skip(wireType, number);
      writer.raw(bytes.subarray(start, reader.pos));
    }
  }
  return writer.finish();
}
