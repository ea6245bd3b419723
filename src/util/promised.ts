/**
 * Runs `start` and returns its promise; a synchronous throw (invalid input,
 * say) becomes the promise's rejection, so a promise-returning method never
 * throws at its caller.
 */
export function promised<T>(start: () => PromiseLike<T> | T): Promise<T> {
  try {
    return Promise.resolve(start());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
