/**
 * What a bare test socket received, and waiting for one item of it: the
 * first that matches, from the start, or a rejection when the socket closes
 * first or nothing matching comes in time.
 */
export class Arrivals<T> {
  readonly items: T[] = [];
  closed: { code: number; reason: string } | undefined;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly describe: (item: T) => string) {}

  add(item: T): void {
    this.items.push(item);
    this.wake();
  }

  close(code: number, reason: string): void {
    this.closed = { code, reason };
    this.wake();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  next(predicate: (item: T) => boolean, timeoutMs = 5000): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.items.find(predicate);
        if (!found && !this.closed) return false;
        this.waiters.delete(check);
        clearTimeout(timer);
        if (found) resolve(found);
        else reject(new Error(`the socket closed (${this.closed?.code} ${this.closed?.reason}) before the awaited item`));
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`nothing awaited arrived; received: ${this.items.map(this.describe).join(', ')}`));
      }, timeoutMs);
      if (!check()) this.waiters.add(check);
    });
  }
}
