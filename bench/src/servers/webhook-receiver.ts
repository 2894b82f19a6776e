// A webhook receiver in its own process: verifies every delivery with the standardwebhooks
// package against the secrets sent on stdin-less IPC, answers 204 (or 400), and reports
// counts on request. Started by src/webhooks.ts with child_process.fork.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

const verifiers: Webhook[] = [];
let verified = 0;
let refused = 0;

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    };
    const ok = verifiers.some((verifier) => {
      try {
        verifier.verify(body, headers);
        return true;
      } catch {
        return false;
      }
    });
    if (ok) verified += 1;
    else refused += 1;
    response.writeHead(ok ? 204 : 400).end();
  });
});

process.on('message', (message: { secret?: string; report?: true }) => {
  if (message.secret) verifiers.push(new Webhook(message.secret));
  if (message.report) process.send?.({ verified, refused });
});

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
