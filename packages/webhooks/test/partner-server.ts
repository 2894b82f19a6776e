import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { closeServer } from './loopback-server.js';

/** One handoff request the partner received and verified. */
export interface PartnerRequest {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly payload: Record<string, unknown>;
}

/** How the partner answers one verified request. */
export type PartnerRoute = (request: PartnerRequest, response: ServerResponse) => void;

/** A real partner on 127.0.0.1 that verifies every handoff with `standardwebhooks`. */
export interface TestPartner {
  readonly url: string;
  /** Verified requests, in arrival order (retries included). */
  readonly received: PartnerRequest[];
  /** Requests whose signature did not verify (answered 401). */
  readonly rejected: string[];
  route: PartnerRoute;
  close(): Promise<void>;
}

/**
 * Answers `response` with `status` and a JSON body.
 *
 * @example
 * ```ts
 * answer(response, 200, { outcome: 'confirmed', reference: 'PAY-1' });
 * ```
 */
export function answer(response: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    response.writeHead(status).end();
    return;
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json' }).end(text);
}

/**
 * Starts a partner on 127.0.0.1 that checks each request's Standard Webhooks signature
 * with the official package, then lets `partner.route` answer it.
 *
 * @example
 * ```ts
 * const partner = await startPartner(secret);
 * partner.route = (request, response) => answer(response, 202);
 * ```
 */
export async function startPartner(secret: string): Promise<TestPartner> {
  const verifier = new Webhook(secret);
  const state = {
    received: [] as PartnerRequest[],
    rejected: [] as string[],
    route: ((_request, response) => answer(response, 202)) as PartnerRoute,
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        verifier.verify(body, request.headers as Record<string, string>);
      } catch (error) {
        state.rejected.push(error instanceof Error ? error.message : String(error));
        answer(response, 401, { error: 'invalid signature' });
        return;
      }
      const received: PartnerRequest = {
        headers: request.headers,
        body,
        payload: JSON.parse(body) as Record<string, unknown>,
      };
      state.received.push(received);
      state.route(received, response);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/handoffs`,
    close: () => closeServer(server),
  });
}
