import { map, type Observable } from 'rxjs';
import { checkAnswer } from '../api/answer-check.js';
import type { HttpRequester } from '../api/request.js';
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
        // The session JWT travels in the body: a prover echoing it into an error must not hand it on.
        secrets: [request.jwt],
        setting: '`zkApiUrl` (or the zk_url the server advertised)',
      }))
      .pipe(map((answer) => ({ ...checkAnswer<{ data: IZkProof }>(ROUTE, { data: { proof: 'string', public_input: 'string' } }, answer).data })));
  }
}
