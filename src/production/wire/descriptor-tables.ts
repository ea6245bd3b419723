/**
 * The fields of a `FileDescriptorProto` the browser build reads (embedded-file.ts),
 * by field number, with what an unset one reads as: the reader reads only these,
 * and the build embeds only these (lean-descriptor.ts), so both keep to one list.
 */
export type Kind = 's' | 'i' | 'b' | Table;
/** Field number → [name, kind, repeated]. */
export interface Table {
  readonly fields: Readonly<Record<number, readonly [string, Kind, boolean?]>>;
  /** Unset fields read as these (on the prototype, so a registry can tell "set" from "unset"). */
  readonly defaults: Readonly<Record<string, unknown>>;
  /** Lists a registry reads besides the table's own, empty (it reads every list without a check). */
  readonly lists?: readonly string[];
}

const FIELD_OPTIONS: Table = { fields: { 2: ['packed', 'b'], 3: ['deprecated', 'b'], 6: ['jstype', 'i'] }, defaults: { packed: false, deprecated: false, jstype: 0 } };
const MESSAGE_OPTIONS: Table = { fields: { 3: ['deprecated', 'b'], 7: ['mapEntry', 'b'] }, defaults: { deprecated: false, mapEntry: false } };
const FIELD: Table = {
  fields: { 1: ['name', 's'], 2: ['extendee', 's'], 3: ['number', 'i'], 4: ['label', 'i'], 5: ['type', 'i'], 6: ['typeName', 's'], 7: ['defaultValue', 's'], 8: ['options', FIELD_OPTIONS], 9: ['oneofIndex', 'i'], 10: ['jsonName', 's'], 17: ['proto3Optional', 'b'] },
  defaults: { name: '', extendee: '', number: 0, label: 1, type: 1, typeName: '', defaultValue: '', oneofIndex: 0, jsonName: '', proto3Optional: false },
};
const ONEOF: Table = { fields: { 1: ['name', 's'] }, defaults: { name: '' } };
const ENUM_VALUE: Table = { fields: { 1: ['name', 's'], 2: ['number', 'i'] }, defaults: { name: '', number: 0 } };
const ENUM: Table = { fields: { 1: ['name', 's'], 2: ['value', ENUM_VALUE, true] }, defaults: { name: '', visibility: 0 } };
const MESSAGE: Table = {
  fields: {},
  defaults: { name: '', visibility: 0 },
};
Object.assign(MESSAGE.fields, { 1: ['name', 's'], 2: ['field', FIELD, true], 3: ['nestedType', MESSAGE, true], 4: ['enumType', ENUM, true], 6: ['extension', FIELD, true], 7: ['options', MESSAGE_OPTIONS], 8: ['oneofDecl', ONEOF, true] });
export const FILE: Table = {
  fields: { 1: ['name', 's'], 2: ['package', 's'], 3: ['dependency', 's', true], 4: ['messageType', MESSAGE, true], 5: ['enumType', ENUM, true], 7: ['extension', FIELD, true], 10: ['publicDependency', 'i', true], 12: ['syntax', 's'], 14: ['edition', 'i'] },
  defaults: { name: '', package: '', syntax: '', edition: 0 },
  lists: ['service'],
};
