/** Connects real clients to an emulator in tests. */
import { ServiceClient, type ClientConfigDto } from '../../src/index.js';
import type { Emulator } from '../../src/emulator/index.js';

/** Host, port and scheme of an emulator, as client config. */
export function emulatorAddress(emu: Emulator): Pick<ClientConfigDto, 'host' | 'port' | 'useSSL' | 'mmnApiUrl' | 'zkApiUrl'> {
  const url = new URL(emu.url);
  return { host: url.hostname, port: url.port, useSSL: url.protocol === 'https:', mmnApiUrl: `${emu.url}/mmn`, zkApiUrl: `${emu.url}/zk` };
}

/** A client for an account of the emulator (not logged in yet). */
export function clientFor(emu: Emulator, account: { botId: string; token: string } | { id: string; token: string }, overrides: Partial<ClientConfigDto> = {}): ServiceClient {
  const botId = 'botId' in account ? account.botId : account.id;
  return new ServiceClient({ botId, token: account.token, ...emulatorAddress(emu), ...overrides });
}

/** Resolves when `predicate` holds, polling every few ms; rejects after `timeoutMs` with `what` in the message. */
export async function until(predicate: () => boolean, what = 'condition', timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
