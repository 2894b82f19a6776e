// A Unix socket in the cluster directory when its path fits (the kernel limits a socket
// path to 108 bytes on Linux, 104 on macOS), else a free port on 127.0.0.1 chosen at each
// start.
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { ServerEndpoint } from './server-settings.js';

/** The socket's port number: with no TCP listener it only names the socket file. */
const SOCKET_PORT = 5432;
const SOCKET_PATH_LIMIT = 103;

/** A TCP port nobody listens on right now, on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no free port on 127.0.0.1')),
      );
    });
  });
}

/** Where the server of `clusterDir` listens this time. */
export async function chooseEndpoint(clusterDir: string): Promise<ServerEndpoint> {
  const socket = join(clusterDir, `.s.PGSQL.${SOCKET_PORT}`);
  if (process.platform !== 'win32' && Buffer.byteLength(socket) <= SOCKET_PATH_LIMIT) {
    return { kind: 'socket', directory: clusterDir, port: SOCKET_PORT };
  }
  return { kind: 'tcp', host: '127.0.0.1', port: await freePort() };
}
