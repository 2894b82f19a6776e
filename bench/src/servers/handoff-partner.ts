// A handoff partner in its own process for bench:partners: verifies each request's
// Standard Webhooks signature (standardwebhooks package) with the secret sent over IPC and
// answers 200 at once with a confirmed answer (the low risk wallet screening expects).
// Reports counts on request. Started by src/partners.ts with child_process.fork.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

let verifier: Webhook | undefined;
let answered = 0;
let refused = 0;

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const key = String(request.headers['idempotency-key']);
    try {
      verifier!.verify(body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      });
    } catch {
      refused += 1;
      response.writeHead(401).end();
      return;
    }
    answered += 1;
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(
        JSON.stringify({ outcome: 'confirmed', reference: `ref_${key}`, data: { risk: 'low' } }),
      );
  });
});
server.keepAliveTimeout = 10_000;

process.on('message', (message: { secret?: string; report?: true }) => {
  if (message.secret) verifier = new Webhook(message.secret);
  if (message.report) process.send?.({ answered, refused });
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
