/**
 * Records unhandled promise rejections and uncaught exceptions while a
 * reliability run is on. The library promises that failures are values
 * (typed errors on promises or `errors$`), never crashes: each one recorded
 * here is an invariant violation.
 */
export class ProcessFaultRecorder {
  readonly faults: string[] = [];
  private readonly onRejection = (reason: unknown) => this.faults.push(`unhandled rejection: ${describe(reason)}`);
  private readonly onException = (error: unknown) => this.faults.push(`uncaught exception: ${describe(error)}`);
  private installed = false;

  /** Starts listening; returns a function that stops. */
  install(): () => void {
    if (!this.installed) {
      this.installed = true;
      process.on('unhandledRejection', this.onRejection);
      process.on('uncaughtException', this.onException);
    }
    return () => this.uninstall();
  }

  uninstall(): void {
    if (!this.installed) return;
    this.installed = false;
    process.off('unhandledRejection', this.onRejection);
    process.off('uncaughtException', this.onException);
  }
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}${value.stack ? `\n${value.stack.split('\n').slice(1, 6).join('\n')}` : ''}`;
  return String(value);
}
