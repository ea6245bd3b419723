/** A production codec for tests: its context's debug records, reports, sent frames and renewed sessions kept. */
import type { DebugEvent } from '../../../src/index.js';
import type { ClanstreamError } from '../../../src/index.js';
import { ProductionCodec } from '../../../src/production/socket/production-codec.js';
import type { CodecContext } from '../../../src/index.js';
import type { RequestStyle } from '../../../src/production/socket/requests.js';
import { eraAToEraB } from '../../../src/production/events/era-a.js';
import { DIALECTS, type Dialect, type DialectName } from '../../../src/production/wire/dialects.js';
import { BOT_ID } from './event-samples.js';

export interface CodecHarness {
  codec: ProductionCodec;
  debug: DebugEvent[];
  reports: ClanstreamError[];
  sent: Uint8Array[];
  sessions: Array<Record<string, unknown>>;
}

/** The styles each dialect defaults to (production(): options.ts). */
export function styleOf(name: DialectName, change: Partial<RequestStyle> = {}): RequestStyle {
  return { dialect: name, editsAsRpc: name === 'sdk-2.8.44', singleReceiverEphemerals: name !== 'sdk-2.8.44', ...change };
}

export function codecFor(name: DialectName, options: { style?: Partial<RequestStyle>; send?: boolean; known?: readonly Dialect[] } = {}): CodecHarness {
  const harness: Omit<CodecHarness, 'codec'> = { debug: [], reports: [], sent: [], sessions: [] };
  const context: CodecContext = {
    debug: (event) => harness.debug.push(event),
    report: (error) => harness.reports.push(error),
    userId: () => BOT_ID,
    renewSession: (session) => harness.sessions.push(session),
    ...(options.send === false ? {} : { send: (frame) => harness.sent.push(frame as Uint8Array) }),
  };
  const dialect = DIALECTS.find((d) => d.name === name)!;
  const codec = new ProductionCodec(
    { dialect, known: options.known ?? DIALECTS, style: styleOf(name, options.style), protocolName: `production:${name}`, translate: { selfId: () => BOT_ID }, ...(name === 'sdk-2.8.33' ? { reshape: eraAToEraB } : {}) },
    context,
  );
  return { codec, ...harness };
}
