/**
 * A property: whatever sequence of hostile frames a server sends (garbage,
 * wrong types, handshakes again, huge and absurd numbers, echoed secrets,
 * malformed or refused acknowledgements, abrupt closes), a logged-in client
 * throws nothing synchronously, leaves no rejection unhandled, settles every
 * operation it was asked for, shows no secret in anything it outputs, and
 * holds a bounded number of things. HOSTILE_RUNS raises the number of runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServiceClient, type LifecycleEvent } from '../../src/index.js';
import { trackUnhandledRejections } from '../helpers/property.js';
import { LeakScanner, recordingLogger } from '../security/leak-scan.js';
import { HOSTILE_BOT, HostilePlatform, type ClientFrame, type FakeSocket } from '../support/hostile-platform.js';
import { sleep } from './support.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 12);
const CHANNEL = '1860000000000000001';

/** Text standing for a secret in a generated frame; replaced by the real one when sent. */
const KEY = '{API_KEY}';
const TOKEN = '{SESSION_TOKEN}';

/** One thing the hostile server does. */
type Step =
  | { kind: 'text'; text: string }
  | { kind: 'json'; value: unknown }
  | { kind: 'close'; code: number; reason: string }
  | { kind: 'terminate' }
  | { kind: 'pause'; ms: number };

/** How the server answers each send of the client. */
type AckStyle = 'ok' | 'malformed' | 'error' | 'rate_limited' | 'silent' | 'secret';

const absurdNumber = fc.constantFrom<unknown>(0, -1, 1e-9, 1e12, 1e15, 2 ** 53, Number.MAX_SAFE_INTEGER, 'soon', null, '12', [], {});
const secretText = fc.constantFrom(`key ${KEY}`, `Bearer ${TOKEN}`, `token=${TOKEN}`, `${KEY}:${TOKEN}`, 'plain words');
const eventName = fc.constantFrom('channel_message', 'message_reaction_event', 'add_clan_user_event', 'user_clan_removed_event', 'made_up_event', '__proto__');

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('text' as const), text: fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('{', '[]', 'null', '{"seq":1}', '{"cid":"1"}', `{"x":"${KEY}"`)) }),
  fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }),
  // Handshake frames again.
  fc.record({ kind: fc.constant('json' as const), value: fc.record({ hello: fc.record({ protocol: fc.constant(1), heartbeat_interval_ms: absurdNumber }) }) }),
  fc.record({ kind: fc.constant('json' as const), value: fc.record({ cid: fc.constantFrom('1', '999', 'x'), ready: fc.record({ session_id: fc.constantFrom('S9', TOKEN), user_id: fc.constant('u'), seq: absurdNumber }) }) }),
  // Events with any seq, payloads of any shape, secrets inside.
  fc.record({
    kind: fc.constant('json' as const),
    value: fc.tuple(fc.oneof(fc.integer({ min: -2, max: 40 }), absurdNumber), eventName, fc.oneof(fc.jsonValue({ maxDepth: 2 }), secretText.map((t) => ({ message_id: 'm', channel_id: CHANNEL, clan_id: 'K', sender_id: 'u', content: { t } })))).map(([seq, name, data]) => ({ seq, session_id: 'S0', [name]: data })),
  }),
  // Error frames, with and without a cid, echoing secrets.
  fc.record({ kind: fc.constant('json' as const), value: fc.record({ error: fc.record({ code: fc.constantFrom('internal', 'rate_limited', 'forbidden', 7), message: secretText, retry_after_ms: absurdNumber }) }) }),
  fc.record({ kind: fc.constant('close' as const), code: fc.constantFrom(1000, 1001, 1011, 4000, 4001, 4003, 4004, 4005, 4009, 4010, 4999), reason: secretText }),
  fc.record({ kind: fc.constant('terminate' as const) }),
  fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 0, max: 30 }) }),
);

const scenario = fc.record({
  steps: fc.array(step, { minLength: 1, maxLength: 25 }),
  acks: fc.array(fc.constantFrom<AckStyle>('ok', 'malformed', 'error', 'rate_limited', 'silent', 'secret'), { minLength: 1, maxLength: 6 }),
  sends: fc.integer({ min: 0, max: 4 }),
});

const unhandled = trackUnhandledRejections();

describe('a client driven by random hostile frames', () => {
  it('throws nothing, leaves nothing unhandled, settles everything, leaks no secret and stays bounded', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ steps, acks, sends }) => {
        unhandled.reset();
        let sessionToken = '';
        const fill = (text: string) => text.split(KEY).join(HOSTILE_BOT.token).split(TOKEN).join(sessionToken);
        const play = async (socket: FakeSocket, from: number): Promise<void> => {
          for (let i = from; i < steps.length; i += 1) {
            const s = steps[i]!;
            if (s.kind === 'pause') await sleep(s.ms);
            else if (s.kind === 'text') socket.send(fill(s.text));
            else if (s.kind === 'json') socket.send(fill(JSON.stringify(s.value)));
            else {
              if (s.kind === 'close') socket.close(s.code, fill(s.reason));
              else socket.ws.terminate();
              played = i + 1;
              return;
            }
          }
          played = steps.length;
        };
        let played = 0;
        let ackIndex = 0;
        const platform = await HostilePlatform.start({
          gateway: {
            onFrame: (socket, frame: ClientFrame, op) => {
              if (op === 'start') {
                platform.answer(socket, frame, op);
                // The first socket plays the script from the start; later ones go on where the last one was closed.
                void play(socket, played);
                return true;
              }
              if (op !== 'channel_message_send') return false;
              const style = acks[ackIndex++ % acks.length]!;
              const payload = frame.channel_message_send as { channel_id?: string };
              if (style === 'ok') return false;
              if (style === 'silent') return true;
              if (style === 'malformed') socket.reply(frame, 'channel_message_ack', { message_id: 7, channel_id: payload.channel_id });
              else if (style === 'rate_limited') socket.reply(frame, 'error', { code: 'rate_limited', message: 'slow', retry_after_ms: 1e12 });
              else socket.reply(frame, 'error', { code: 'forbidden', message: fill(style === 'secret' ? `no, ${KEY} / ${TOKEN}` : 'no') });
              return true;
            },
          },
        });
        const scanner = new LeakScanner();
        scanner.apiKey('API key', HOSTILE_BOT.token);
        const logger = recordingLogger(scanner, 'client');
        const client = new ServiceClient({
          ...platform.config,
          logger,
          reconnect: { baseMs: 5, capMs: 20, loginAttempts: 3 },
          apiRetry: { retries: 1, baseMs: 5, capMs: 10 },
          requestTimeoutMs: 400,
          outbox: { maxWaitMs: 400 },
        });
        const errors: unknown[] = [];
        const lifecycle: LifecycleEvent[] = [];
        client.errors$.subscribe((error) => errors.push(error));
        client.lifecycle$.subscribe((event) => lifecycle.push(event));
        const outcomes: Array<Promise<string>> = [];
        const track = (operation: () => Promise<unknown>) => {
          let promise: Promise<unknown>;
          try {
            promise = operation();
          } catch (error) {
            outcomes.push(Promise.resolve(`threw synchronously: ${String(error)}`));
            return;
          }
          outcomes.push(
            promise.then(
              () => 'resolved',
              (error: unknown) => {
                scanner.value('a rejection', error);
                return 'rejected';
              },
            ),
          );
        };
        try {
          track(() => client.login());
          await Promise.race([outcomes[0], sleep(3_000)]);
          sessionToken = client.sessionManager.getSession()?.token ?? '';
          scanner.secret('session token', sessionToken);
          for (let i = 0; i < sends; i += 1) track(() => client.sendMessage(CHANNEL, `send ${i}`));
          await sleep(150);
          client.closeSocket();
          // Every operation settles once the client is closed (a bound far above any wait configured above).
          const settled = await Promise.race([Promise.all(outcomes), sleep(10_000).then(() => undefined)]);
          expect(settled, 'every operation settles').toBeDefined();
          for (const outcome of settled ?? []) expect(outcome).not.toMatch(/^threw/);
          // Bounded: nothing left waiting, and errors proportional to what the server sent.
          expect(client.outbox.current).toMatchObject({ queued: 0, inFlight: 0 });
          expect(errors.length).toBeLessThanOrEqual(20 + 4 * (steps.length + sends + platform.sockets.length));
          scanner.value('errors$', errors);
          scanner.value('lifecycle$', lifecycle);
          scanner.value('client', client);
          scanner.expectNoLeaks();
          await sleep(0);
          expect(unhandled.seen).toEqual([]);
        } finally {
          client.destroy();
          await platform.close();
        }
      }),
      { numRuns: RUNS },
    );
  }, 20_000 + RUNS * 3_000);
});
