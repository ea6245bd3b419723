/**
 * Fixes an error class's name, so that `error.name` (which
 * {@link ClanstreamError} takes from the class) reads `RateLimitError` in a
 * minified bundle too. The browser bundle is minified without esbuild's
 * `keepNames`, which would wrap every function of the bundle to keep the
 * handful of names users read.
 */
export function nameErrorClass(errorClass: { readonly prototype: Error }, name: string): void {
  // The same attributes as a class's own `name`: read-only, not enumerable.
  Object.defineProperty(errorClass, 'name', { value: name, configurable: true });
}
