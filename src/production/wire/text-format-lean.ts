/**
 * What protobuf-es's registry imports from its text-format module, for the
 * browser build of `clanstream/production`: that module parses a field's
 * proto2 `[default = …]`, and the production schemas are proto3, which has
 * none (test/production/embedded-file.test.ts checks). Reaching this would
 * mean a schema changed: it fails loudly rather than guess a default.
 */
function noDefaults(): never {
  throw new Error('the production schemas are proto3 and have no field defaults to parse');
}

export { noDefaults as parseTextFormatEnumValue, noDefaults as parseTextFormatScalarValue };
