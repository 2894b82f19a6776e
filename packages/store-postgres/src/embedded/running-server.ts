// A started server as the caller sees it: how to reach it, and how to stop it.
import type { ClusterLayout } from './cluster-layout.js';
import { SERVER_DATABASE, SERVER_ROLE, type ServerEndpoint } from './server-settings.js';
import { stopPostmaster } from './stop-postmaster.js';

/** How to reach a running embedded server. */
export interface EmbeddedPostgresConnection {
  /** The socket directory, or `127.0.0.1`. */
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

/** A PostgreSQL server this process started in a data directory. */
export interface EmbeddedPostgres {
  readonly connection: EmbeddedPostgresConnection;
  /** A `postgres://` URL for `psql` and other clients (holds the password). */
  readonly url: string;
  /** The server's process id. */
  readonly pid: number;
  /** The PostgreSQL data directory (`<dataDir>/postgres`). */
  readonly clusterDir: string;
  /** Stops the server (fast shutdown: a checkpoint, then exit); resolves once it exited. */
  stop(): Promise<void>;
}

function urlOf(endpoint: ServerEndpoint, password: string): string {
  const credentials = `${SERVER_ROLE}:${encodeURIComponent(password)}`;
  return endpoint.kind === 'tcp'
    ? `postgres://${credentials}@${endpoint.host}:${endpoint.port}/${SERVER_DATABASE}`
    : `postgres://${credentials}@localhost:${endpoint.port}/${SERVER_DATABASE}?host=${encodeURIComponent(endpoint.directory)}`;
}

/** The running server `pid`, stopped by `stop()` or, failing that, when this process exits. */
export function runningServer(
  pid: number,
  endpoint: ServerEndpoint,
  password: string,
  layout: ClusterLayout,
): EmbeddedPostgres {
  // A host that exits without closing (an uncaught error, process.exit) still asks its
  // server to stop; after a SIGKILL the next start stops it.
  const onExit = () => {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // Gone already.
    }
  };
  process.once('exit', onExit);
  let stopping: Promise<void> | undefined;
  return {
    connection: {
      host: endpoint.kind === 'tcp' ? endpoint.host : endpoint.directory,
      port: endpoint.port,
      user: SERVER_ROLE,
      password,
      database: SERVER_DATABASE,
    },
    url: urlOf(endpoint, password),
    pid,
    clusterDir: layout.clusterDir,
    stop() {
      stopping ??= (async () => {
        process.off('exit', onExit);
        await stopPostmaster(pid);
      })();
      return stopping;
    },
  };
}
