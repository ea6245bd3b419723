import type { Message } from '@bufbuild/protobuf';

/** How deep the search follows nested messages (the served requests nest 4 levels at most). */
const MAX_DEPTH = 32;

const isMessage = (value: unknown): value is Message => typeof value === 'object' && value !== null && typeof (value as { $typeName?: unknown }).$typeName === 'string';

/**
 * Where a decoded request carries a field its schema does not know (the
 * decoder keeps such fields aside, in `$unknown`): the path of the message
 * holding it (`ping`, `channel_message_send.mentions[0]`, or "the envelope")
 * and the field's number, or undefined when every field is known. A request
 * with an unknown field is refused, not half-read (docs/COMPAT.md).
 */
export function unknownField(message: Message, path = 'the envelope', depth = 0): { path: string; field: number } | undefined {
  const unknown = message.$unknown;
  if (unknown && unknown.length > 0) return { path, field: unknown[0]!.no };
  if (depth >= MAX_DEPTH) return undefined;
  const at = (key: string) => (path === 'the envelope' ? snake(key) : `${path}.${snake(key)}`);
  for (const [key, value] of Object.entries(message)) {
    if (key.startsWith('$')) continue;
    const found = within(value, at(key), depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The same search in a field's value: a message, a list or map of messages, or a oneof (`{ case, value }`). */
function within(value: unknown, path: string, depth: number): { path: string; field: number } | undefined {
  if (isMessage(value)) return unknownField(value, path, depth);
  if (Array.isArray(value)) {
    for (const [i, element] of value.entries()) {
      const found = isMessage(element) ? unknownField(element, `${path}[${i}]`, depth) : undefined;
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return undefined;
  const oneof = value as { case?: unknown; value?: unknown };
  if (typeof oneof.case === 'string') return isMessage(oneof.value) ? unknownField(oneof.value, path.replace(/[^.]+$/, snake(oneof.case)), depth) : undefined;
  for (const [key, element] of Object.entries(value)) {
    const found = isMessage(element) ? unknownField(element, `${path}[${key}]`, depth) : undefined;
    if (found) return found;
  }
  return undefined;
}

const snake = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
