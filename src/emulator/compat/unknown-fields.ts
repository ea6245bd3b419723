import { isMessage, type Message } from '@bufbuild/protobuf';

/** How deep the search follows nested messages (the served requests nest a few levels; a hostile frame may nest many). */
const MAX_DEPTH = 16;

/** Where a request carries a field its schema does not know. */
export interface UnknownField {
  /** The message holding it: `channel_message_send.mentions[0]`, or "the request". */
  readonly path: string;
  readonly field: number;
}

/** A request refused for a field its schema does not know (production's UNRECOGNIZED_PAYLOAD). */
export class UnknownFieldError extends Error {
  constructor(readonly unknown: UnknownField) {
    super(`${unknown.path} has field ${unknown.field}, which the served schema does not know`);
    this.name = 'UnknownFieldError';
  }
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The first field a decoded request carries that its schema does not declare
 * (protobuf-es keeps such fields aside in `$unknown`), or undefined. A request
 * with one is refused rather than half-read (docs/COMPAT.md): the world would
 * otherwise act on less than the client asked for.
 */
export function unknownField(message: Message, path = 'the request', depth = 0): UnknownField | undefined {
  const unknown = message.$unknown;
  if (unknown && unknown.length > 0) return { path, field: unknown[0]!.no };
  if (depth >= MAX_DEPTH) return undefined;
  for (const [key, value] of Object.entries(message)) {
    if (key.startsWith('$')) continue;
    // The root's fields are named by themselves (`ping`, `mentions[0]`), deeper ones by their path.
    const found = within(value, depth === 0 ? snake(key) : `${path}.${snake(key)}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The same search in a field's value: a message, a list or map of messages, or a oneof (`{ case, value }`). */
function within(value: unknown, path: string, depth: number): UnknownField | undefined {
  if (isMessage(value)) return unknownField(value, path, depth);
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return undefined;
  if (Array.isArray(value)) {
    for (const [i, element] of value.entries()) {
      const found = isMessage(element) ? unknownField(element, `${path}[${i}]`, depth) : undefined;
      if (found) return found;
    }
    return undefined;
  }
  const oneof = value as { case?: unknown; value?: unknown };
  if (typeof oneof.case === 'string') {
    const at = path.includes('.') ? `${path.slice(0, path.lastIndexOf('.'))}.${snake(oneof.case)}` : snake(oneof.case);
    return isMessage(oneof.value) ? unknownField(oneof.value, at, depth) : undefined;
  }
  for (const [key, element] of Object.entries(value)) {
    const found = isMessage(element) ? unknownField(element, `${path}[${key}]`, depth) : undefined;
    if (found) return found;
  }
  return undefined;
}
