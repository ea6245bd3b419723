/**
 * The structural side of the memory plateau (the heap itself is measured by
 * bench/memory.bench.ts over 1,000,000 events): 200,000 messages from 60,000
 * senders over 3,000 channels of a cached clan, skewed, through the Store and
 * the default InMemoryMessageStore with their default limits. Every structure
 * they keep (the state's collections, the clan's members learned from the
 * messages, each recency order and its slot arrays, the message store's
 * queue and index) stops growing once the limits are reached.
 */
import { describe, expect, it } from 'vitest';
import { CACHE_LIMITS, InMemoryMessageStore } from '../../src/index.js';
import { mulberry32 } from '../support/prng.js';
import { CLAN, clanDesc, messageEvent, newStore } from './fixtures.js';

const EVENTS = 200_000;

/** Sizes of everything the store and the message store hold, internals included. */
function sizes(store: ReturnType<typeof newStore>['store'], messages: InMemoryMessageStore) {
  const internals = <T>(value: unknown) => value as T;
  const recency = store.recency;
  const slots = (order: unknown) => internals<{ slots: { keys: unknown[] }; prev: Int32Array }>(order);
  const queue = internals<{ queue: unknown[]; index: Map<string, number> }>(messages);
  const learned = internals<{ clanIds: unknown[] }>(recency.members);
  const { state } = store;
  return {
    users: state.users.size,
    members: state.members.get(CLAN)?.size ?? 0,
    learnedNoted: learned.clanIds.length,
    channels: state.channels.size,
    windows: state.messages.size,
    messages: state.messageCount,
    store: messages.size,
    usersOrder: recency.users.size,
    channelsOrder: recency.channels.size,
    windowsOrder: recency.windows.size,
    userSlots: slots(recency.users).slots.keys.length,
    userLinks: slots(recency.users).prev.length,
    channelSlots: slots(recency.channels).slots.keys.length,
    storeQueue: queue.queue.length,
    storeIndex: queue.index.size,
  };
}

/** 200,000 events of CPU work: a few seconds on a quiet machine, many times that on a loaded 2-core one. It is the work, not a wait. */
const PLATEAU_TIMEOUT_MS = 300_000;

describe('the caches plateau', () => {
  it('stop growing once their limits are reached, internals included', { timeout: PLATEAU_TIMEOUT_MS }, () => {
    const { store } = newStore();
    // The clan is cached (its member list is not loaded): every sender becomes one of its members.
    store.dispatch({ type: 'sync/clans', clans: [clanDesc(CLAN)] });
    const messages = new InMemoryMessageStore(CACHE_LIMITS.messageStore);
    const random = mulberry32(0x91a7);
    // Skewed: the square of a uniform draw favours low ranks (a few busy channels and senders, a long tail).
    const pick = (n: number) => Math.floor(random() ** 2 * n);
    const samples: Array<ReturnType<typeof sizes>> = [];
    for (let i = 1; i <= EVENTS; i += 1) {
      const sender = `u${pick(60_000)}`;
      const event = messageEvent({ message_id: String(1_000_000 + i), channel_id: `c${pick(3_000)}`, sender_id: sender, username: sender, create_time_seconds: i });
      store.dispatch(event);
      messages.put(event.data);
      // A bot reads back now and then: the message store's index is built and kept up too.
      if (i % 1_000 === 0) messages.get(event.data.channel_id, event.data.message_id);
      if (i % 50_000 === 0) samples.push(sizes(store, messages));
    }
    const [, , third, last] = samples;
    expect(last!.users).toBe(CACHE_LIMITS.users);
    // Members learned from messages: at most as many as users are cached; their queue within twice that.
    expect(last!.members).toBe(CACHE_LIMITS.users);
    expect(last!.learnedNoted).toBeLessThanOrEqual(2 * CACHE_LIMITS.users);
    // Whole windows go when the total runs over, so the total sits at or a little under its limit.
    for (const sample of samples.slice(1)) expect(sample.messages).toBeLessThanOrEqual(CACHE_LIMITS.messages);
    expect(last!.messages).toBeGreaterThan(CACHE_LIMITS.messages - CACHE_LIMITS.messagesPerChannel);
    expect(last!.store).toBe(CACHE_LIMITS.messageStore);
    // Recency orders hold what their caches hold (stale keys are dropped past a bound).
    expect(last!.usersOrder).toBeLessThanOrEqual(2 * last!.users + 1_024);
    expect(last!.windowsOrder).toBeLessThanOrEqual(2 * last!.windows + 1_024);
    // Slots are reused, the message store's passed front is dropped, its index rebuilt past a bound.
    expect(last!.userSlots).toBeLessThanOrEqual(last!.usersOrder + 1_024);
    expect(last!.storeQueue).toBeLessThanOrEqual(2 * CACHE_LIMITS.messageStore + 1);
    expect(last!.storeIndex).toBeLessThanOrEqual(2 * CACHE_LIMITS.messageStore + 1_024);
    // And nothing grew between the last two samples beyond what the bounds above allow.
    for (const key of ['users', 'members', 'store', 'userLinks'] as const) expect(last![key], key).toBe(third![key]);
  });
});
