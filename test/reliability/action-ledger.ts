/**
 * Every outgoing action of a reliability run (a send, an edit, a reaction,
 * a token transfer), each with a unique tag that travels in what it writes
 * (message text `{s12}`, emoji id, transfer note), and how its promise
 * settled. The tag is what lets the emulator's state be checked per action:
 * stored once, applied once, or not at all.
 */
export type ActionKind = 'send' | 'update' | 'react' | 'transfer';

export type ActionOutcome = { status: 'pending' } | { status: 'ok'; value: unknown } | { status: 'error'; error: unknown };

export interface ActionRecord {
  kind: ActionKind;
  /** Unique in the run; written into what the action stores. */
  tag: string;
  /** Who acted (a user id). */
  actor: string;
  /** How many times its promise settled: exactly 1 once it is done. */
  settlements: number;
  outcome: ActionOutcome;
}

/**
 * The tags in a text written by {@link tagged}, in order. A message holds the
 * tag of the send that stored it first; an edit keeps that text and adds its
 * own tag last.
 */
export function tagsOf(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(/\{([a-z]+\d+)\}/g)].map((m) => m[1]!);
}

/** `text {tag}`: how a tag travels in message text. */
export function tagged(text: string, tag: string): string {
  return `${text} {${tag}}`;
}

export class ActionLedger {
  readonly actions: ActionRecord[] = [];
  private counter = 0;

  /** A new tag: a letter for readability (`s`end, `u`pdate, `r`eaction, `t`ransfer…) and a counter. */
  nextTag(prefix: string): string {
    this.counter += 1;
    return `${prefix}${this.counter}`;
  }

  /**
   * Runs one action and records how it settles. Never rejects: a rejection
   * is an outcome like any other, judged by the invariant checks.
   */
  track(kind: ActionKind, tag: string, actor: string, run: () => Promise<unknown>): Promise<void> {
    const record: ActionRecord = { kind, tag, actor, settlements: 0, outcome: { status: 'pending' } };
    this.actions.push(record);
    let promise: Promise<unknown>;
    try {
      promise = run();
    } catch (error) {
      // A synchronous throw is a settlement too (an API that should have rejected).
      promise = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return promise.then(
      (value) => {
        record.settlements += 1;
        record.outcome = { status: 'ok', value };
      },
      (error: unknown) => {
        record.settlements += 1;
        record.outcome = { status: 'error', error };
      },
    );
  }

  /** Actions whose promise has not settled yet. */
  pending(): ActionRecord[] {
    return this.actions.filter((a) => a.outcome.status === 'pending');
  }
}
