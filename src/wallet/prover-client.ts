import { map, type Observable } from 'rxjs';
import type { HttpRequester } from '../api/request.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { IZkProof, ProveRequest } from './jsonrpc.js';

/** `client_type` the proof requests carry unless told otherwise. */
export const DEFAULT_CLIENT_TYPE = 'bot';

const ROUTE = 'POST {zkApiUrl}/prove';

/**
 * Client of the proof service: `POST {zkApiUrl}/prove` with the session JWT
 * in the body (PROTOCOL §8.4). Errors are typed ApiErrors (401
 * `token_expired` when the JWT expired, 503 while the prover is down) whose
 * messages never contain the JWT.
 */
export class ProverClient {
  constructor(
    private readonly http: HttpRequester,
    private readonly url: () => string,
  ) {}

  /** A proof that `ephemeral_pk` may sign for `address` until the JWT expires. */
  prove$(request: ProveRequest): Observable<IZkProof> {
    return this.http
      .request$<unknown>({ method: 'POST', route: ROUTE, path: '/prove', body: request, idempotent: true }, () => ({
        baseUrl: this.url().replace(/\/+$/, ''),
        headers: { 'content-type': 'application/json' },
      }))
      .pipe(map(readProof));
  }
}

function readProof(answer: unknown): IZkProof {
  const data = typeof answer === 'object' && answer !== null ? (answer as { data?: unknown }).data : undefined;
  if (typeof data === 'object' && data !== null) {
    const { proof, public_input } = data as Record<string, unknown>;
    if (typeof proof === 'string' && proof !== '' && typeof public_input === 'string') return { proof, public_input };
  }
  // The answer holds no secret we sent (the JWT is never echoed), but keep the excerpt short anyway.
  throw new ProtocolError(`${ROUTE}: the answer is not {data: {proof, public_input}}`, typeof answer === 'string' ? answer : '');
}
