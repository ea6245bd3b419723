import type { EmulatorWebhook } from '../emulator/types.js';
import { UsageError } from './args.js';

/** The emulator's test API path for webhooks (see src/emulator/http/routes/test-api.ts). */
const ROUTE = '/emulator/webhooks';

async function call<T>(emulatorUrl: string, init: RequestInit): Promise<T> {
  let base: URL;
  try {
    base = new URL(emulatorUrl);
  } catch (error) {
    throw new UsageError(`"${emulatorUrl}" is not a URL; give the emulator's URL, e.g. http://127.0.0.1:7350`, { cause: error });
  }
  let response: Response;
  try {
    response = await fetch(new URL(ROUTE, base), { ...init, headers: { 'content-type': 'application/json', accept: 'application/json' } });
  } catch (error) {
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    throw new Error(`no emulator answers at ${base.origin} (${typeof code === 'string' ? code : 'unreachable'}); start one with "clanstream emulator"`, { cause: error });
  }
  const body = (await response.json().catch(() => ({}))) as T & { message?: string };
  if (!response.ok) throw new Error(`the emulator refused (${response.status}): ${body.message ?? response.statusText}`);
  return body;
}

/** Creates a channel or clan webhook on a running emulator (the test API), resolving with its URL and details. */
export function createEmulatorWebhook(emulatorUrl: string, target: { channel?: string; clan?: string; name?: string }): Promise<EmulatorWebhook> {
  return call<EmulatorWebhook>(emulatorUrl, { method: 'POST', body: JSON.stringify(target) });
}

/** Every webhook of a running emulator. */
export async function listEmulatorWebhooks(emulatorUrl: string): Promise<EmulatorWebhook[]> {
  return (await call<{ webhooks: EmulatorWebhook[] }>(emulatorUrl, { method: 'GET' })).webhooks;
}
