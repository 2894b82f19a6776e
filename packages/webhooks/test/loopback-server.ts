import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Starts `server` on 127.0.0.1 (a random port), counting connections on `state`, and
 * returns `state` with the port.
 *
 * @example
 * ```ts
 * const trap = await listenCounting(createServer(handler), { server, port: 0, connections: 0 });
 * ```
 */
export async function listenCounting<State extends { port: number; connections: number }>(
  server: Server,
  state: State,
): Promise<State> {
  server.on('connection', () => {
    state.connections += 1;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return Object.assign(state, { port: (server.address() as AddressInfo).port });
}

/**
 * Closes a server and every connection it holds.
 *
 * @example
 * ```ts
 * await closeServer(trap.server);
 * ```
 */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
}
