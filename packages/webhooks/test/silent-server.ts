import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** When each connection to any of several silent servers was accepted (shared by them). */
export interface ConnectionLog {
  /** `performance.now()` of each accepted connection. */
  readonly accepted: number[];
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers. */
export interface SilentServer {
  /** `http://127.0.0.1:<port>/hook`. */
  readonly url: string;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * Starts a receiver that accepts every connection, reads the request and never answers: the
 * slowest kind of dead endpoint (each attempt waits for the dispatcher's timeout).
 * Servers given the same `shared` log the connections accepted over all of them.
 *
 * @example
 * ```ts
 * const silent = await startSilentServer();
 * await engine.webhooks.createEndpoint(scope, { url: silent.url });
 * ```
 */
export async function startSilentServer(
  shared: ConnectionLog = { accepted: [] },
): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    shared.accepted.push(performance.now());
    sockets.add(socket);
    // Reads (and drops) the request, so a connection the client closes ends here too.
    socket.resume();
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get connections() {
      return connections;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
