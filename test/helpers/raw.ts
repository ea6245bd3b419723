/**
 * Raw protocol helpers for tests that drive the emulator without the client
 * library: plain fetch and a plain WebSocket, speaking docs/PROTOCOL.md.
 */
import WebSocket from 'ws';
import type { ApiSession } from '../../src/model/api.js';
import { rawText } from '../support/ws-frames.js';

export interface Credentials {
  /** Bot id or user id. */
  id: string;
  /** API key. */
  token: string;
}

export interface HttpResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** `POST /v2/apps/authenticate/token` with HTTP Basic and the account body. */
export async function authenticate(baseUrl: string, creds: Credentials): Promise<ApiSession> {
  const res = await authenticateRaw(baseUrl, creds);
  if (res.status !== 200) throw new Error(`authentication failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ApiSession;
}

export async function authenticateRaw(baseUrl: string, creds: Credentials, basicKey = creds.token): Promise<HttpResult> {
  return http(baseUrl, 'POST', '/v2/apps/authenticate/token', {
    body: { account: { appid: creds.id, token: creds.token } },
    headers: { authorization: `Basic ${Buffer.from(`${basicKey}:`).toString('base64')}` },
  });
}

/** One HTTP request with a JSON body; returns status, parsed body and headers. */
export async function http<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Leave non-JSON bodies as text.
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/** Shorthand for an authenticated REST call with a session. */
export function api<T = unknown>(session: ApiSession, method: string, path: string, body?: unknown): Promise<HttpResult<T>> {
  return http<T>(session.api_url, method, path, { token: session.token, ...(body !== undefined ? { body } : {}) });
}

export type Frame = Record<string, unknown>;

/**
 * A bare gateway socket that records every frame it receives and lets a test
 * wait for the next frame matching a predicate.
 */
export class RawGateway {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private cursor = 0;
  private nextCid = 1;
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(rawText(data)) as Frame);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        for (const wake of this.waiters.splice(0)) wake();
        resolve({ code, reason: reason.toString() });
      });
    });
  }

  /** Opens `{ws_url}/ws?token=…&protocol=1` and waits for `hello`. */
  static async connect(wsUrl: string, token: string | undefined, options: { protocol?: string | null } = {}): Promise<RawGateway> {
    const params = new URLSearchParams();
    if (token !== undefined) params.set('token', token);
    const protocol = options.protocol === undefined ? '1' : options.protocol;
    if (protocol !== null) params.set('protocol', protocol);
    const gateway = new RawGateway(new WebSocket(`${wsUrl}/ws?${params.toString()}`));
    await new Promise<void>((resolve, reject) => {
      gateway.ws.once('open', () => resolve());
      gateway.ws.once('error', reject);
    });
    return gateway;
  }

  /** Connects, waits for hello, sends `start` and joins the given clans. */
  static async start(session: ApiSession, clanIds: string[] = []): Promise<RawGateway> {
    const gateway = await RawGateway.connect(session.ws_url, session.token);
    await gateway.next((f) => 'hello' in f);
    await gateway.request('start', {});
    for (const clanId of clanIds) await gateway.request('clan_join', { clan_id: clanId });
    return gateway;
  }

  send(frame: Frame | string): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sends `{cid, [op]: payload}` and resolves with the reply carrying that cid. */
  async request(op: string, payload: unknown, timeoutMs = 5000): Promise<Frame> {
    const cid = `c${this.nextCid++}`;
    this.send({ cid, [op]: payload });
    return this.find((f) => f.cid === cid, timeoutMs);
  }

  /** The next frame (after those already consumed by `next`) matching a predicate. */
  async next(predicate: (frame: Frame) => boolean = () => true, timeoutMs = 5000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (this.cursor < this.frames.length) {
        const frame = this.frames[this.cursor++]!;
        if (predicate(frame)) return frame;
      }
      await this.wait(deadline);
    }
  }

  /** Any frame received so far or later matching a predicate (does not move the cursor). */
  async find(predicate: (frame: Frame) => boolean, timeoutMs = 5000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found) return found;
      await this.wait(deadline);
    }
  }

  /** Event pushes (frames with `seq`) received so far. */
  events(type?: string): Frame[] {
    return this.frames.filter((f) => typeof f.seq === 'number' && (type === undefined || type in f));
  }

  /** Waits until at least `count` event pushes of a type have arrived. */
  async waitForEvents(count: number, type?: string, timeoutMs = 5000): Promise<Frame[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events(type).length < count) await this.wait(deadline);
    return this.events(type);
  }

  private wait(deadline: number): Promise<void> {
    const remaining = deadline - Date.now();
    if (remaining <= 0 || this.ws.readyState === WebSocket.CLOSED) {
      return Promise.reject(new Error(`timed out waiting for a frame; got ${JSON.stringify(this.frames.slice(-3))}`));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a frame; last frames ${JSON.stringify(this.frames.slice(-3))}`)), remaining);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  close(): Promise<{ code: number; reason: string }> {
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING) this.ws.close(1000);
    return this.closed;
  }
}

/** The single op key of a frame besides cid/seq/session_id. */
export function opOf(frame: Frame): string | undefined {
  return Object.keys(frame).find((k) => k !== 'cid' && k !== 'seq' && k !== 'session_id');
}
