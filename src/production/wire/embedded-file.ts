import type { DescFile } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { createFileRegistry } from './lean-registry.js';
import { FILE, type Table } from './descriptor-tables.js';

/**
 * `fileDesc` of protobuf-es, without the reflection it is built on: the
 * generated schemas embed each file's descriptor (a `FileDescriptorProto`,
 * base64) and protobuf-es decodes it with its own generated descriptor.proto
 * schema, some 25 KB minified that a browser would load only for this. This
 * reads the few descriptor fields a registry needs with the wire reader the
 * codec carries anyway, into the same plain objects, and builds the same
 * file with a registry for proto3 files (lean-registry.ts). The browser build of `clanstream/production` uses it in place of
 * protobuf-es's (scripts/lib/core-as-browser-bundle.mjs);
 * test/production/embedded-file.test.ts proves both build identical schemas.
 */

const prototypes = new Map<Table, object>();

function read(bytes: Uint8Array, table: Table): Record<string, unknown> {
  let proto = prototypes.get(table);
  if (proto === undefined) {
    // Not frozen: an inherited read-only property would forbid setting it on the object.
    proto = { ...table.defaults };
    prototypes.set(table, proto);
  }
  const out = Object.create(proto) as Record<string, unknown>;
  for (const list of table.lists ?? []) out[list] = [];
  for (const [name, , repeated] of Object.values(table.fields)) if (repeated) out[name] = [];
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [number, wireType] = reader.tag();
    const spec = table.fields[number];
    if (spec === undefined) {
      reader.skip(wireType, number);
      continue;
    }
    const [name, kind, repeated] = spec;
    const values: unknown[] = [];
    if (kind === 's') values.push(reader.string());
    else if (kind === 'b') values.push(reader.bool());
    else if (kind === 'i') {
      // A packed list of numbers, or one number.
      if (wireType === WireType.LengthDelimited) {
        const end = reader.uint32() + reader.pos;
        while (reader.pos < end) values.push(reader.int32());
      } else values.push(reader.int32());
    } else values.push(read(reader.bytes(), kind));
    if (repeated) (out[name] as unknown[]).push(...values);
    else out[name] = values[0];
  }
  return out;
}

/** The JSON name protobuf gives a field: lowerCamelCase of its name (protoc leaves it out of embedded descriptors when it is this). */
function jsonName(name: string): string {
  let up = false;
  let out = '';
  for (const c of name) {
    if (c === '_') up = true;
    else {
      out += up && !/\d/.test(c) ? c.toUpperCase() : c;
      up = false;
    }
  }
  return out;
}

function restoreJsonNames(message: Record<string, unknown>): void {
  for (const field of message.field as Array<Record<string, unknown>>) if (!Object.hasOwn(field, 'jsonName')) field.jsonName = jsonName(field.name as string);
  for (const nested of message.nestedType as Array<Record<string, unknown>>) restoreJsonNames(nested);
}

/**
 * The bytes of a descriptor the browser build embeds as a string of
 * code points 0-255 rather than base64 (it compresses by a quarter better).
 */
export function latin1Bytes(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * A generated file's descriptor, built from its embedded `FileDescriptorProto`,
 * as protobuf-es's `fileDesc`. The bytes, not base64: the browser build embeds
 * them so (scripts/lib/core-as-browser-bundle.mjs).
 */
export function fileDesc(embedded: Uint8Array, imports?: DescFile[]): DescFile {
  const root = read(embedded, FILE);
  root.$typeName = 'google.protobuf.FileDescriptorProto';
  for (const message of root.messageType as Array<Record<string, unknown>>) restoreJsonNames(message);
  root.dependency = imports?.map((file) => file.proto.name) ?? [];
  const registry = createFileRegistry(root as never, (name) => imports?.find((file) => file.proto.name === name));
  return registry.getFile(root.name as string)!;
}
