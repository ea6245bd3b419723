/**
 * sdk-2.8.33 messages in era B's shapes, so one set of translators serves
 * every dialect. What differs in sdk-2.8.33: wrapped numbers and flags
 * (`Int32Value`, `BoolValue`: undefined when unset), times as `Timestamp`s
 * beside or instead of `*_seconds`, message parts and notification content
 * as text (the part readers take text as well as bytes), and
 * `create_time_second`. Ids are text in both.
 */

interface TimestampLike {
  seconds: bigint | number;
}

/** Timestamp field → the seconds field it becomes, when that one is unset. */
const TIME_FIELDS: Readonly<Record<string, string>> = {
  createTime: 'createTimeSeconds',
  updateTime: 'updateTimeSeconds',
  startTime: 'startTimeSeconds',
  endTime: 'endTimeSeconds',
};

/** Wrapped fields era B carries bare, by message, and their zero. */
const WRAPPED_ZERO: Readonly<Record<string, Readonly<Record<string, number | boolean>>>> = {
  'sdk_2_8_33.ChannelMessage': { code: 0 },
  'sdk_2_8_33.ChannelMessageAck': { code: 0, persistent: false },
  'sdk_2_8_33.ChannelCreatedEvent': { channelType: 0 },
  'sdk_2_8_33.ChannelUpdatedEvent': { channelType: 0 },
  'sdk_2_8_33.ChannelDescription': { type: 0 },
  'sdk_2_8_33.CreateEventRequest': { isPrivate: false },
};

const isTimestamp = (value: unknown): value is TimestampLike => typeof value === 'object' && value !== null && (value as { $typeName?: unknown }).$typeName === 'google.protobuf.Timestamp';

/** A decoded sdk-2.8.33 message (and the messages inside it) reshaped in place as era B has it; returned for chaining. */
export function eraAToEraB<T>(message: T): T {
  if (typeof message !== 'object' || message === null) return message;
  const record = message as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (isTimestamp(value)) {
      const target = TIME_FIELDS[key];
      if (target !== undefined && !record[target]) record[target] = Number(value.seconds);
      continue;
    }
    if (Array.isArray(value)) {
      for (const item of value) eraAToEraB(item);
      continue;
    }
    if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array)) eraAToEraB(value);
  }
  const wrapped = WRAPPED_ZERO[String(record.$typeName)];
  if (wrapped) for (const [key, zero] of Object.entries(wrapped)) if (record[key] === undefined) record[key] = zero;
  if ('createTimeSecond' in record && !record.createTimeSeconds) record.createTimeSeconds = record.createTimeSecond;
  // A hashtag names its channel `channelid` in sdk-2.8.33's content, `channelId` later (as clanstream has it).
  if (record.$typeName === 'sdk_2_8_33.ChannelMessage' && typeof record.content === 'string' && record.content.includes('"channelid"')) {
    record.content = record.content.replace(/"channelid"(\s*:)/g, '"channelId"$1');
  }
  // Notification content is text in sdk-2.8.33, bytes later.
  if (record.$typeName === 'sdk_2_8_33.Notification' && typeof record.content === 'string') record.content = new TextEncoder().encode(record.content);
  return message;
}
