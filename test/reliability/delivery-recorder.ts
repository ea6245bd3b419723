/**
 * Records the two sides of the event invariant on one clock (a counter both
 * sides advance synchronously, so their entries interleave as they happened):
 * what the emulator pushed to a user's gateway sessions (`emu.onEvent`), and
 * what a client delivered to its subscribers (`events$`, with the session it
 * arrived on) and its lifecycle events.
 */
import type { Subscription } from 'rxjs';
import type { ServiceClient } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import type { ClientEntry, DeliveryLog, EmittedEvent } from './event-delivery.js';

export class DeliveryRecorder {
  readonly emitted: EmittedEvent[] = [];
  readonly client: ClientEntry[] = [];
  private tick = 0;
  private readonly stops: Array<() => void> = [];

  /** Records every event the emulator pushes to a session of `userId`. */
  watchEmulator(emu: Emulator, userId: string): void {
    this.stops.push(
      emu.onEvent((type, payload, deliveries) => {
        const mine = deliveries.filter((d) => d.userId === userId);
        if (mine.length === 0) return;
        const tick = ++this.tick;
        // A copy as it went on the wire: the emulator may change its records later (edits, reactions).
        const wire: unknown = JSON.parse(JSON.stringify(payload));
        for (const d of mine) this.emitted.push({ tick, sessionId: d.sessionId, seq: d.seq, type, payload: wire });
      }),
    );
  }

  /** Records what a client delivers; subscribe before `login()`. */
  watchClient(client: ServiceClient): void {
    const subscriptions: Subscription[] = [
      client.events$.subscribe((event) => {
        this.client.push({ tick: ++this.tick, kind: 'event', sessionId: sessionOf(client), seq: event.seq, type: event.type, data: event.data });
      }),
      client.lifecycle$.subscribe((event) => this.client.push({ tick: ++this.tick, kind: 'lifecycle', event })),
    ];
    this.stops.push(() => subscriptions.forEach((s) => s.unsubscribe()));
  }

  /** The log, with the session the client is on now. */
  log(finalSessionId: string | undefined): DeliveryLog {
    return { emitted: this.emitted, client: this.client, finalSessionId };
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }
}

/** The gateway session an event arrives on: set from the `ready` reply, before any event of that session. */
function sessionOf(client: ServiceClient): string | undefined {
  try {
    return client.gateway.currentSessionId;
  } catch {
    return undefined;
  }
}
