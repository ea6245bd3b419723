/** An injected HTTP failure: the next `count` matching requests get `status`. */
export interface HttpFault {
  status: number;
  /** How many requests to fail (default 1). */
  count?: number;
  /** Only requests whose path starts with this (default: every path). */
  pathPrefix?: string;
  /** Sent as `Retry-After` (seconds) with the failure, typically with 429. */
  retryAfterSeconds?: number;
}

/** A queue of injected failures, consumed by matching requests in order. */
export class HttpFaults {
  private readonly queue: Array<Required<Omit<HttpFault, 'retryAfterSeconds'>> & { retryAfterSeconds?: number }> = [];

  add(fault: HttpFault): void {
    this.queue.push({ count: 1, pathPrefix: '/', ...fault });
  }

  /** The fault for a request, if one is queued for its path. */
  take(path: string): { status: number; retryAfterSeconds?: number } | undefined {
    const index = this.queue.findIndex((f) => path.startsWith(f.pathPrefix));
    if (index < 0) return undefined;
    const fault = this.queue[index]!;
    fault.count -= 1;
    if (fault.count <= 0) this.queue.splice(index, 1);
    return fault.retryAfterSeconds === undefined ? { status: fault.status } : { status: fault.status, retryAfterSeconds: fault.retryAfterSeconds };
  }

  clear(): void {
    this.queue.length = 0;
  }
}
