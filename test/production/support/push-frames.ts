/**
 * Push frames of every dialect for one clanstream event. sdk-2.8.33's come
 * from the emulator's own production front end (src/emulator/compat/pushes.ts,
 * checked against the official SDK in test/compat); the later dialects' are
 * the same message carried over by name into their schemas: through
 * protobuf JSON, with what the eras changed applied (parts and notification
 * content as bytes, times as `*_seconds`, `create_time_second` renamed), so
 * the same values travel in each dialect's own wire types.
 */
import { create, fromJson, toBinary, toJson, ScalarType, type DescMessage, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { translate } from '../../../src/emulator/compat/pushes.js';
import { SERVED_DIALECTS } from '../../../src/emulator/compat/served-dialects.js';
import type { World } from '../../../src/emulator/world/world.js';
import type { EventPayloadMap, Events } from '../../../src/index.js';
import { DIALECTS, SDK_2_8_33, type Dialect, type DialectName } from '../../../src/production/wire/dialects.js';

/** What the compat translators look up in a world: nothing, here. */
const NO_WORLD = { clans: new Map(), users: new Map() } as unknown as World;

const dialect = (name: DialectName): Dialect => DIALECTS.find((d) => d.name === name)!;

function caseSchema(d: Dialect, name: string): DescMessage {
  const field = d.envelope.fields.find((f) => f.localName === name);
  if (field?.fieldKind !== 'message') throw new Error(`${d.name} has no envelope case ${name}`);
  return field.message;
}

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const seconds = (rfc3339: JsonValue | undefined): number => (typeof rfc3339 === 'string' ? Math.floor(Date.parse(rfc3339) / 1000) : 0);

/** sdk-2.8.33 JSON → the JSON of `schema`, a later era's message of the same name. */
function carry(json: JsonObject, schema: DescMessage): JsonObject {
  const out: JsonObject = {};
  for (const field of schema.fields) {
    const name = field.name;
    let value: JsonValue | undefined = json[name];
    if (value === undefined && name.endsWith('_seconds')) {
      const stem = name.slice(0, -'_seconds'.length);
      value = json[`${stem}_second`] ?? (json[stem] !== undefined ? seconds(json[stem]) : undefined);
    }
    if (value === undefined || value === null) continue;
    if (field.fieldKind === 'scalar' && field.scalar === ScalarType.BYTES && typeof value === 'string') value = base64(value);
    if (field.fieldKind === 'scalar' && field.longAsString && value === '') continue;
    if (field.fieldKind === 'message' && typeof value === 'object' && !Array.isArray(value) && !field.message.typeName.startsWith('google.')) value = carry(value, field.message);
    if (field.fieldKind === 'list' && field.listKind === 'message' && Array.isArray(value)) value = value.map((item) => carry(item as JsonObject, field.message));
    if (field.fieldKind === 'list' && field.listKind === 'scalar' && Array.isArray(value)) value = value.filter((item) => item !== '');
    out[name] = value;
  }
  return out;
}

/** The push of `type` in `name`'s wire; `extra` sets fields only a later era has (JSON names). */
export function pushFrame<K extends Events>(name: DialectName, type: K, payload: EventPayloadMap[K], extra: JsonObject = {}): Uint8Array {
  const message = translate(type, payload, NO_WORLD, SERVED_DIALECTS['sdk-2.8.33']) as { case: string; value: unknown };
  if (name === 'sdk-2.8.33') return toBinary(SDK_2_8_33.envelope, create(SDK_2_8_33.envelope, { message } as never));
  const d = dialect(name);
  const aSchema = caseSchema(SDK_2_8_33, message.case);
  const json = toJson(aSchema, create(aSchema, message.value as never), { useProtoFieldName: true }) as JsonObject;
  const schema = caseSchema(d, message.case);
  const value = fromJson(schema, { ...carry(json, schema), ...extra });
  return toBinary(d.envelope, create(d.envelope, { message: { case: message.case, value } }));
}
