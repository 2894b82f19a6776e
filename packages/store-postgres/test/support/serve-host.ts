// The HTTP side of a child host process: serves `handler` on 127.0.0.1, prints one
// `{ ready, port, pid }` line for the parent, and on SIGTERM stops serving, runs `stop`
// (background work, then the store) and exits 0.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handler } from '@programrun/http';
import { createNodeListener } from '@programrun/http/node';

export function serveHost(
  handler: Handler,
  port: number,
  stop: () => Promise<unknown>,
  fail: (reason: unknown) => never,
): void {
  const server = createServer(createNodeListener(handler));
  server.keepAliveTimeout = 1_000;
  server.on('error', fail);
  server.listen(port, '127.0.0.1', () => {
    const { port: bound } = server.address() as AddressInfo;
    console.log(JSON.stringify({ ready: true, port: bound, pid: process.pid }));
  });
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void stop().then(
      () => process.exit(0),
      (error: unknown) => fail(error),
    );
  });
}
