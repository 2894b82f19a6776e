// A bare node:http handler: reads the body, checks the key header, answers 201 with a
// stored run record of the same scenario (a similar body). Prints "ready <port>".
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { BENCH_KEY } from './bench-key.js';

const body = readFileSync(process.env.BODY_FILE!, 'utf8');
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (request.headers.authorization !== `Bearer ${BENCH_KEY}`) {
      response.writeHead(401).end();
      return;
    }
    response.writeHead(201, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
