/** How a hostile value is shown in a message: short, and never more than a number's worth of text. */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value);
  if (typeof value === 'number') return String(value);
  return value === null ? 'null' : typeof value;
}
