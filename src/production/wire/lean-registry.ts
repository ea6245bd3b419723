import type { DescFile } from '@bufbuild/protobuf';

/**
 * `createFileRegistry` of protobuf-es for the browser build of
 * `clanstream/production`, for what its schemas are: proto3 files without
 * services, extensions or field defaults (editions, proto2 groups and
 * required fields, custom features and name checks are what the 12 KB of
 * protobuf-es's registry carry besides). It builds the same descriptors
 * from the plain descriptor objects embedded-file.ts reads;
 * test/production/lean-registry.test.ts proves them equal, property for
 * property, to protobuf-es's for every production schema. A file it cannot
 * build the same fails loudly.
 */

interface Options {
  readonly deprecated?: boolean;
  readonly packed?: boolean;
  readonly jstype?: number;
  readonly mapEntry?: boolean;
}
interface FieldProto {
  readonly name: string;
  readonly number: number;
  readonly label: number;
  readonly type: number;
  readonly typeName: string;
  readonly oneofIndex: number;
  readonly proto3Optional: boolean;
  readonly jsonName: string;
  readonly extendee: string;
  readonly options?: Options;
}
interface EnumProto {
  readonly name: string;
  readonly value: ReadonlyArray<{ readonly name: string; readonly number: number; readonly options?: Options }>;
  readonly options?: Options;
}
interface MessageProto {
  readonly name: string;
  readonly field: readonly FieldProto[];
  readonly nestedType: readonly MessageProto[];
  readonly enumType: readonly EnumProto[];
  readonly oneofDecl: ReadonlyArray<{ readonly name: string }>;
  readonly extension: readonly FieldProto[];
  readonly options?: Options;
}
interface FileProto {
  readonly name: string;
  readonly package: string;
  readonly syntax: string;
  readonly dependency: readonly string[];
  readonly messageType: readonly MessageProto[];
  readonly enumType: readonly EnumProto[];
  readonly service: readonly unknown[];
  readonly extension: readonly FieldProto[];
  readonly options?: Options;
}

/** A descriptor under construction: protobuf-es's shapes, built as plain objects. */
type Desc = { [key: string]: unknown; typeName?: string };
type Message = Desc & { typeName: string; fields: Desc[]; field: Record<string, Desc>; oneofs: Desc[]; members: Desc[]; nestedEnums: Desc[]; nestedMessages: Message[]; proto: MessageProto };

/** protobuf's numbering (descriptor.proto, and protobuf-es's presence and edition numbers). */
const REPEATED = 3;
const TYPE = { group: 10, message: 11, string: 9, bytes: 12, enum: 14 } as const;
const PRESENCE = { explicit: 1, implicit: 2 } as const;
const EDITION_PROTO3 = 999;
const JS_STRING = 1;

const RESERVED = new Set(['constructor', 'toString', 'toJSON', 'valueOf']);
const safe = (name: string): string => (RESERVED.has(name) ? `${name}$` : name);
/** protoc's lowerCamelCase of a snake_case name: a letter after `_` upper-cased; a digit ends the run. */
const camel = (name: string): string => name.replace(/_+([^_\d]?)/g, (_, c: string) => c.toUpperCase());
const trimDot = (typeName: string): string => (typeName.startsWith('.') ? typeName.slice(1) : typeName);
const deprecated = (proto: { readonly options?: Options }): boolean => proto.options?.deprecated ?? false;

function fail(message: string): never {
  throw new Error(`the lean protobuf registry cannot build this file: ${message}`);
}

/** A non-enumerable-free `toString`, as protobuf-es defines it (a plain assignment throws where prototypes are frozen). */
function named<T extends object>(desc: T, text: () => string): T {
  Object.defineProperty(desc, 'toString', { value: text, writable: true, enumerable: true, configurable: true });
  return desc;
}

/** The prefix every value of an enum shares (`my_enum_` of `MY_ENUM_A`), dropped from the values' local names. */
function sharedPrefix(enumName: string, values: EnumProto['value']): string | undefined {
  const prefix = `${(enumName[0]! + enumName.slice(1).replace(/[A-Z]/g, (c) => `_${c}`)).toLowerCase()}_`;
  for (const { name } of values) {
    const rest = name.slice(prefix.length);
    if (!name.toLowerCase().startsWith(prefix) || rest === '' || /^\d/.test(rest)) return undefined;
  }
  return prefix;
}

export function createFileRegistry(root: FileProto, resolve: (name: string) => DescFile | undefined): { getFile(name: string): DescFile | undefined } {
  if (root.syntax !== 'proto3') fail(`${root.name} is not proto3`);
  if (root.service.length > 0 || root.extension.length > 0) fail(`${root.name} has services or extensions`);
  const types = new Map<string, Desc>();
  const known = (desc: Desc): void => {
    for (const e of (desc.enums ?? desc.nestedEnums ?? []) as Desc[]) types.set(e.typeName!, e);
    for (const m of (desc.messages ?? desc.nestedMessages ?? []) as Desc[]) {
      types.set(m.typeName!, m);
      known(m);
    }
    for (const dep of (desc.dependencies ?? []) as Desc[]) known(dep);
  };
  const dependencies = root.dependency.map((name) => resolve(name) ?? fail(`${name}, imported by ${root.name}, is not given`));
  for (const dep of dependencies) known(dep as unknown as Desc);

  const file = named(
    { kind: 'file', proto: root, deprecated: deprecated(root), edition: EDITION_PROTO3, name: root.name.replace(/\.proto$/, ''), dependencies, enums: [] as Desc[], messages: [] as Message[], extensions: [], services: [] },
    () => `file ${root.name}`,
  );
  const typeName = (name: string, parent: Desc | undefined): string => (parent ? `${parent.typeName}.${name}` : root.package ? `${root.package}.${name}` : name);
  const mapEntries = new Map<string, Message>();

  const addEnum = (proto: EnumProto, parent: Message | undefined): void => {
    const prefix = sharedPrefix(proto.name, proto.value);
    const byNumber: Partial<Record<number, Desc>> = {};
    const desc = named({ kind: 'enum', proto, deprecated: deprecated(proto), file, parent, open: true, name: proto.name, typeName: typeName(proto.name, parent), value: byNumber, values: [] as Desc[], sharedPrefix: prefix }, function (this: Desc) {
      return `enum ${this.typeName}`;
    });
    types.set(desc.typeName, desc);
    for (const p of proto.value) {
      const value = named({ kind: 'enum_value', proto: p, deprecated: deprecated(p), parent: desc, name: p.name, localName: safe(prefix === undefined ? p.name : p.name.slice(prefix.length)), number: p.number, jsonName: p.name }, () => `enum value ${desc.typeName}.${p.name}`);
      desc.values.push(value);
      byNumber[p.number] ??= value;
    }
    (parent?.nestedEnums ?? file.enums).push(desc);
  };

  const addMessage = (proto: MessageProto, parent: Message | undefined): void => {
    if (proto.extension.length > 0) fail(`${proto.name} has extensions`);
    const desc = named(
      { kind: 'message', proto, deprecated: deprecated(proto), file, parent, name: proto.name, typeName: typeName(proto.name, parent), fields: [], field: {}, oneofs: [], members: [], nestedEnums: [], nestedMessages: [], nestedExtensions: [] },
      function (this: Desc) {
        return `message ${this.typeName}`;
      },
    );
    if (proto.options?.mapEntry === true) mapEntries.set(desc.typeName, desc);
    else {
      (parent?.nestedMessages ?? file.messages).push(desc);
      types.set(desc.typeName, desc);
    }
    for (const e of proto.enumType) addEnum(e, desc);
    for (const m of proto.nestedType) addMessage(m, desc);
  };

  const type = (proto: FieldProto): Desc => types.get(trimDot(proto.typeName)) ?? fail(`type_name ${proto.typeName} not found`);

  const newField = (proto: FieldProto, parent: Message, oneof: Desc | undefined): Desc => {
    const repeated = proto.label === REPEATED;
    const isMessage = proto.type === TYPE.message || proto.type === TYPE.group;
    if (proto.type === TYPE.group || proto.label === 2) fail(`${parent.typeName}.${proto.name} is a group or required field`);
    const field: Desc = named(
      {
        kind: 'field',
        proto,
        deprecated: deprecated(proto),
        name: proto.name,
        number: proto.number,
        scalar: undefined,
        message: undefined,
        enum: undefined,
        presence: repeated ? PRESENCE.implicit : oneof || proto.proto3Optional || isMessage ? PRESENCE.explicit : PRESENCE.implicit,
        utf8Validation: true,
        listKind: undefined,
        mapKind: undefined,
        mapKey: undefined,
        delimitedEncoding: undefined,
        packed: undefined,
        longAsString: false,
        getDefaultValue: undefined,
        parent,
        oneof,
        localName: oneof ? camel(proto.name) : safe(camel(proto.name)),
        jsonName: proto.jsonName,
      },
      () => `field ${parent.typeName}.${proto.name}`,
    );
    const longAsString = proto.options?.jstype === JS_STRING;
    if (repeated) {
      const entry = proto.type === TYPE.message ? mapEntries.get(trimDot(proto.typeName)) : undefined;
      if (entry) {
        const key = entry.fields.find((f) => f.number === 1)!;
        const value = entry.fields.find((f) => f.number === 2)!;
        return Object.assign(field, { fieldKind: 'map', mapKey: key.scalar, mapKind: value.fieldKind, message: value.message, delimitedEncoding: false, enum: value.enum, scalar: value.scalar });
      }
      const packable = !isMessage && proto.type !== TYPE.string && proto.type !== TYPE.bytes;
      const options = proto.options;
      Object.assign(field, { fieldKind: 'list', packed: packable && (options && Object.hasOwn(options, 'packed') && options.packed !== undefined ? options.packed : true) });
      if (isMessage) return Object.assign(field, { listKind: 'message', message: type(proto), delimitedEncoding: false });
      if (proto.type === TYPE.enum) return Object.assign(field, { listKind: 'enum', enum: type(proto) });
      return Object.assign(field, { listKind: 'scalar', scalar: proto.type, longAsString });
    }
    // proto3 has no field defaults: every singular field's is its type's zero.
    field.getDefaultValue = () => undefined;
    if (isMessage) return Object.assign(field, { fieldKind: 'message', message: type(proto), delimitedEncoding: false });
    if (proto.type === TYPE.enum) return Object.assign(field, { fieldKind: 'enum', enum: type(proto) });
    return Object.assign(field, { fieldKind: 'scalar', scalar: proto.type, longAsString });
  };

  const addFields = (message: Message): void => {
    const oneofs = message.proto.oneofDecl.map((proto) =>
      named({ kind: 'oneof', proto, deprecated: false, parent: message, fields: [] as Desc[], name: proto.name, localName: safe(camel(proto.name)) }, function (this: Desc) {
        return `oneof ${message.typeName}.${String(this.name)}`;
      }),
    );
    const seen = new Set<Desc>();
    for (const proto of message.proto.field) {
      const oneof = Object.hasOwn(proto, 'oneofIndex') && !proto.proto3Optional ? (oneofs[proto.oneofIndex] ?? fail(`oneof #${proto.oneofIndex} of field #${proto.number} not found`)) : undefined;
      const field = newField(proto, message, oneof);
      message.fields.push(field);
      message.field[field.localName as string] = field;
      if (oneof === undefined) message.members.push(field);
      else {
        oneof.fields.push(field);
        if (!seen.has(oneof)) {
          seen.add(oneof);
          message.members.push(oneof);
        }
      }
    }
    message.oneofs.push(...oneofs.filter((o) => seen.has(o)));
    for (const child of message.nestedMessages) addFields(child);
  };

  for (const e of root.enumType) addEnum(e, undefined);
  for (const m of root.messageType) addMessage(m, undefined);
  for (const entry of mapEntries.values()) addFields(entry);
  for (const message of file.messages) addFields(message);
  const built = file as unknown as DescFile;
  return { getFile: (name) => (name === root.name ? built : undefined) };
}
