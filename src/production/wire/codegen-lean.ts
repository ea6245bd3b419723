/**
 * What the generated schemas import from `@bufbuild/protobuf/codegenv2`, for
 * the browser build of `clanstream/production`: the same functions, with
 * `fileDesc` built on the wire reader (embedded-file.ts) instead of
 * protobuf-es's descriptor.proto schema. The Node builds use protobuf-es's own.
 */
export { enumDesc, messageDesc } from '@bufbuild/protobuf/codegenv2';
export type { GenEnum, GenFile, GenMessage } from '@bufbuild/protobuf/codegenv2';
export { fileDesc } from './embedded-file.js';
