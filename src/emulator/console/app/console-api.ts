/** The page's calls to the console's API (../api.ts), typed by ../contract.ts. */
import type { ConsoleAccount, ConsoleAction, ConsoleBotStatus, ConsoleErrorBody, ConsoleFault, ConsoleLedger, ConsoleWire, ConsoleWorld } from '../contract.js';

async function call<T>(path: string, init?: { method: 'POST'; body: unknown }): Promise<T> {
  const response = await fetch(path, {
    cache: 'no-store',
    ...(init ? { method: init.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const reason = (body as ConsoleErrorBody | undefined)?.error ?? text.trim();
    throw new Error(`${response.status}: ${reason || response.statusText}`);
  }
  return body as T;
}

export const consoleApi = {
  accounts: () => call<{ accounts: ConsoleAccount[] }>('/console/accounts').then((r) => r.accounts),
  world: () => call<ConsoleWorld>('/console/api/world'),
  ledger: () => call<ConsoleLedger>('/console/api/ledger'),
  bots: () => call<{ bots: ConsoleBotStatus[] }>('/console/api/bots').then((r) => r.bots),
  wire: (after: number, filter: { channel?: string; user?: string; kind?: string }) => {
    const query = new URLSearchParams({ after: String(after) });
    for (const [key, value] of Object.entries(filter)) if (value) query.set(key, value);
    return call<ConsoleWire>(`/console/api/wire?${query.toString()}`);
  },
  act: (action: ConsoleAction) => call<{ ok: true }>('/console/api/act', { method: 'POST', body: action }),
  fault: (fault: ConsoleFault) => call<{ ok: true; bots: ConsoleBotStatus[] }>('/console/api/faults', { method: 'POST', body: fault }).then((r) => r.bots),
};

/** The message of anything thrown, for the status line. */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
