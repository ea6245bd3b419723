/**
 * A host whose clock is 3 h ahead of the server's receives access tokens
 * (1 h lifetime) that have expired by its own clock before they arrive. It
 * used to refresh and move its socket onto each new token ~450 times a
 * second, silently. Now it reports the skew once on errors$ (a typed
 * ClockSkewError), renews on the token's own lifetime, and keeps working.
 */
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { ClockSkewError } from '../../src/index.js';
import { until } from '../helpers/client.js';
import { sleep, Tracker } from './support.js';

const t = new Tracker();
afterEach(() => t.cleanup());

const SKEW_MS = 3 * 3_600_000;

/** Real timers, and a clock 3 h ahead: what a client on a badly set host sees. */
const aheadBy = (ms: number): SchedulerLike => ({ now: () => Date.now() + ms, schedule: asyncScheduler.schedule.bind(asyncScheduler) });

describe('a host clock ahead of the server by more than a token lifetime', () => {
  it('reports the skew once on errors$, renews without a loop, and keeps sending and receiving', async () => {
    const w = await t.world();
    const { client, errors, received } = await t.connected(w, { scheduler: aheadBy(SKEW_MS) });
    await until(() => errors.some((e) => e instanceof ClockSkewError), 'the clock skew to be reported');
    // Not a timing assertion: a loop renews hundreds of times in this second; a slower machine renews less, not more.
    await sleep(1000);
    const renewals = w.emu.wire.requests('/v2/account/session/refresh').length + w.emu.wire.requests('/v2/apps/authenticate/token').length;
    expect(renewals).toBeLessThanOrEqual(3);
    expect(w.emu.wire.frames('token_refresh').length).toBeLessThanOrEqual(2);

    const skews = errors.filter((e): e is ClockSkewError => e instanceof ClockSkewError);
    expect(skews).toHaveLength(1);
    expect(skews[0]!.exact).toBe(true);
    // About 3 h (the token's issue time is whole seconds, and the request took a moment).
    expect(Math.abs(skews[0]!.skewMs - SKEW_MS)).toBeLessThan(60_000);
    expect(skews[0]!.message).toMatch(/this host's clock is about 180 min ahead of the server's/);
    expect(errors.filter((e) => !(e instanceof ClockSkewError))).toEqual([]);

    // Still working: a send is stored, and an event arrives.
    const sent = await client.sendMessage(w.general, 'still here');
    expect(w.emu.messages(w.general).map((m) => m.message_id)).toContain(sent.message_id);
    w.emu.as(w.alice.id).send(w.general, 'hello bot');
    await until(() => received.some((m) => m.content.t === 'hello bot'), 'the message from alice');
    expect(client.status).toBe('ready');
  });
});
