/**
 * The console loads no file from outside the emulator (it works offline and
 * calls nowhere): images served by the emulator or inline (`data:`) are
 * shown, others become links a person may follow.
 */
export function isLocalMedia(url: string): boolean {
  try {
    const parsed = new URL(url, location.href);
    return parsed.origin === location.origin || parsed.protocol === 'data:' || parsed.protocol === 'blob:';
  } catch {
    return false;
  }
}

/** "#rrggbb" from an embed's colour, given as a string or a number. */
export function cssColor(color: string | number | undefined): string | undefined {
  if (typeof color === 'number' && Number.isInteger(color) && color >= 0) return `#${color.toString(16).padStart(6, '0').slice(-6)}`;
  if (typeof color === 'string' && /^#?[0-9a-f]{3,8}$/i.test(color)) return color.startsWith('#') ? color : `#${color}`;
  return undefined;
}
