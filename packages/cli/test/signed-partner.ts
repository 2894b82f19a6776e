import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One handoff the partner received, and whether its signature verified. */
export interface ReceivedHandoff {
  readonly headers: IncomingHttpHeaders;
  readonly payload: Record<string, unknown>;
  readonly verified: boolean;
}

/** A partner on 127.0.0.1 checking every request with the `standardwebhooks` package. */
export interface SignedPartner {
  readonly url: string;
  readonly received: ReceivedHandoff[];
  close(): Promise<void>;
}

/**
 * Starts a partner on loopback that verifies each handoff's Standard Webhooks signature
 * with `secret` (401 when it does not verify), then lets `answer` reply to the n-th
 * verified request (0-based).
 *
 * @example
 * ```ts
 * const partner = await startSignedPartner(secret, (response) => response.writeHead(202).end());
 * ```
 */
export async function startSignedPartner(
  secret: string,
  answer: (response: ServerResponse, index: number, payload: Record<string, unknown>) => void,
): Promise<SignedPartner> {
  const verifier = new Webhook(secret);
  const received: ReceivedHandoff[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = true;
      try {
        verifier.verify(body, request.headers as Record<string, string>);
      } catch {
        verified = false;
      }
      const payload = JSON.parse(body) as Record<string, unknown>;
      received.push({ headers: request.headers, payload, verified });
      if (!verified) {
        response.writeHead(401).end();
        return;
      }
      answer(response, received.filter((entry) => entry.verified).length - 1, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/programrun/handoffs`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
