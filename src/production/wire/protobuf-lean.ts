/**
 * What the production wire's codec imports from `@bufbuild/protobuf`, for the
 * browser build of `clanstream/production`: the same `create` and
 * `fromBinary`, and a `toBinary` of a few lines (lean-to-binary.ts) in place of
 * protobuf-es's compiled writers. The Node builds use protobuf-es's own.
 */
export { create, fromBinary } from '@bufbuild/protobuf';
export type { DescMessage, MessageInitShape, MessageShape } from '@bufbuild/protobuf';
export { toBinary } from './lean-to-binary.js';
