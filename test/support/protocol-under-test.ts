/**
 * The protocol the client and structure suites speak, chosen per vitest
 * project (vitest.config.ts) by `CLANSTREAM_TEST_PROTOCOL`: clanstream's JSON
 * protocol (the default), or production's sdk-2.8.44 (era C) or sdk-2.8.37
 * (era B) against the emulator's production front end. The suites' support
 * files apply it; a case that cannot apply in production (resume, the token
 * move) is replaced there by its production counterpart.
 */
import type { ClientConfigDto } from '../../src/index.js';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { production } from '../../src/production/index.js';

export type ProtocolUnderTest = 'clanstream' | 'sdk-2.8.44' | 'sdk-2.8.37';

const PROTOCOLS: readonly ProtocolUnderTest[] = ['clanstream', 'sdk-2.8.44', 'sdk-2.8.37'];

function chosen(): ProtocolUnderTest {
  const asked = process.env.CLANSTREAM_TEST_PROTOCOL ?? 'clanstream';
  if (!(PROTOCOLS as readonly string[]).includes(asked)) throw new Error(`CLANSTREAM_TEST_PROTOCOL must be one of ${PROTOCOLS.join(', ')}; got "${asked}"`);
  return asked as ProtocolUnderTest;
}

/** The protocol of this run. */
export const PROTOCOL_UNDER_TEST: ProtocolUnderTest = chosen();

/** Whether this run speaks production (no resume, no idempotent resend, RPC REST). */
export const inProduction: boolean = PROTOCOL_UNDER_TEST !== 'clanstream';

/**
 * What a client of this run adds to its config: production's protocol
 * object, unpaced. `emulatorUrl` points its media plays at that emulator
 * (production posts them to a host of their own).
 */
export function protocolConfig(emulatorUrl?: string): Partial<ClientConfigDto> {
  if (PROTOCOL_UNDER_TEST === 'clanstream') return {};
  return { protocol: production({ dialect: PROTOCOL_UNDER_TEST, restIntervalMs: 0, ...(emulatorUrl ? { mediaUrl: `${emulatorUrl}/api/playmedia` } : {}) }) };
}

/** What an emulator of this run needs: its production front end. */
export function emulatorConfig(): Partial<EmulatorOptions> {
  return inProduction ? { compat: true } : {};
}

