import { ProtocolError } from '../errors/protocol-error.js';

/** A field the answer may leave out (or send as `null`). */
class Optional {
  constructor(readonly shape: AnswerShape) {}
}

/**
 * What an answer must look like: a primitive type by name (`'object'` is any
 * object), an object whose listed fields are checked (others are let
 * through), a one-element array for a list of that shape, or {@link optional}.
 */
export type AnswerShape = 'string' | 'number' | 'boolean' | 'object' | Optional | readonly [AnswerShape] | { readonly [field: string]: AnswerShape };

/** A list whose every item has the shape. */
export const list = (shape: AnswerShape): readonly [AnswerShape] => [shape];

/** A field that may be absent or `null`; when present it must have the shape. */
export const optional = (shape: AnswerShape): Optional => new Optional(shape);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === '') return 'empty';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What is wrong with `value` at `path`, or undefined when it has the shape. */
function problem(value: unknown, shape: AnswerShape, path: string): string | undefined {
  if (shape instanceof Optional) return value === undefined || value === null ? undefined : problem(value, shape.shape, path);
  // Each problem continues "the answer": "'s clans[2].clan_id is a number…", " is a list…", " has no clans".
  const at = path ? `'s ${path}` : '';
  if (value === undefined) return ` has no ${path}`;
  if (typeof shape === 'string') {
    const ok = shape === 'object' ? typeof value === 'object' && value !== null && !Array.isArray(value) : typeof value === shape && (shape !== 'number' || Number.isFinite(value));
    return ok ? undefined : `${at} is ${kindOf(value)}, not ${shape === 'object' ? 'an object' : `a ${shape}`}`;
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return `${at} is ${kindOf(value)}, not a list`;
    for (let i = 0; i < value.length; i += 1) {
      const found = problem(value[i], shape[0] as AnswerShape, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} is ${kindOf(value)}, not an object`;
  for (const [field, inner] of Object.entries(shape as Record<string, AnswerShape>)) {
    // Own fields only: a field named like an Object.prototype member must not be found on the prototype.
    const found = problem(Object.hasOwn(value, field) ? (value as Record<string, unknown>)[field] : undefined, inner, path ? `${path}.${field}` : field);
    if (found) return found;
  }
  return undefined;
}

/**
 * The one check every answer the client reads goes through: returns the
 * answer when it has the route's shape, else throws a ProtocolError naming
 * the route and the first field that is missing or of the wrong type. A
 * wrong answer never reaches a caller, a cache or a TypeError.
 */
export function checkAnswer<T>(route: string, shape: AnswerShape, answer: unknown): T {
  const found = problem(answer, shape, '');
  if (found === undefined) return answer as T;
  let excerpt: string;
  try {
    excerpt = typeof answer === 'string' ? answer : (JSON.stringify(answer) ?? '');
  } catch {
    excerpt = '';
  }
  throw new ProtocolError(`${route}: the answer${found}`, excerpt.slice(0, 300));
}
